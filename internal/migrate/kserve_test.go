// SPDX-License-Identifier: Apache-2.0

package migrate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
)

// An OGXServer cannot name an InferenceService or LLMInferenceService: migrating the KServe
// and llm-d examples writes what llsd derived from them (base_url, tls_verify, the token
// Secret, the served model), and says which of the token's objects and the service CA's mount
// are not the successor's to write.
func TestMigrationKeepsWhatKServeGave(t *testing.T) {
	for _, tc := range []struct {
		reason, dir     string
		files           []string
		opts            pipeline.Options
		baseURL, model  string
		serviceCA       bool
		warned, unnamed string
	}{
		{reason: "an InferenceService behind OpenShift AI's proxy: a token and the service CA", dir: filepath.Join("kserve", "kpt"),
			files: []string{"servingruntime.yaml", "inferenceservice.yaml", "llsd.yaml"}, opts: pipeline.Options{RendererVersion: "test"},
			baseURL: "https://granite-predictor.ai.svc.cluster.local:8443/v1", model: "granite", serviceCA: true,
			warned: "neither the token llsd rendered for them (Secret granite-chat-model-token, Role and RoleBinding granite-chat-model-access) nor the mount of OpenShift's service CA"},
		{reason: "an LLMInferenceService behind OpenShift AI's gateway: a token, no CA", dir: filepath.Join("llm-d", "kpt"),
			files: []string{"llminferenceservice.yaml", "llsd.yaml"}, opts: pipeline.Options{RendererVersion: "test", Render: render.Options{Platform: render.PlatformOpenShift}},
			baseURL: "http://openshift-ai-inference-openshift-default.openshift-ingress.svc.cluster.local/ai/qwen/v1", model: "Qwen/Qwen3-8B",
			warned: "neither the token llsd rendered for them (Secret qwen-chat-model-token, Role and RoleBinding qwen-chat-model-access): keep those objects", unnamed: "service CA"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			var items fn.KubeObjects
			for _, f := range tc.files {
				data, err := os.ReadFile(filepath.Join("..", "..", "examples", tc.dir, f))
				require.NoError(t, err)
				more, err := fn.ParseKubeObjects(data)
				require.NoError(t, err)
				items = append(items, more...)
			}
			migrated, results := migrate.Items(items, tc.opts)
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
			assert.Contains(t, string(custom[0].Settings), `"base_url":"`+tc.baseURL+`"`)
			assert.Equal(t, tc.serviceCA, strings.Contains(string(custom[0].Settings), `"tls_verify":"/etc/llama-stack/service-ca/service-ca.crt"`))
			assert.Equal(t, items[len(items)-1].GetName()+"-model-token", custom[0].SecretRefs["api_token"].Name)
			require.NotNil(t, server.Spec.Resources)
			assert.Equal(t, tc.model, server.Spec.Resources.Models[0].Name)
			var warning string
			for _, r := range results {
				if r.Severity == fn.Warning && r.Field != nil && r.Field.Path == "spec.providers.inference" {
					warning = r.Message
				}
			}
			assert.Contains(t, warning, tc.warned)
			if tc.unnamed != "" {
				assert.NotContains(t, warning, tc.unnamed, "only what llsd rendered is named")
			}
		})
	}
}
