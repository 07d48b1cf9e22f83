// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/pkg/api"
)

// Salvage leaves out what decoding refused and decodes the rest, with the unknown fields the
// refused values hid; it gives nothing back where leaving a value out would change what the
// errors point at.
func TestSalvage(t *testing.T) {
	const head = "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: chat}\nspec:\n  distribution: {name: starter}\n"
	for _, tc := range []struct {
		reason, doc string
		salvaged    bool
		hidden      []string
	}{
		{reason: "a value of the wrong type, and an unknown field it hid",
			doc: head + "  workload: {replicas: three}\n  providers: {inference: {provider: vllm, endpont: x}}\n", salvaged: true,
			hidden: []string{"spec.providers.inference[0].endpont"}},
		{reason: "a list item of the wrong type: leaving it out would renumber the ones after it",
			doc: head + "  resources: {models: [{name: a}, 7]}\n"},
		{reason: "v1alpha1: converted without the refused value, its unknown fields said in its own paths",
			doc:      "apiVersion: llamastack.io/v1alpha1\nkind: LlamaStackDistribution\nmetadata: {name: chat}\nspec: {replicas: three, server: {distribution: {name: starter}, workrs: 2}}\n",
			salvaged: true, hidden: []string{"spec.server.workrs"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, errs := api.DecodeObject([]byte(tc.doc))
			require.NotEmpty(t, errs)
			d, hidden := api.Salvage([]byte(tc.doc), errs)
			assert.Equal(t, tc.salvaged, d != nil)
			var fields []string
			for _, e := range hidden {
				fields = append(fields, e.Field)
			}
			assert.Equal(t, tc.hidden, fields)
			if d != nil {
				assert.Equal(t, "starter", d.Object.Spec.Distribution.Name)
			}
		})
	}
}
