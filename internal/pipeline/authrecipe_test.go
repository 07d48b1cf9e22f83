// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/configyaml"
)

// recipeBlock is the YAML block of docs/platform.md's recipe for an rh-dev server behind an
// OIDC issuer.
var recipeBlock = regexp.MustCompile("(?s)\\*\\*Recipe: OpenShift AI's `rh-dev` behind Keycloak.*?```yaml\n(.*?)```")

// The docs' recipe renders a server that authenticates its callers: the image's OAuth2 provider
// resolves on in the pod, with the issuer's keys, and no warning says the server is open.
func TestTheAuthRecipeRendersAServerThatAuthenticates(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "platform.md"))
	require.NoError(t, err)
	m := recipeBlock.FindSubmatch(doc)
	require.NotNil(t, m, "docs/platform.md has the recipe")
	got := renderWild(t, m[1], nil)
	require.Empty(t, got.errors)
	for _, w := range got.warnings {
		assert.NotContains(t, w, "authenticates nobody")
	}
	var config string
	for _, o := range got.items {
		if o.GetKind() == "ConfigMap" {
			config, _, _ = o.NestedString("data", "config.yaml")
		}
	}
	tree, err := configyaml.UnmarshalMap([]byte(config))
	require.NoError(t, err)
	provider := tree["server"].(map[string]any)["auth"].(map[string]any)["provider_config"].(map[string]any)
	assert.Equal(t, "${env.AUTH_ISSUER:+oauth2_token}", provider["type"], "the image's provider, which AUTH_ISSUER turns on")
	assert.Contains(t, config, "AUTH_JWKS_URI", "the issuer's keys are read from the variable the recipe sets")
}
