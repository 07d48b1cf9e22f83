// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"os"
	"testing"

	"sigs.k8s.io/yaml"
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
