// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/configyaml"
)

// recipeBlock is the YAML block of docs/platform.md's recipe for an rh-dev server behind an
// OIDC issuer.
var recipeBlock = regexp.MustCompile("(?s)\\*\\*Recipe: OpenShift AI's `rh-dev` behind Keycloak.*?```yaml\n(.*?)```")

// yamlBlock is a YAML block of a doc.
var yamlBlock = regexp.MustCompile("(?s)```yaml\n(.*?)```")

// authProviderTypes are the server's provider types of spec.authentication's providers.
var authProviderTypes = map[string]string{"oidc:": "oauth2_token", "kubernetes:": "kubernetes", "github:": "github_token",
	"custom:": "custom", "upstreamHeader:": "upstream_header"}

// The docs' recipe renders a server that authenticates its callers: the image's OAuth2 provider
// resolves on in the pod, with the issuer's keys, and no warning says the server is open.
func TestTheAuthRecipeRendersAServerThatAuthenticates(t *testing.T) {
	m := recipeBlock.FindSubmatch(platformDoc(t))
	require.NotNil(t, m, "docs/platform.md has the recipe")
	provider := authRecipeProvider(t, m[1])
	assert.Equal(t, "${env.AUTH_ISSUER:+oauth2_token}", provider["type"], "the image's provider, which AUTH_ISSUER turns on")
	assert.Contains(t, provider["jwks"], "uri", "the issuer's keys are read from the variable the recipe sets")
}

// Every LlamaStackDistribution of the docs' "Who may call the server" renders without an error
// or a warning of an open server, with the provider its spec names in config.yaml.
func TestEveryAuthRecipeRendersAServerThatAuthenticates(t *testing.T) {
	doc := string(platformDoc(t))
	start := strings.Index(doc, "## Who may call the server")
	require.GreaterOrEqual(t, start, 0)
	section, _, _ := strings.Cut(doc[start+1:], "\n## ")
	recipes := 0
	for _, m := range yamlBlock.FindAllStringSubmatch(section, -1) {
		if !strings.Contains(m[1], "kind: LlamaStackDistribution") || strings.Contains(m[1], "AUTH_ISSUER") {
			continue
		}
		recipes++
		want := ""
		for key, typ := range authProviderTypes {
			if strings.Contains(m[1], "    "+key) {
				want = typ
			}
		}
		require.NotEmpty(t, want, "the recipe names a provider:\n%s", m[1])
		assert.Equal(t, want, authRecipeProvider(t, []byte(m[1]))["type"], m[1])
	}
	assert.GreaterOrEqual(t, recipes, 6, "a recipe for each provider and rh-dev")
}

func platformDoc(t *testing.T) []byte {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "platform.md"))
	require.NoError(t, err)
	return doc
}

// authRecipeProvider renders a recipe, which must render without an error and without the
// warning of an open server, and returns its config's provider_config.
func authRecipeProvider(t *testing.T, recipe []byte) map[string]any {
	t.Helper()
	got := renderWild(t, recipe, nil)
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
	server, _ := tree["server"].(map[string]any)
	auth, _ := server["auth"].(map[string]any)
	provider, _ := auth["provider_config"].(map[string]any)
	require.NotNil(t, provider, "the config names an authentication provider")
	return provider
}
