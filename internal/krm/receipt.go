// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"reflect"
	"strings"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/pkg/api"
)

// A package whose files keep their LLSDs (kpt) holds the receipt of its last render. An llsd
// upgrade that renders the same objects leaves the package as it was: the receipt keeps the
// renderer version that first rendered them, and changes only with what is rendered.

// earlierReceipts are the receipts the LLSDs a package keeps carry from their last render,
// before this one replaces them.
func (p Processor) earlierReceipts(items []*fn.KubeObject) map[*fn.KubeObject]api.Receipt {
	out := map[*fn.KubeObject]api.Receipt{}
	for _, item := range items {
		if !p.keepsSource(item) {
			continue // only a package's files keep a receipt
		}
		if r, ok := api.ReadReceipt(item.GetAnnotations()); ok && r.RendererVersion != "" {
			out[item] = r
		}
	}
	return out
}

// keepRendererVersions gives each kept LLSD back the renderer version of its earlier receipt
// when this render wrote the same receipt otherwise and the same objects as the earlier one
// (items holds them, generated from it).
func keepRendererVersions(earlier map[*fn.KubeObject]api.Receipt, renders map[*fn.KubeObject]rendering, items fn.KubeObjects) {
	for item, before := range earlier {
		r := renders[item]
		if len(r.objects) == 0 || r.results.ExitCode() != 0 {
			continue
		}
		now, _ := api.ReadReceipt(item.GetAnnotations())
		now.RendererVersion = before.RendererVersion
		if now != before || !sameObjects(r.objects[1:], generatedBy(item, items)) {
			continue
		}
		_ = item.SetAnnotation(api.AnnotationRendererVersion, before.RendererVersion) // a string annotation on a mapping: no error
	}
}

// generatedBy are the objects of items an earlier render generated from the LLSD item.
func generatedBy(item *fn.KubeObject, items fn.KubeObjects) fn.KubeObjects {
	var out fn.KubeObjects
	for _, o := range items {
		if IsGenerated(o) && generatedFrom(o) == key(item) {
			out = append(out, o)
		}
	}
	return out
}

// sameObjects reports whether two sets of objects are the same, whatever their order and the
// annotations an orchestrator gives them (file, index, ids).
func sameObjects(a, b fn.KubeObjects) bool {
	if len(a) != len(b) {
		return false
	}
	byID := map[string]map[string]any{}
	for _, o := range b {
		byID[o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName()] = withoutOrchestratorAnnotations(o)
	}
	for _, o := range a {
		other, ok := byID[o.GetKind()+"/"+o.GetNamespace()+"/"+o.GetName()]
		if !ok || !reflect.DeepEqual(withoutOrchestratorAnnotations(o), other) {
			return false
		}
	}
	return true
}

// withoutOrchestratorAnnotations is an object as a map, without the annotations kpt and
// kustomize give it.
func withoutOrchestratorAnnotations(o *fn.KubeObject) map[string]any {
	var m map[string]any
	if sigsyaml.Unmarshal([]byte(o.String()), &m) != nil {
		return nil
	}
	metadata, _ := m["metadata"].(map[string]any)
	annotations, _ := metadata["annotations"].(map[string]any)
	for k := range annotations {
		for _, prefix := range []string{"config.kubernetes.io/", "internal.config.kubernetes.io/", "config.k8s.io/", "kustomize.config.k8s.io/"} {
			if strings.HasPrefix(k, prefix) {
				delete(annotations, k)
			}
		}
	}
	if len(annotations) == 0 && metadata != nil {
		delete(metadata, "annotations")
	}
	return m
}
