// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// kubernetesReferences are the keys of a Kubernetes value reference, which people write where a
// value goes: the upstream operator's v1alpha2 design gives pgvector's host as one.
//
//	settings:
//	  host: {secretKeyRef: {name: pg-creds, key: host}}   # config.yaml would get this mapping
var kubernetesReferences = []string{"secretKeyRef", "configMapKeyRef", "valueFrom"}

// checkReferencesInSettings refuses a Kubernetes reference written as a settings value:
// settings go into config.yaml as they are, so the server would read the mapping where it wants
// the value, and stop at start. At the top level the fix is secretRefs; deeper, a variable.
func (g *generator) checkReferencesInSettings(settings map[string]any, path *field.Path) {
	for _, key := range slices.Sorted(maps.Keys(settings)) {
		g.checkReference(settings[key], path.Key(key), key, true)
	}
}

func (g *generator) checkReference(v any, path *field.Path, key string, topLevel bool) {
	switch t := v.(type) {
	case map[string]any:
		if ref, ok := referenceKey(t); ok {
			fix := fmt.Sprintf("write it in secretRefs: {%s: {secretKeyRef: {name: ..., key: ...}}}, which reads it from a Secret", key)
			if ref == "configMapKeyRef" || !topLevel {
				fix = "read it into a variable with ⟦spec.workload.overrides.env⟧[].valueFrom and write ${env.<that variable>} here"
			}
			g.errs = append(g.errs, field.Invalid(path, field.OmitValueType{}, fmt.Sprintf(
				"%s is a Kubernetes reference, and settings are written into config.yaml as they are: the server would read the mapping "+
					"where it wants %s's value, and stop; %s", ref, key, fix)))
			return
		}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			g.checkReference(t[k], path.Key(k), k, false)
		}
	case []any:
		for i, x := range t {
			g.checkReference(x, path.Index(i), key, false)
		}
	}
}

// isReference reports whether a mapping is a Kubernetes reference and nothing else.
func isReference(m map[string]any) bool {
	_, ok := referenceKey(m)
	return ok
}

// referenceKey is the reference key of a mapping that holds one and nothing else.
func referenceKey(m map[string]any) (string, bool) {
	if len(m) != 1 {
		return "", false
	}
	for _, ref := range kubernetesReferences {
		if _, ok := m[ref]; ok {
			return ref, true
		}
	}
	return "", false
}
