// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/distributions"
)

// A render whose ConfigMap the API server would refuse (over 1 MiB of data: here a base config
// that registers thousands of models) is an error that says how large and what takes the
// room, not an output that fails at apply (F9). The same base config with fewer models renders.
func TestAConfigMapTheAPIServerWouldRefuseIsAnError(t *testing.T) {
	starter, err := distributions.FS.ReadFile("starter/0.7.yaml")
	require.NoError(t, err)
	withModels := func(n int) map[string]string {
		var models strings.Builder
		for i := range n {
			fmt.Fprintf(&models, "  - {model_id: team-model-%05d, provider_id: ollama, provider_model_id: 'library/team-model-%05d:latest', model_type: llm}\n", i, i)
		}
		config := strings.Replace(string(starter), `
  models: []
`, "\n  models:\n"+models.String(), 1)
		require.Contains(t, config, "team-model-00000")
		return map[string]string{"config.yaml": config}
	}
	doc := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: many, namespace: ai}
spec:
` +
		"  distribution: {image: quay.io/example/custom:1, serverVersion: \"0.7\", baseConfig: {configMapName: base}}\n" +
		"  providers: {inference: {provider: ollama, endpoint: 'http://ollama:11434/v1'}}\n"

	problems, _ := renderWithConfigMap(t, doc, "base", withModels(12000))
	require.Len(t, problems, 1, strings.Join(problems, "\n"))
	assert.Regexp(t, `^error: spec: Forbidden: the generated ConfigMap many-config-[0-9a-f]{10} would hold 1\.[0-9] MiB, more than the 1\.0 MiB the API server takes in a ConfigMap \(the largest parts of config.yaml: registered_resources 1\.[0-9] MiB, providers [0-9]+ KiB, .*\): register fewer resources`, problems[0])

	problems, _ = renderWithConfigMap(t, doc, "base", withModels(100))
	for _, p := range problems {
		assert.NotContains(t, p, "error:")
	}
}
