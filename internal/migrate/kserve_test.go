// SPDX-License-Identifier: Apache-2.0

package migrate_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
)

// An OGXServer cannot name an InferenceService: migrating the KServe example writes what llsd
// derived from it (base_url, tls_verify, the token Secret, the served model), and says that
// the token's objects and the service CA's mount are not the successor's to write.
func TestMigrationKeepsWhatKServeGave(t *testing.T) {
	var items fn.KubeObjects
	for _, f := range []string{"servingruntime.yaml", "inferenceservice.yaml", "llsd.yaml"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", "kserve", "kpt", f))
		require.NoError(t, err)
		more, err := fn.ParseKubeObjects(data)
		require.NoError(t, err)
		items = append(items, more...)
	}
	migrated, results := migrate.Items(items, pipeline.Options{RendererVersion: "test"})
	require.False(t, hasErrors(results), "%v", results)
	var server ogx.OGXServer
	for _, o := range migrated {
		if o.GetKind() == ogx.Kind {
			require.NoError(t, yaml.Unmarshal([]byte(o.String()), &server))
		}
	}
	require.NotNil(t, server.Spec.Providers)
	custom := server.Spec.Providers.Inference.Remote.Custom
	require.Len(t, custom, 1)
	assert.Contains(t, string(custom[0].Settings), `"base_url":"https://granite-predictor.ai.svc.cluster.local:8443/v1"`)
	assert.Contains(t, string(custom[0].Settings), `"tls_verify":"/etc/llama-stack/service-ca/service-ca.crt"`)
	assert.Equal(t, "granite-chat-model-token", custom[0].SecretRefs["api_token"].Name)
	require.NotNil(t, server.Spec.Resources)
	assert.Equal(t, "granite", server.Spec.Resources.Models[0].Name)
	said := false
	for _, r := range results {
		said = said || r.Severity == fn.Warning && r.Field != nil && r.Field.Path == "spec.providers.inference"
	}
	assert.True(t, said, "a warning says the token's objects and the CA's mount are not the successor's: %v", results)
}
