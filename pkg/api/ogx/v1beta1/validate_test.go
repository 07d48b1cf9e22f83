// SPDX-License-Identifier: Apache-2.0

package v1beta1

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// server decodes an OGXServer spec written in YAML.
func server(t *testing.T, spec string) *OGXServer {
	t.Helper()
	var o OGXServer
	require.NoError(t, yaml.UnmarshalStrict([]byte(spec), &o.Spec))
	return &o
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		reason string
		spec   string
		want   []string // "field: type" of each error, in order
	}{
		{reason: "a distribution name alone is a complete server",
			spec: `distribution: {name: starter}`},
		{reason: "name and image both set: the successor refuses either choice",
			spec: `distribution: {name: starter, image: quay.io/x/y:1}`,
			want: []string{"spec.distribution: Invalid value"}},
		{reason: "neither name nor image",
			spec: `distribution: {}`,
			want: []string{"spec.distribution: Required value"}},
		{reason: "overrideConfig runs as it is: every part it would ignore is named",
			spec: `
distribution: {name: starter}
overrideConfig: {name: mine, key: config.yaml}
providers: {}
storage: {}
disabledAPIs: [batches]`,
			want: []string{"spec.providers: Forbidden", "spec.storage: Forbidden", "spec.disabledAPIs: Forbidden"}},
		{reason: "the deprecated kv/sql form mixed with named backends",
			spec: `
distribution: {name: starter}
storage: {kv: {type: sqlite}, backends: {pg: {type: sql_postgres}}}`,
			want: []string{"spec.storage: Forbidden"}},
		{reason: "redis without its endpoint, postgres without its connection string",
			spec: `
distribution: {name: starter}
storage: {kv: {type: redis}, sql: {type: postgres}}`,
			want: []string{"spec.storage.kv.endpoint: Required value", "spec.storage.sql.connectionString: Required value"}},
		{reason: "a password on sqlite, an unknown sql type",
			spec: `
distribution: {name: starter}
storage: {kv: {password: {name: s, key: k}}, sql: {type: mysql}}`,
			want: []string{"spec.storage.kv: Forbidden", "spec.storage.sql.type: Unsupported value"}},
		{reason: "external access needs a hostname and a certificate",
			spec: `
distribution: {name: starter}
network: {externalAccess: {enabled: true}}`,
			want: []string{"spec.network.externalAccess.hostname: Required value", "spec.network.externalAccess.tls.secretName: Required value"}},
		{reason: "an API given providers counts as given even with none in it, so it cannot be disabled too",
			spec: `
distribution: {name: starter}
providers: {inference: {}}
disabledAPIs: [inference, safety]`,
			want: []string{"spec.disabledAPIs[0]: Invalid value", "spec.disabledAPIs[1]: Unsupported value"}},
		{reason: "provider ids are unique across APIs, including the ids the successor derives",
			spec: `
distribution: {name: starter}
providers:
  inference: {remote: {vllm: [{endpoint: http://vllm:8000/v1}]}}
  vectorIo: {remote: {custom: [{id: remote-vllm, type: remote::chroma}]}}`,
			want: []string{"spec.providers.vectorIo.remote.custom[0].id: Duplicate value"}},
		{reason: "a custom type without remote:: or inline::, a typed provider without its required field",
			spec: `
distribution: {name: starter}
providers:
  inference: {inline: {custom: [{type: sentence-transformers}]}}
  vectorIo: {remote: {pgvector: [{host: pg}]}}`,
			want: []string{"spec.providers.inference.inline.custom[0].type: Invalid value", "spec.providers.vectorIo.remote.pgvector[0].password: Required value"}},
		{reason: "a model names an inference provider that does not exist",
			spec: `
distribution: {name: starter}
providers: {inference: {remote: {vllm: [{id: gpu, endpoint: http://vllm:8000/v1}]}}}
resources: {models: [{name: granite, provider: cpu}]}`,
			want: []string{"spec.resources.models[0].provider: Not found"}},
		{reason: "a PodDisruptionBudget with both bounds, an autoscaler whose maximum is below its minimum",
			spec: `
distribution: {name: starter}
workload:
  podDisruptionBudget: {minAvailable: 1, maxUnavailable: 1}
  autoscaling: {minReplicas: 3, maxReplicas: 2}`,
			want: []string{"spec.workload.podDisruptionBudget: Invalid value", "spec.workload.autoscaling.maxReplicas: Invalid value"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			var got []string
			for _, e := range Validate(server(t, tc.spec)) {
				got = append(got, e.Field+": "+e.Type.String())
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestEntriesInTheSuccessorsOrder(t *testing.T) {
	o := server(t, `
distribution: {name: starter}
providers:
  vectorIo: {remote: {milvus: [{uri: http://milvus:19530}]}}
  inference:
    inline: {custom: [{type: inline::sentence-transformers}]}
    remote:
      custom: [{type: remote::ollama}]
      vllm: [{endpoint: http://a:8000/v1}, {id: b, endpoint: http://b:8000/v1}]`)
	var got []string
	for _, e := range Entries(o.Spec.Providers) {
		got = append(got, e.API+" "+e.Path.String()+" "+e.ID+" "+e.Type)
	}
	assert.Equal(t, []string{
		"inference spec.providers.inference.remote.vllm[0] remote-vllm remote::vllm",
		"inference spec.providers.inference.remote.vllm[1] b remote::vllm",
		"inference spec.providers.inference.remote.custom[0] remote-ollama remote::ollama",
		"inference spec.providers.inference.inline.custom[0] inline-sentence-transformers inline::sentence-transformers",
		"vector_io spec.providers.vectorIo.remote.milvus[0] remote-milvus remote::milvus",
	}, got, "by API in declared order, remote before inline, typed before custom, ids derived from the type")
}
