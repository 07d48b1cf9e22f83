// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/pkg/api"
)

// kserveRuntime is OpenShift AI's vLLM runtime, as its template writes it: the KServe example's.
func kserveRuntime(t *testing.T) string {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "kserve", "kpt", "servingruntime.yaml"))
	require.NoError(t, err)
	return string(data)
}

func kserveISVC(annotations, args string) string {
	return `---
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata:
  name: granite
  namespace: ai
  annotations: {` + annotations + `}
spec:
  predictor:
    model:
      modelFormat: {name: vLLM}
      runtime: vllm-cuda-runtime
      args: [` + args + `]
`
}

func kserveLLM(annotations, spec string) string {
	return `---
apiVersion: serving.kserve.io/v1alpha2
kind: LLMInferenceService
metadata:
  name: qwen
  namespace: ai
  annotations: {` + annotations + `}
spec:
  model: {uri: 'hf://Qwen/Qwen3-8B'}
` + spec
}

const onOpenShift = "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata: {name: options}\nspec: {platform: openshift}\n"

func kserveLLSD(provider, models string) string {
	return `---
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference:
    - {id: granite, provider: vllm, inferenceService: ` + provider + `}
` + models
}

// A provider that names an InferenceService of the package gets, from it and its runtime, the
// URL, the model and its context length, and what OpenShift AI's token check asks for; what
// llsd cannot check or derive is said, and a model the InferenceService does not serve is an
// error. Every server that renders starts (the start-up oracle).
func TestModelsFromTheSamePackage(t *testing.T) {
	const raw, protected = "serving.kserve.io/deploymentMode: RawDeployment", "serving.kserve.io/deploymentMode: RawDeployment, security.opendatahub.io/enable-auth: 'true'"
	const llmRouted = "  router: {route: {}, gateway: {}, scheduler: {}}\n"
	for _, tc := range []struct {
		reason, doc, options string
		baseURL              string
		token                bool
		models               []string
		errors               []string
		warnings             []string
	}{
		{reason: "raw deployment: the predictor Service on port 80, the model registered under its served name with its context length",
			doc:     kserveRuntime(t) + kserveISVC(raw, "--max-model-len=16384") + kserveLLSD("{name: granite}", ""),
			baseURL: "http://granite-predictor.ai.svc.cluster.local/v1", models: []string{"granite"}},
		{reason: "OpenShift AI's token check: https 8443 with a token of the server's service account and the service CA",
			doc:     kserveRuntime(t) + kserveISVC(protected, "") + kserveLLSD("{name: granite}", ""),
			baseURL: "https://granite-predictor.ai.svc.cluster.local:8443/v1", token: true, models: []string{"granite"}},
		{reason: "serverless with the token check: Knative's Service, a token",
			doc: kserveRuntime(t) + kserveISVC("serving.kserve.io/deploymentMode: Serverless, security.opendatahub.io/enable-auth: 'true'", "") +
				kserveLLSD("{name: granite}", ""),
			baseURL: "http://granite-predictor.ai.svc.cluster.local/v1", token: true, models: []string{"granite"}},
		{reason: "serverless without the token check: Knative's Service through its local gateway, no token",
			doc:     kserveRuntime(t) + kserveISVC("serving.kserve.io/deploymentMode: Serverless", "") + kserveLLSD("{name: granite}", ""),
			baseURL: "http://granite-predictor.ai.svc.cluster.local/v1", models: []string{"granite"}},
		{reason: "a model of the spec that the InferenceService serves under another name",
			doc: kserveRuntime(t) + kserveISVC(raw, "--served-model-name=ibm/granite") + kserveLLSD("{name: granite}",
				"  resources: {models: [{name: granite-3.3, provider: granite}]}\n"),
			errors: []string{`spec.resources.models[0]: Invalid value: "granite-3.3": InferenceService granite (spec.providers.inference[0].inferenceService) serves ibm/granite, not granite-3.3: set providerModelId: ibm/granite`}},
		{reason: "the provider in shorthand (spec.providers.inference a single provider)",
			doc: kserveRuntime(t) + kserveISVC(raw, "") + "---\napiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\n" +
				"metadata: {name: chat, namespace: ai}\nspec:\n  distribution: {name: starter}\n" +
				"  providers: {inference: {id: granite, provider: vllm, inferenceService: {name: granite}}}\n",
			baseURL: "http://granite-predictor.ai.svc.cluster.local/v1", models: []string{"granite"}},
		{reason: "the spec names the served model itself: kept, and nothing added",
			doc: kserveRuntime(t) + kserveISVC(raw, "--served-model-name=ibm/granite") + kserveLLSD("{name: granite}",
				"  resources: {models: [{name: granite, providerModelId: ibm/granite}]}\n"),
			baseURL: "http://granite-predictor.ai.svc.cluster.local/v1", models: []string{"granite"}},
		{reason: "an InferenceService not in the package, without a namespace: the names that are",
			doc:    kserveRuntime(t) + kserveISVC(raw, "") + kserveLLSD("{name: granit}", ""),
			errors: []string{`spec.providers.inference[0].inferenceService.name: Invalid value: "granit": no InferenceService granit among the inputs (there are granite); add it to the package, or name its namespace to reach one outside it`}},
		{reason: "an InferenceService of another namespace, not in the package: KServe's defaults, and a warning that llsd could not check it",
			doc:     kserveLLSD("{name: llama, namespace: models}", ""),
			baseURL: "http://llama-predictor.models.svc.cluster.local/v1", models: []string{"llama"},
			warnings: []string{"spec.providers.inference[0].inferenceService: InferenceService models/llama is not among the inputs, so llsd could not check it"}},
		{reason: "a runtime not in the package: assumed, and said",
			doc:     kserveISVC(raw, "") + kserveLLSD("{name: granite}", ""),
			baseURL: "http://granite-predictor.ai.svc.cluster.local/v1", models: []string{"granite"},
			warnings: []string{"spec.providers.inference[0].inferenceService: InferenceService granite: llsd assumed ServingRuntime vllm-cuda-runtime (not among the inputs)"}},
		{reason: "llm-d on OpenShift AI, routed: OpenShift AI's ingress gateway under /<namespace>/<name>, a token allowed to get the LLMInferenceService",
			doc: kserveLLM("", llmRouted) + kserveLLSD("{name: qwen, kind: LLMInferenceService}", ""), options: onOpenShift,
			baseURL: "http://openshift-ai-inference-openshift-default.openshift-ingress.svc.cluster.local/ai/qwen/v1", token: true, models: []string{"qwen"}},
		{reason: "llm-d on KServe, routed through a Gateway not in the package: the workload Service, and a warning that the scheduler is bypassed",
			doc:     kserveLLM("", llmRouted) + kserveLLSD("{name: qwen, kind: LLMInferenceService}", ""),
			baseURL: "http://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", models: []string{"qwen"},
			warnings: []string{"spec.providers.inference[0].inferenceService: LLMInferenceService qwen: llsd assumed the workload Service, bypassing llm-d's scheduler: Gateway kserve/kserve-ingress-gateway"}},
		{reason: "llm-d on OpenShift AI without a route: the workload Service on https with the service CA's certificate, no token",
			doc: kserveLLM("", "") + kserveLLSD("{name: qwen, kind: LLMInferenceService}", ""), options: onOpenShift,
			baseURL: "https://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", models: []string{"qwen"}},
		{reason: "llm-d on KServe without a route: the workload Service on http; a model of the spec by the publisher's name",
			doc: kserveLLM("", "") + kserveLLSD("{name: qwen, kind: LLMInferenceService}",
				"  resources: {models: [{name: qwen, providerModelId: publishers/ai/models/qwen}]}\n"),
			baseURL: "http://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", models: []string{"qwen"}},
		{reason: "a Gateway whose class is no DNS label: refused, since it would name another host for the server and its token",
			doc: kserveLLM("", "  router: {route: {}, gateway: {refs: [{name: inference, namespace: gateways}]}}\n") +
				"---\napiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: inference, namespace: gateways}\n" +
				"spec: {gatewayClassName: 'evil.example#', listeners: [{name: http, protocol: HTTP, port: 80}]}\n" +
				kserveLLSD("{name: qwen, kind: LLMInferenceService}", ""),
			errors: []string{`spec.providers.inference[0].inferenceService: Invalid value: "qwen": LLMInferenceService qwen: its Gateway's spec.gatewayClassName "evil.example#" is no DNS label`}},
		{reason: "a model of the spec that the LLMInferenceService does not serve",
			doc:    kserveLLM("", "") + kserveLLSD("{name: qwen, kind: LLMInferenceService}", "  resources: {models: [{name: Qwen/Qwen3-8B}]}\n"),
			errors: []string{`spec.resources.models[0]: Invalid value: "Qwen/Qwen3-8B": LLMInferenceService qwen (spec.providers.inference[0].inferenceService) serves qwen, not Qwen/Qwen3-8B`}},
		{reason: "an LLMInferenceService not in the package, without a namespace: the names that are",
			doc:    kserveISVC(raw, "") + kserveLLSD("{name: granite, kind: LLMInferenceService}", ""),
			errors: []string{`spec.providers.inference[0].inferenceService.name: Invalid value: "granite": no LLMInferenceService granite among the inputs (there is no LLMInferenceService in namespace ai)`}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			options := fn.NewEmptyKubeObject()
			if tc.options != "" {
				var err error
				options, err = fn.ParseKubeObject([]byte(tc.options))
				require.NoError(t, err)
			}
			got := renderWildWith(t, []byte(tc.doc), nil, options)
			require.Len(t, got.errors, len(tc.errors), "%v", got.errors)
			for i, want := range tc.errors {
				assert.Contains(t, got.errors[i], want)
			}
			for _, want := range tc.warnings {
				assert.True(t, mentions(got.warnings, want), "no warning %q in %v", want, got.warnings)
			}
			if len(tc.errors) > 0 {
				return
			}
			kinds := map[string]bool{}
			var config, version string
			dep := &appsv1.Deployment{}
			for _, o := range got.items {
				kinds[o.GetKind()] = true
				switch o.GetKind() {
				case "ConfigMap":
					config, _, _ = o.NestedString("data", "config.yaml")
				case "Deployment":
					require.NoError(t, yaml.Unmarshal([]byte(o.String()), dep))
				case "LlamaStackDistribution":
					version = o.GetAnnotation(api.AnnotationServerVersion)
				}
				if o.GetKind() == "Role" {
					rules, _, _ := o.NestedSlice("rules")
					require.Len(t, rules, 1)
					resources, _, _ := rules[0].NestedStringSlice("resources")
					want := map[bool]string{true: "llminferenceservices", false: "inferenceservices"}[strings.Contains(tc.doc, "kind: LLMInferenceService")]
					assert.Equal(t, []string{want}, resources, "the token may get the model, of its kind")
				}
				if o.GetKind() == "LlamaStackDistribution" {
					assert.NotContains(t, o.String(), "endpoint:", "the object is given back as written")
				}
			}
			checkServerStarts(t, version, []byte(config), dep, got.warnings)
			tree, err := configyaml.UnmarshalMap([]byte(config))
			require.NoError(t, err)
			var provider map[string]any
			for _, p := range tree["providers"].(map[string]any)["inference"].([]any) {
				if p.(map[string]any)["provider_id"] == "granite" {
					provider = p.(map[string]any)["config"].(map[string]any)
				}
			}
			require.NotNil(t, provider)
			assert.Equal(t, tc.baseURL, provider["base_url"])
			assert.Equal(t, tc.token, provider["api_token"] != nil, "the token")
			assert.Equal(t, tc.token, kinds["Secret"] && kinds["Role"] && kinds["RoleBinding"], "the token's Secret, Role and RoleBinding")
			assert.Equal(t, strings.HasPrefix(tc.baseURL, "https"), provider["tls_verify"] == "/etc/llama-stack/service-ca/service-ca.crt")
			var registered []string
			for _, m := range tree["registered_resources"].(map[string]any)["models"].([]any) {
				if m.(map[string]any)["provider_id"] == "granite" {
					registered = append(registered, m.(map[string]any)["model_id"].(string))
				}
			}
			assert.Equal(t, tc.models, registered)
		})
	}
}
