// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/pkg/api"
)

// An OGXServer is read as strictly as a LlamaStackDistribution and held to the successor's own
// rules (its CRD's CEL rules and its validating webhook), every problem at once, each naming the
// OGXServer's own field path and the fix; what llsd does not render says why.
func TestOGXServerIsCheckedAsTheSuccessorChecksIt(t *testing.T) {
	const header = `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat}
spec:
`
	for _, tc := range []struct {
		reason, spec string
		want         []string
	}{
		{reason: "a misspelt provider field, with the one meant",
			spec: `  distribution: {name: starter}
  providers: {inference: {remote: {vllm: [{endpont: http://vllm:8000/v1}]}}}
`,
			want: []string{`spec.providers.inference.remote.vllm[0].endpont: Unsupported value: unknown field "endpont" (did you mean endpoint?)`}},
		{reason: "a provider the API does not type",
			spec: `  distribution: {name: starter}
  providers: {inference: {remote: {ollama: [{endpoint: http://ollama:11434/v1}]}}}
`,
			want: []string{`spec.providers.inference.remote.ollama: Unsupported value: unknown field "ollama": the typed providers here are vllm, openai, azure, bedrock, vertexai, watsonx; any other provider type goes in spec.providers.inference.remote.custom: [{type: remote::ollama`}},
		{reason: "both name and image", spec: "  distribution: {name: starter, image: quay.io/x/y:1}\n",
			want: []string{"spec.distribution: Invalid value: \"quay.io/x/y:1\": only one of name or image can be specified"}},
		{reason: "neither", spec: "  distribution: {}\n", want: []string{"spec.distribution: Required value: one of name or image must be specified"}},
		{reason: "overrideConfig with providers and baseConfig",
			spec: `  distribution: {name: starter}
  overrideConfig: {name: own, key: config.yaml}
  baseConfig: {name: base, key: config.yaml}
` +
				"  providers: {inference: {remote: {vllm: [{endpoint: http://vllm:8000/v1}]}}}\n",
			want: []string{"spec.providers: Forbidden: overrideConfig and providers are mutually exclusive", "spec.baseConfig: Forbidden: overrideConfig and baseConfig are mutually exclusive"}},
		{reason: "the two storage forms mixed",
			spec: `  distribution: {name: starter}
  storage:
    sql: {type: postgres, connectionString: {name: pg, key: url}}
    backends: {pg: {type: sql_postgres, user: app}}
`,
			want: []string{"spec.storage: Forbidden: kv and sql (the deprecated form) cannot be mixed with backends and stores"}},
		{reason: "redis without an endpoint", spec: `  distribution: {name: starter}
  storage: {kv: {type: redis}}
`,
			want: []string{"spec.storage.kv.endpoint: Required value: endpoint is required when type is redis"}},
		{reason: "external access without hostname and TLS", spec: `  distribution: {name: starter}
  network: {externalAccess: {enabled: true}}
`,
			want: []string{"spec.network.externalAccess.hostname: Required value", "spec.network.externalAccess.tls.secretName: Required value"}},
		{reason: "an API both given providers and disabled",
			spec: `  distribution: {name: starter}
  providers: {inference: {remote: {vllm: [{endpoint: http://vllm:8000/v1}]}}}
  disabledAPIs: [inference, agents]
`,
			want: []string{"spec.disabledAPIs[0]: Invalid value: \"inference\": inference cannot be both in providers and disabledAPIs", `spec.disabledAPIs[1]: Unsupported value: "agents"`}},
		{reason: "two providers with one id, a model of a provider that does not exist, a required field missing",
			spec: `  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm: [{endpoint: http://a:8000/v1}, {endpoint: http://b:8000/v1}]
` +
				`        openai: [{id: gpt}]
  resources:
    models: [{name: m, provider: ollama}]
`,
			want: []string{"spec.providers.inference.remote.vllm[1].id: Duplicate value: \"remote-vllm\": spec.providers.inference.remote.vllm[0] has this id too",
				"spec.providers.inference.remote.openai[0].apiKey: Required value: inference.remote.openai[0] needs apiKey",
				"spec.resources.models[0].provider: Not found: \"ollama: no inference provider has this id (they are remote-vllm, gpt)"}},
		{reason: "Praxis mode's migration Job, which llsd does not render yet, and a gateway selected by expressions",
			spec: `  distribution: {name: starter}
  praxisMode:
    praxisSelector: {podSelector: {matchExpressions: [{key: app, operator: Exists}]}}
    migrationJob: {enabled: true}
`,
			want: []string{"spec.praxisMode.migrationJob: Forbidden: the Praxis migration Job runs ogx migrate praxis, which no server release llsd knows has",
				"spec.praxisMode.praxisSelector.podSelector: Forbidden: llsd admits the gateway's pods by their labels"}},
		{reason: "Praxis mode over a config of one's own",
			spec: `  distribution: {name: starter}
  overrideConfig: {name: mine}
  praxisMode: {}
`,
			want: []string{"spec.praxisMode: Forbidden: Praxis mode rewrites the server's authentication, tenancy and APIs"}},
		{reason: "named storage with numbers from the pod's variables, a store of the wrong family and OGX 1.4's inference.enabled",
			spec: `  distribution: {name: starter}
  storage:
    backends:
      kv_default: {type: kv_postgres, host: pg, user: app, poolSize: '${env.POOL}'}
` +
				"      sql_default: {type: sql_postgres, host: pg, user: app, poolPrePingEnv: '${env.PING}', tableName: t}\n" +
				`    stores:
      metadata: {backend: kv_default, namespace: registry}
      inference: {backend: sql_default, tableName: inference_store, enabled: true}
`,
			want: []string{"spec.storage.backends.kv_default.poolSize: Invalid value: \"${env.POOL}\": llsd holds the number to the server's limits",
				"spec.storage.backends.sql_default.poolPrePingEnv: Invalid value: \"${env.PING}\": llsd renders the setting itself",
				"spec.storage.stores.inference.enabled: Forbidden: the inference store's enabled is a setting of OGX 1.4",
				"spec.storage.backends[sql_default].tableName: Forbidden: tableName is only valid for kv_postgres backends"}},
		{reason: "a NetworkPolicy peer by pod, and a port that is neither the server's nor the metrics'",
			spec: `  distribution: {name: starter}
  network:
    policy:
      ingress:
      - from: [{podSelector: {matchLabels: {app: web}}}]
        ports: [{port: 8080}]
`,
			want: []string{"spec.network.policy.ingress[0].ports[0].port: Invalid value: \"8080\": the rules admit clients to the server's port, 8321",
				"spec.network.policy.ingress[0].from[0]: Forbidden: llsd admits namespaces (namespaceSelector), networks (ipBlock without except) and the pods of a namespace"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, errs := api.DecodeObject([]byte(header + tc.spec))
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			require.Len(t, got, len(tc.want), strings.Join(got, "\n"))
			for i, want := range tc.want {
				assert.Contains(t, got[i], want)
			}
		})
	}
}
