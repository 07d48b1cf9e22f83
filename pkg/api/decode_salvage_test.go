// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
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

// Without leaves out of a decoded object the values the rules refuse, and defaults it again,
// so that rendering the rest finds the other problems; a list item refused as a whole, or a
// field outside the spec, cannot be left out.
func TestWithout(t *testing.T) {
	const doc = "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: chat}\nspec:\n" +
		"  distribution: {name: starter}\n  workload: {replicas: 3, workers: 2}\n  resources: {models: [{name: a}, {name: b}]}\n" +
		"  networking: {expose: {enabled: false}}\n"
	obj, errs := api.Decode([]byte(doc))
	require.Empty(t, errs)
	for _, tc := range []struct {
		reason, field string
		ok            bool
		check         func(t *testing.T, rest *v1alpha2.LlamaStackDistribution)
	}{
		{reason: "a refused value is left out", field: "spec.workload.replicas", ok: true,
			check: func(t *testing.T, rest *v1alpha2.LlamaStackDistribution) {
				assert.Nil(t, rest.Spec.Workload.Replicas)
				assert.Equal(t, int32(2), *rest.Spec.Workload.Workers, "the rest as it was")
				assert.Equal(t, int32(3), *obj.Spec.Workload.Replicas, "the object itself unchanged")
			}},
		{reason: "a refused value with a default gets the default", field: "spec.networking.expose.enabled", ok: true,
			check: func(t *testing.T, rest *v1alpha2.LlamaStackDistribution) {
				assert.True(t, *rest.Spec.Networking.Expose.Enabled)
			}},
		{reason: "a field of a list item", field: "spec.resources.models[1].name", ok: true,
			check: func(t *testing.T, rest *v1alpha2.LlamaStackDistribution) {
				assert.Len(t, rest.Spec.Resources.Models, 2, "no item renumbered")
			}},
		{reason: "a list item as a whole", field: "spec.resources.models[1]"},
		{reason: "no field of the spec", field: "metadata.name"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			rest, ok := api.Without(obj, field.ErrorList{&field.Error{Type: field.ErrorTypeInvalid, Field: tc.field}})
			require.Equal(t, tc.ok, ok)
			if tc.check != nil {
				tc.check(t, rest)
			}
		})
	}
}
