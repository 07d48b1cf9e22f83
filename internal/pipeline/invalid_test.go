// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
)

// An object whose spec the schema refuses is rendered anyway for its other problems, so that
// one run reports them all; what would only follow from a refused value is not reported, and
// nothing is rendered.
func TestAnInvalidSpecReportsItsOtherProblems(t *testing.T) {
	for _, tc := range []struct {
		reason string
		spec   string
		want   []string // the errors' paths, in order
	}{
		{
			reason: "a misspelt storage type and a bad hostname, with a model of a provider that does not exist: the model is reported too, " +
				"but not the storage the misspelt type leaves missing",
			spec: `  distribution: {name: postgres-demo}
  providers: {inference: [{id: vllm-inference, provider: vllm, endpoint: "http://vllm:8000/v1"}]}
  storage: {sql: {type: postgress, connectionString: {secretKeyRef: {name: pg, key: url}}}}
  resources: {models: [{name: llama3, provider: nope}]}
  networking: {expose: {enabled: true, hostname: Bad_Host}}`,
			want: []string{"spec.storage.sql.type", "spec.storage.sql.connectionString", "spec.networking.expose.hostname",
				"spec.resources.models[0].provider"},
		},
		{
			reason: "a problem of the same field is said once, by the schema",
			spec: `  distribution: {name: starter}
  providers: {inference: [{provider: Vllm, endpoint: "http://vllm:8000/v1"}]}`,
			want: []string{"spec.providers.inference[0].provider"},
		},
		{
			reason: "a value generation assumes the schema has refused (postgres without its connection string) ends the search, not the run",
			spec: `  distribution: {name: postgres-demo}
  storage: {sql: {type: postgres}}`,
			want: []string{"spec.storage.sql.connectionString"},
		},
		{
			reason: "over a bound, nothing else is worked through: the bound is there to spare the work",
			spec: `  distribution: {name: starter}
  resources: {models: [` + manyModels(65) + `]}`,
			want: []string{"spec.resources.models"},
		},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			obj, errs := api.Decode([]byte("apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s, namespace: ai}\nspec:\n" + tc.spec))
			require.Empty(t, errs)
			res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
			assert.Nil(t, res, "nothing is rendered")
			var paths []string
			for _, e := range errs {
				paths = append(paths, e.Field)
			}
			assert.Equal(t, tc.want, paths, errs.ToAggregate())
		})
	}
}

// manyModels are n models of a provider that does not exist, each named apart.
func manyModels(n int) string {
	models := make([]string, n)
	for i := range models {
		models[i] = fmt.Sprintf("{name: m%d, provider: nope}", i)
	}
	return strings.Join(models, ", ")
}
