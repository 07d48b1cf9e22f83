// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
)

// renderWithConfigMap renders one LLSD document with one ConfigMap of its namespace among the
// inputs, and returns the errors and warnings as its user reads them (v1alpha1 paths for a
// v1alpha1 object) and the key of the ConfigMap the server runs (RUN_CONFIG_PATH).
func renderWithConfigMap(t *testing.T, doc, configMap string, data map[string]string) (problems []string, mountedKey string) {
	t.Helper()
	decoded, errs := api.DecodeObject([]byte(doc))
	require.Empty(t, errs, doc)
	spoke := strings.Contains(doc, "llamastack.io/v1alpha1")
	res, errs := pipeline.RenderDecoded(decoded, pipeline.Options{RendererVersion: "test", ConfigMaps: map[string]map[string]string{"ai/" + configMap: data}})
	written := func(path, text string) string {
		if spoke {
			return v1alpha1.SpokePath(path) + ": " + text
		}
		return path + ": " + text
	}
	for _, e := range errs {
		problems = append(problems, "error: "+written(e.Field, e.ErrorBody()))
	}
	if res == nil {
		return problems, ""
	}
	for _, w := range res.Warnings {
		problems = append(problems, "warning: "+written(w.Field, w.Message))
	}
	for _, o := range res.Objects {
		d, ok := o.(*appsv1.Deployment)
		if !ok || !slices.ContainsFunc(d.Spec.Template.Spec.Volumes, func(v corev1.Volume) bool {
			return v.Name == "config" && v.ConfigMap != nil && v.ConfigMap.Name == configMap
		}) {
			continue
		}
		for _, e := range d.Spec.Template.Spec.Containers[0].Env {
			if e.Name == "RUN_CONFIG_PATH" {
				mountedKey = strings.TrimPrefix(e.Value, "/etc/llama-stack/")
			}
		}
	}
	return problems, mountedKey
}

// A config of the user's own: the key that holds it is found or named, and the config is read
// as its server would read it, with a warning for each thing the server would silently ignore
// or get wrong. Each refusal's fix, applied, renders.
func TestOverrideConfigIsChecked(t *testing.T) {
	v2 := func(distribution, override, extra string) string {
		return `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
  distribution: ` +
			distribution + "\n  overrideConfig: " + override + "\n" + extra
	}
	starter07 := "{name: starter, serverVersion: \"0.7\"}"
	const ollama = `version: 2
providers:
  inference:
  - provider_id: ollama
    provider_type: remote::ollama
    config: {base_url: 'http://ollama:11434/v1'}
`
	for _, tc := range []struct {
		reason, doc string
		data        map[string]string
		want        []string // substrings of the problems, in order
		key         string   // the key mounted as config.yaml, when it renders
		fixed       string   // the document with the error's fix applied, which renders
	}{
		{reason: "a ConfigMap with only run.yaml, as older upstream releases read",
			doc:  v2(starter07, "{configMapName: stack}", ""),
			data: map[string]string{"run.yaml": ollama},
			want: []string{"warning: spec.overrideConfig.configMapName: ConfigMap stack has no config.yaml but run.yaml, the key older upstream releases read: the server runs run.yaml; set spec.overrideConfig.key: run.yaml to say so"},
			key:  "run.yaml"},
		{reason: "the same in a v1alpha1 userConfig",
			doc: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
  server:
    distribution: {name: starter}
    userConfig: {configMapName: stack}
`,
			data: map[string]string{"run.yaml": ollama},
			want: []string{"warning: spec.server.userConfig.configMapName: ConfigMap stack has no config.yaml but run.yaml"},
			key:  "run.yaml"},
		{reason: "the key named",
			doc:  v2(starter07, "{configMapName: stack, key: run.yaml}", ""),
			data: map[string]string{"run.yaml": ollama}, key: "run.yaml"},
		{reason: "a key the ConfigMap does not have",
			doc:   v2(starter07, "{configMapName: stack, key: run.yml}", ""),
			data:  map[string]string{"run.yaml": ollama, "README": "x"},
			want:  []string{`error: spec.overrideConfig.key: Not found: "run.yml (ConfigMap stack has README, run.yaml: set key to the one that holds the server's config)"`},
			fixed: v2(starter07, "{configMapName: stack, key: run.yaml}", "")},
		{reason: "no config.yaml and no key",
			doc:   v2(starter07, "{configMapName: stack}", ""),
			data:  map[string]string{"stack.yaml": ollama},
			want:  []string{`error: spec.overrideConfig.configMapName: Not found: "stack has no key config.yaml (it has stack.yaml): add it, or set spec.overrideConfig.key`},
			fixed: v2(starter07, "{configMapName: stack, key: stack.yaml}", "")},
		{reason: "keys the server ignores: models at the top level, url for Ollama's base_url",
			doc: v2(starter07, "{configMapName: stack}", ""),
			data: map[string]string{"config.yaml": `version: 2
providers:
  inference:
  - provider_id: ollama
    provider_type: remote::ollama
    config: {url: 'http://ollama:11434'}
` +
				`models:
- {model_id: llama3.2:3b, provider_id: ollama}
`},
			want: []string{
				"warning: spec.overrideConfig.configMapName: ConfigMap stack key config.yaml: llama-stack 0.7 ignores the top-level key models (registered_resources.models in llama-stack 0.7)",
				"ConfigMap stack key config.yaml: providers.inference[0].config: remote::ollama ignores url in llama-stack 0.7 (did you mean base_url?)",
			}, key: "config.yaml"},
		{reason: "a model of a provider the config lacks: the server stops at start-up, an error (#56: the refusal rule)",
			doc: v2("{name: starter, serverVersion: \"1.3\"}", "{configMapName: stack}", ""),
			data: map[string]string{"config.yaml": `version: 2
providers:
  safety:
  - {provider_id: llama-guard, provider_type: inline::llama-guard}
  inference:
  - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: 'http://vllm/v1'}}
` +
				`registered_resources:
  models:
  - {model_id: m, provider_id: ollama}
`},
			want: []string{
				`error: spec.overrideConfig.configMapName: Invalid value: "ConfigMap stack key config.yaml": registered_resources.models[0]: ` +
					"provider_id ollama is none of the config's providers (vllm): the server does not start with this config",
			}},
		{reason: "values the keys do not take: a URL without its scheme, a word where a number goes, a metric spelt otherwise",
			doc: v2("{name: starter, serverVersion: \"1.3\"}", "{configMapName: stack}", ""),
			data: map[string]string{"config.yaml": `version: 2
providers:
  inference:
  - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: 'vllm.models.svc:8000/v1', max_tokens: lots}}
  vector_io:
  - {provider_id: pgvector, provider_type: remote::pgvector, config: {host: pg, distance_metric: cosine}}
`},
			want: []string{
				"error: spec.overrideConfig.configMapName: Invalid value: \"ConfigMap stack key config.yaml\": " +
					"providers.inference[0].config.base_url: remote::vllm's base_url in OGX 1.3 is an http or https URL with a host, which vllm.models.svc:8000/v1 is not, and the server stops at start-up: write http://vllm.models.svc:8000/v1 (or https://); " +
					"providers.inference[0].config.max_tokens: remote::vllm's max_tokens in OGX 1.3 takes an integer, not a string, and the server stops at start-up: write a number; " +
					"providers.vector_io[0].config.distance_metric: remote::pgvector's distance_metric in OGX 1.3 is one of COSINE, L2, L1, INNER_PRODUCT, written exactly so (did you mean COSINE?), and the server stops at start-up",
			}},
		{reason: "a provider type the version does not have: the server stops at start-up, an error naming the releases the config reads like",
			doc: "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: own, namespace: ai}\nspec:\n" +
				"  distribution: {name: rh-dev}\n  overrideConfig: {configMapName: stack}\n",
			data: map[string]string{"config.yaml": `version: 2
apis: [inference, tool_runtime]
providers:
  inference:
  - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: 'http://vllm/v1'}}
  tool_runtime:
  - {provider_id: rag-runtime, provider_type: inline::rag-runtime}
`},
			want: []string{`providers.tool_runtime[0]: llama-stack 0.7 has no provider type "inline::rag-runtime" for tool_runtime, and stops at start-up: ` +
				"the server does not start with this config; the config in ConfigMap stack key config.yaml reads like a config of server 0.6 or earlier " +
				"(the agents/post_training APIs or meta-reference/rag-runtime/tgi providers (0.6 and older)), and OpenShift AI 3.4 runs llama-stack 0.7.1: " +
				"if the object was written for an earlier release, render for it with the render option openshiftAI.release (2.22,"}},
		{reason: "Ollama at localhost, since the pod has no OLLAMA_URL",
			doc: v2(starter07, "{configMapName: stack}", ""),
			data: map[string]string{"config.yaml": `version: 2
providers:
  inference:
  - provider_id: ollama
    provider_type: remote::ollama
    config: {base_url: '${env.OLLAMA_URL:=http://localhost:11434/v1}'}
`},
			want: []string{"providers.inference[0].config.base_url falls back to, since the pod has no OLLAMA_URL, http://localhost:11434/v1: in the pod that is the server itself"},
			key:  "config.yaml"},
		{reason: "a localhost URL with user info: found, and shown without it",
			doc: v2(starter07, "{configMapName: stack}", ""),
			data: map[string]string{"config.yaml": `version: 2
providers:
  inference:
  - provider_id: vllm
    provider_type: remote::vllm
    config: {base_url: 'http://admin:s3cret@localhost:8000/v1'}
`},
			want: []string{"providers.inference[0].config.base_url holds a URL with a credential (not shown)",
				"providers.inference[0].config.base_url is http://xxxxx@localhost:8000/v1: in the pod that is the server itself"},
			key: "config.yaml"},
		{reason: "the same with OLLAMA_URL set",
			doc: v2(starter07, "{configMapName: stack}", "  workload: {overrides: {env: [{name: OLLAMA_URL, value: 'http://ollama:11434/v1'}]}}\n"),
			data: map[string]string{"config.yaml": `version: 2
providers:
  inference:
  - provider_id: ollama
    provider_type: remote::ollama
    config: {base_url: '${env.OLLAMA_URL:=http://localhost:11434/v1}'}
`},
			key: "config.yaml"},
		{reason: "INFERENCE_MODEL, which the config does not read",
			doc:  v2(starter07, "{configMapName: stack}", "  workload: {overrides: {env: [{name: INFERENCE_MODEL, value: llama3.2:3b}]}}\n"),
			data: map[string]string{"config.yaml": ollama},
			want: []string{"warning: spec.workload.overrides.env[0].name: INFERENCE_MODEL does nothing: config.yaml has no ${env.INFERENCE_MODEL}: register the model under spec.resources.models"},
			key:  "config.yaml"},
		{reason: "INFERENCE_MODEL that only a comment of the config names: a comment reads nothing",
			doc:  v2(starter07, "{configMapName: stack}", "  workload: {overrides: {env: [{name: INFERENCE_MODEL, value: llama3.2:3b}]}}\n"),
			data: map[string]string{"config.yaml": "# model: ${env.INFERENCE_MODEL}\n" + ollama},
			want: []string{"warning: spec.workload.overrides.env[0].name: INFERENCE_MODEL does nothing: config.yaml has no ${env.INFERENCE_MODEL}"},
			key:  "config.yaml"},
		{reason: "INFERENCE_MODEL with the config llsd generates from the starter distribution of 0.7",
			doc: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
  distribution: ` + starter07 +
				`
  providers: {inference: {provider: ollama, endpoint: 'http://ollama:11434/v1'}}
  workload: {overrides: {env: [{name: INFERENCE_MODEL, value: llama3.2:3b}]}}
`,
			want: []string{"warning: spec.workload.overrides.env[0].name: INFERENCE_MODEL does nothing: config.yaml has no ${env.INFERENCE_MODEL}"}},
		{reason: "AUTH_ISSUER, which only OpenShift AI's images' configs read: the spec's authentication is what works here",
			doc: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
  distribution: ` + starter07 +
				`
  workload: {overrides: {env: [{name: AUTH_ISSUER, value: "https://idp.example.com"}]}}
`,
			want: []string{"warning: spec.workload.overrides.env[0].name: AUTH_ISSUER does nothing: config.yaml has no ${env.AUTH_ISSUER}: " +
				"give the server its authentication provider with spec.authentication (oidc: issuer, audience, jwksURI)"}},
		{reason: "a config of a custom image, whose version llsd does not know: only the variables are checked, and the user is told",
			doc: v2("{image: registry.example.com/own:1}", "{configMapName: stack}", ""),
			data: map[string]string{"config.yaml": `version: 2
models: []
`},
			want: []string{"warning: spec.distribution: image registry.example.com/own:1 names no server version, so the config in " +
				"ConfigMap stack key config.yaml is checked against none: keys the server ignores and settings it falls back from go " +
				"unnoticed; pin an official image to a release tag, or set spec.distribution.serverVersion to the version it runs"},
			key: "config.yaml"},
		{reason: "... and with the version set, it is checked against that version",
			doc: v2("{image: registry.example.com/own:1, serverVersion: '0.7'}", "{configMapName: stack}", ""),
			data: map[string]string{"config.yaml": `version: 2
models: []
`},
			want: []string{"ignores the top-level key models"},
			key:  "config.yaml"},
		{reason: "a placeholder a template left in a variable, with a config of the user's too (#56)",
			doc: v2(starter07, "{configMapName: stack}", "  workload: {overrides: {env: [{name: INFERENCE_MODEL, value: \"${INFERENCE_MODEL}\"}]}}\n"),
			data: map[string]string{"config.yaml": "version: 2\nimage_name: own\nproviders: {inference: [{provider_id: vllm, provider_type: remote::vllm, " +
				"config: {base_url: 'http://vllm:8000/v1'}}]}\nregistered_resources: {models: [{model_id: '${env.INFERENCE_MODEL}', provider_id: vllm}]}\n"},
			want: []string{"warning: spec.workload.overrides.env[0].value: holds ${INFERENCE_MODEL}, left to be filled in"},
			key:  "config.yaml"},
		{reason: "no YAML mapping",
			doc:   v2(starter07, "{configMapName: stack}", ""),
			data:  map[string]string{"config.yaml": "- a list\n"},
			want:  []string{`error: spec.overrideConfig.configMapName: Invalid value: "ConfigMap stack key config.yaml": not a config.yaml the server can read`},
			fixed: v2(starter07, "{configMapName: stack, key: run.yaml}", "")},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			problems, key := renderWithConfigMap(t, tc.doc, "stack", tc.data)
			require.Len(t, problems, len(tc.want), strings.Join(problems, "\n"))
			for i, want := range tc.want {
				assert.Contains(t, problems[i], want)
			}
			assert.Equal(t, tc.key, key, "the key the server runs")
			if tc.fixed != "" {
				data := map[string]string{"run.yaml": ollama}
				for k, v := range tc.data {
					data[k] = v
				}
				fixed, key := renderWithConfigMap(t, tc.fixed, "stack", data)
				assert.Empty(t, fixed, "the fix renders without a word")
				assert.NotEmpty(t, key, fmt.Sprintf("the fix renders: %v", fixed))
			}
		})
	}
}
