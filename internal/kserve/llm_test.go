// SPDX-License-Identifier: Apache-2.0

package kserve_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/kserve"
)

func llmisvc(annotations, spec string) string {
	return "apiVersion: serving.kserve.io/v1alpha2\nkind: LLMInferenceService\nmetadata:\n  name: qwen\n  namespace: ai\n" +
		"  annotations: {" + annotations + "}\nspec:\n  model: {uri: 'hf://Qwen/Qwen3-8B'" + spec
}

const routed = "}\n  router: {route: {}, gateway: {}, scheduler: {}}\n"

func gateway(class, listeners string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: inference, namespace: gateways}\n" +
		"spec:\n  gatewayClassName: " + class + "\n  listeners: " + listeners + "\n"
}

// An LLMInferenceService is reached through its Gateway when KServe writes it a route, else by
// its workload Service; OpenShift AI adds TLS with its service CA there and a token check on
// the route. Each case is one rule of KServe's or OpenShift AI's controllers (llm.go).
func TestDeriveLLM(t *testing.T) {
	for _, tc := range []struct {
		reason, doc, gateway string
		openShiftAI          bool
		url, model           string
		token, ca            bool
		contextLength        int32
		embedding            bool
		assumed              int
	}{
		{reason: "no route on KServe: the workload Service on http 8000, the object's name served",
			doc: llmisvc("", "}\n"), url: "http://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", model: "qwen"},
		{reason: "no route on OpenShift AI: the workload Service on https with the service CA's certificate, no token (the AuthPolicy is on the route)",
			doc: llmisvc("", "}\n"), openShiftAI: true, url: "https://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", model: "qwen", ca: true},
		{reason: "spec.model.name is the served name; the template's args give the context length",
			doc: llmisvc("", ", name: Qwen/Qwen3-8B}\n  template:\n    containers:\n    - {name: main, args: [--max-model-len=32768]}\n"),
			url: "http://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", model: "Qwen/Qwen3-8B", contextLength: 32768},
		{reason: "an embedding model: vLLM's runner",
			doc: llmisvc("", "}\n  template:\n    containers:\n    - {name: main, args: [--runner, pooling]}\n"),
			url: "http://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", model: "qwen", embedding: true},
		{reason: "routed on OpenShift AI: the platform's ingress gateway, with the token check",
			doc: llmisvc("", routed), openShiftAI: true,
			url: "http://openshift-ai-inference-openshift-default.openshift-ingress.svc.cluster.local/ai/qwen/v1", model: "qwen", token: true},
		{reason: "the enable-auth annotation says OpenShift AI; false turns the token check off",
			doc: llmisvc("security.opendatahub.io/enable-auth: 'false'", routed),
			url: "http://openshift-ai-inference-openshift-default.openshift-ingress.svc.cluster.local/ai/qwen/v1", model: "qwen"},
		{reason: "OpenShift AI's gateway named in spec.router.gateway: the same",
			doc: llmisvc("", "}\n  router:\n    route: {}\n    gateway: {refs: [{name: openshift-ai-inference, namespace: openshift-ingress}]}\n"), openShiftAI: true,
			url: "http://openshift-ai-inference-openshift-default.openshift-ingress.svc.cluster.local/ai/qwen/v1", model: "qwen", token: true},
		{reason: "routed through a Gateway of the package: its Service as Istio names it, its http listener",
			doc:     llmisvc("", "}\n  router:\n    route: {}\n    gateway: {refs: [{name: inference, namespace: gateways}]}\n"),
			gateway: gateway("istio", "[{name: https, protocol: HTTPS, port: 443}, {name: http, protocol: HTTP, port: 8080}]"),
			url:     "http://inference-istio.gateways.svc.cluster.local:8080/ai/qwen/v1", model: "qwen"},
		{reason: "a Gateway of another class with https only: assumed Istio's naming and a trusted certificate, and said",
			doc:     llmisvc("", "}\n  router:\n    route: {}\n    gateway: {refs: [{name: inference, namespace: gateways}]}\n"),
			gateway: gateway("eg", "[{name: https, protocol: HTTPS, port: 443}]"),
			url:     "https://inference-eg.gateways.svc.cluster.local/ai/qwen/v1", model: "qwen", assumed: 2},
		{reason: "routed on KServe, its gateway not in the package: the workload Service, and a warning that the scheduler is bypassed",
			doc: llmisvc("", routed), url: "http://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", model: "qwen", assumed: 1},
		{reason: "a route spec of the user's own: its paths not followed, the workload Service, and said",
			doc: llmisvc("", "}\n  router: {route: {http: {spec: {rules: [{matches: [{path: {type: PathPrefix, value: /qwen}}]}]}}}}\n"),
			url: "http://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", model: "qwen", assumed: 1},
		{reason: "HTTPRoutes of the user's own: not followed, the workload Service, and said",
			doc: llmisvc("", "}\n  router: {route: {http: {refs: [{name: mine}]}}}\n"), openShiftAI: true,
			url: "https://qwen-kserve-workload-svc.ai.svc.cluster.local:8000/v1", model: "qwen", ca: true, assumed: 1},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			cluster := kserve.Cluster{OpenShiftAI: tc.openShiftAI, Gateways: func(namespace, name string) map[string]any {
				if tc.gateway == "" || namespace != "gateways" || name != "inference" {
					return nil
				}
				return decode(t, tc.gateway)
			}}
			p, err := kserve.DeriveLLM(decode(t, tc.doc), cluster)
			require.NoError(t, err)
			assert.Equal(t, tc.url, p.BaseURL)
			assert.Equal(t, tc.model, p.ModelName)
			assert.True(t, p.Serves("publishers/ai/models/"+tc.model), "the publisher path's name")
			assert.Equal(t, tc.token, p.TokenProtected, "token")
			if tc.token {
				assert.Equal(t, "llminferenceservices", p.Resource)
			}
			assert.Equal(t, tc.ca, p.ServiceCA, "service CA")
			assert.Equal(t, tc.contextLength, p.ContextLength)
			assert.Equal(t, tc.embedding, p.Embedding)
			assert.Len(t, p.Assumed, tc.assumed, "%v", p.Assumed)
			assert.NotEmpty(t, p.Facts, "every value names its source")
		})
	}
}

// vLLM serves each LoRA adapter of the model by its name, beside the model.
func TestDeriveLLMServesTheAdapters(t *testing.T) {
	p, err := kserve.DeriveLLM(decode(t, llmisvc("", ", lora: {adapters: [{name: sql-lora, uri: 'hf://org/sql-lora'}]}}\n")), kserve.Cluster{})
	require.NoError(t, err)
	assert.True(t, p.Serves("sql-lora"))
	assert.True(t, p.Serves("qwen"))
	assert.False(t, p.Serves("other"))
}

// A name that makes a host is a DNS label, as Kubernetes would have it: the names come from
// the package unvalidated, and a '#' or '@' in one would send the server and its token to
// another host (http://evil.example#-predictor... is evil.example).
func TestDeriveRefusesNamesThatAreNoHost(t *testing.T) {
	_, err := kserve.Derive(decode(t, strings.Replace(isvc("", onVLLM), "name: granite", "name: 'evil.example#'", 1)), nil)
	assert.ErrorContains(t, err, `metadata.name "evil.example#" is no DNS label`)
	_, err = kserve.Derive(decode(t, isvc("", "    name: 'x@evil.example'\n"+onVLLM)), nil)
	assert.ErrorContains(t, err, `spec.predictor.name "x@evil.example" is no DNS label`)
	routed := llmisvc("", "}\n  router:\n    route: {}\n    gateway: {refs: [{name: inference, namespace: gateways}]}\n")
	_, err = kserve.DeriveLLM(decode(t, routed), kserve.Cluster{Gateways: func(string, string) map[string]any {
		return decode(t, gateway("'evil.example#'", "[{name: http, protocol: HTTP, port: 80}]"))
	}})
	assert.ErrorContains(t, err, `its Gateway's spec.gatewayClassName "evil.example#" is no DNS label`)
}
