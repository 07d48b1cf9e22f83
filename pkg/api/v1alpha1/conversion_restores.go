// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import (
	"encoding/json"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// AnnotationRestores lists the v1alpha2 fields that V1alpha2FieldsAnnotation sets in the
// conversion of src, beyond what its own v1alpha1 fields say (spec.externalProviders,
// spec.telemetry, spec.workload.pod, ...). A reviewer of a v1alpha1 object sees its fields,
// not what an annotation adds to them, and anyone who may write the object may write the
// annotation: whoever renders or converts it says what came from there. Nil without the
// annotation, or when the conversion fails (its error says why).
func AnnotationRestores(src *LlamaStackDistribution) []string {
	if _, ok := src.Annotations[V1alpha2FieldsAnnotation]; !ok {
		return nil
	}
	hub := &v1alpha2.LlamaStackDistribution{}
	if src.DeepCopy().ConvertTo(hub) != nil {
		return nil
	}
	own := specToHub(&src.Spec)
	if equality.Semantic.DeepEqual(&own, &hub.Spec) {
		return nil
	}
	return changedFields(asMap(own), asMap(hub.Spec), "spec", 2)
}

// changedFields names the fields of after that differ from before, down to depth levels.
func changedFields(before, after map[string]any, path string, depth int) []string {
	var out []string
	for _, key := range slices.Sorted(maps.Keys(after)) {
		if equality.Semantic.DeepEqual(before[key], after[key]) {
			continue
		}
		b, bok := before[key].(map[string]any)
		a, aok := after[key].(map[string]any)
		if depth > 1 && bok && aok {
			out = append(out, changedFields(b, a, path+"."+key, depth-1)...)
			continue
		}
		out = append(out, path+"."+key)
	}
	return out
}

func asMap(spec v1alpha2.LlamaStackDistributionSpec) map[string]any {
	data, err := json.Marshal(spec)
	if err != nil {
		panic(err) // the API types always marshal
	}
	var m map[string]any
	_ = json.Unmarshal(data, &m)
	return m
}
