// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/pkg/api"
)

// Providers written as config.yaml writes them are refused with the entries written out in the
// object's own shape, a credential never among them, and the object's other problems come in
// the same run.
func TestServerShapedProvidersAreWrittenOut(t *testing.T) {
	for _, tc := range []struct {
		reason, doc string
		want        []string
	}{
		{reason: "an LLSD's API with server entries, and another problem",
			doc: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s}
spec:
  distribution: {name: starter}
  providers:
    vector_io:
    - provider_id: pgvector
      provider_type: remote::pgvector
      config: {host: pg.db.svc, password: hunter2-S3CRET}
  workload: {replicas: -1}
`,
			want: []string{
				`spec.providers.vector_io: Invalid value: "provider_id, provider_type, config": config.yaml writes providers so; here a provider is written ` +
					`{id: vllm, provider: remote::vllm, settings: {base_url: ...}}: vectorIo: [{"id":"pgvector","provider":"remote::pgvector",` +
					`"settings":{"host":"pg.db.svc","password":"<from a Secret: secretRefs>"}}]`,
				"spec.workload.replicas: Invalid value: -1",
			}},
		{reason: "an LLSD's flat list, which names no API",
			doc: "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s}\nspec:\n  distribution: {name: starter}\n" +
				"  providers: [{provider_id: vllm, provider_type: remote::vllm}]\n",
			want: []string{`spec.providers: Invalid value: "a list": config.yaml lists an API's providers so; here providers map each API to its own`}},
		{reason: "an OGXServer's, by API and kind",
			doc: "apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: s}\nspec:\n  distribution: {name: starter}\n" +
				"  providers: {inference: [{provider_id: ollama, provider_type: remote::ollama, config: {base_url: 'http://ollama:11434/v1'}}]}\n",
			want: []string{`spec.providers.inference: Invalid value: "provider_id, provider_type, config": config.yaml writes providers so; ` +
				`here a provider is written {remote: {custom: [{id: vllm, type: remote::vllm, settings: {base_url: ...}}]}}: inference: ` +
				`{"remote":{"custom":[{"id":"ollama","settings":{"base_url":"http://ollama:11434/v1"},"type":"remote::ollama"}]}}`}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, errs := api.Decode([]byte(tc.doc))
			all := errs.ToAggregate().Error()
			assert.NotContains(t, all, "S3CRET", "a credential is never shown")
			require.NotEmpty(t, errs)
			for _, want := range tc.want {
				assert.True(t, strings.Contains(all, want), "no error says %q:\n%s", want, all)
			}
		})
	}
}
