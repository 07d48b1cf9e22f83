// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/pkg/api/wording"
)

// BenchmarkValidate validates the fixture that sets a value for every bounded field.
func BenchmarkValidate(b *testing.B) {
	data, err := os.ReadFile("../testdata/valid/every-bound.yaml")
	if err != nil {
		b.Fatal(err)
	}
	var obj LlamaStackDistribution
	if err := yaml.UnmarshalStrict(data, &obj); err != nil {
		b.Fatal(err)
	}
	Default(&obj)
	if errs := Validate(&obj); len(errs) > 0 {
		b.Fatal(errs)
	}
	for b.Loop() {
		Validate(&obj)
	}
}

// A field path is within another when it is that field or names a field or item inside it.
func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		reason, path, field string
		want                bool
	}{
		{"the field itself", "spec.storage", "spec.storage", true},
		{"a field inside it", "spec.storage.sql.type", "spec.storage", true},
		{"an item of a list", "spec.providers.inference[0].endpoint", "spec.providers.inference", true},
		{"a map entry", "spec.providers.inference[0].settings[api_token][0]", "spec.providers.inference[0].settings[api_token]", true},
		{"a field whose name only begins the same", "spec.storageClass", "spec.storage", false},
		{"a key whose name only begins the same", "spec.providers.inference[0].settings[api_token_file]", "spec.providers.inference[0].settings[api_token]", false},
		{"the field around it", "spec.storage", "spec.storage.sql", false},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, Within(tc.path, tc.field))
		})
	}
}

// A rule's message with references says, in v1alpha2's words, what the CEL message of the CRD
// says: the API server and Validate give one text, Check the same with its fields referred to.
func TestReferringRuleMessagesSayTheCELMessage(t *testing.T) {
	obj := &LlamaStackDistribution{}
	obj.Name = "chat"
	obj.Spec.Distribution.Name = "starter"
	obj.Spec.Disabled = []APIName{APIVectorIo}
	obj.Spec.Providers = &ProvidersSpec{VectorIo: []ProviderSpec{{Provider: "faiss"}}}
	message := func(errs field.ErrorList) string {
		for _, e := range errs {
			if e.Field == "spec.providers.vectorIo" {
				return e.Detail
			}
		}
		return ""
	}
	plain := message(Validate(obj))
	assert.Equal(t, "the vectorIo API is disabled but has providers configured: remove spec.providers.vectorIo or remove 'vectorIo' from spec.disabled", plain)
	assert.True(t, wording.Marked(message(Check(obj))))
	assert.Equal(t, plain, wording.Plain(message(Check(obj))))
}
