// SPDX-License-Identifier: Apache-2.0

package api

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Salvage decodes what DecodeObject refused of a LlamaStackDistribution (either version) or an
// OGXServer, without the values its errors name, so that rendering the rest finds the
// problems of the other fields in the same run: a value of the wrong type (replicas: three)
// hides neither a misspelt field nor an unknown distribution. It returns nil when nothing can
// be salvaged: the document is no YAML object, an error is about a list item as a whole
// (leaving it out would renumber the items after it) or about the object itself.
//
// What a refused value hides is what depends on it: an error at the refused field, inside it or
// around it (a store missing because its type was refused) is the refused value's, and the
// caller leaves it out (pipeline.AlsoWrong).
//
// Its errors are the ones the refused values hid: the fields of the rest that no type has, and
// for an OGXServer what its own rules and its conversion refuse of the rest.
func Salvage(data []byte, errs field.ErrorList) (*Decoded, field.ErrorList) {
	jsonDoc, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, nil
	}
	var doc map[string]any
	if json.Unmarshal(jsonDoc, &doc) != nil {
		return nil, nil
	}
	spec, ok := doc["spec"].(map[string]any)
	switch {
	case !ok:
		return nil, nil
	case doc["apiVersion"] == v1alpha2.GroupVersion.String() && doc["kind"] == v1alpha2.Kind:
		expandShorthand(spec)
	case doc["apiVersion"] == v1alpha1.GroupVersion.String() && doc["kind"] == v1alpha2.Kind:
	case doc["apiVersion"] != ogx.GroupVersion.String() || doc["kind"] != ogx.Kind:
		return nil, nil
	}
	if !removeAll(doc, errs) {
		return nil, nil
	}
	if doc["kind"] == ogx.Kind {
		return salvageOGX(doc)
	}
	if doc["apiVersion"] == v1alpha1.GroupVersion.String() {
		return salvageV1alpha1(doc)
	}
	obj := &v1alpha2.LlamaStackDistribution{}
	hidden := strictDecode(doc, obj)
	if fatal(hidden) || obj.Name == "" {
		return nil, nil // a value still of the wrong type: nothing more to say than errs do
	}
	v1alpha2.Default(obj)
	return &Decoded{Object: obj}, hidden
}

// salvageOGX decodes and converts what is left of an OGXServer; what its own rules refuse of it
// is said, and stops there.
func salvageOGX(doc map[string]any) (*Decoded, field.ErrorList) {
	o := &ogx.OGXServer{}
	hidden := strictDecode(doc, o)
	if fatal(hidden) || o.Name == "" {
		return nil, nil
	}
	if errs := ogx.Validate(o); len(errs) > 0 {
		// what its own rules refuse is left out too, and the rest converted: every layer in one run
		if !removeAll(doc, errs) {
			return nil, append(hidden, errs...)
		}
		o = &ogx.OGXServer{}
		if more := strictDecode(doc, o); fatal(more) || len(ogx.Validate(o)) > 0 {
			return nil, append(hidden, errs...)
		}
		hidden = append(hidden, errs...)
	}
	c := ogxToLLSD(o)
	if len(c.errs) > 0 {
		return nil, append(hidden, c.errs...)
	}
	v1alpha2.Default(c.obj)
	return &Decoded{Object: c.obj, paths: c.paths, Warnings: c.warnings, Consumed: true, PraxisPeer: c.praxisPeer}, hidden
}

// salvageV1alpha1 decodes and converts what is left of a v1alpha1 object; what its
// conversion refuses of it is said, and stops there.
func salvageV1alpha1(doc map[string]any) (*Decoded, field.ErrorList) {
	spoke := &v1alpha1.LlamaStackDistribution{}
	hidden := strictDecode(doc, spoke)
	if fatal(hidden) || spoke.Name == "" {
		return nil, nil
	}
	hub, warnings, errs := convertV1alpha1(spoke)
	if len(errs) > 0 {
		return nil, append(hidden, errs...)
	}
	v1alpha2.Default(hub)
	return &Decoded{Object: hub, Warnings: warnings, spoke: true, restored: hasAnnotation(doc, v1alpha1.V1alpha2FieldsAnnotation)}, hidden
}

// Without is obj without the values errs name, left out as Salvage leaves them out of a
// document, and defaulted again: the rest of an object the rules refuse, to be rendered for the
// problems of its other fields. It returns false when that cannot be done: an error is about a
// list item as a whole (leaving it out would renumber the items after it) or about no field of
// the spec.
func Without(obj *v1alpha2.LlamaStackDistribution, errs field.ErrorList) (*v1alpha2.LlamaStackDistribution, bool) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, false
	}
	var doc map[string]any
	if json.Unmarshal(data, &doc) != nil {
		return nil, false
	}
	if !removeAll(doc, errs) {
		return nil, false
	}
	rest := &v1alpha2.LlamaStackDistribution{}
	if len(strictDecode(doc, rest)) > 0 {
		return nil, false
	}
	v1alpha2.Default(rest)
	return rest, true
}

// removeAll deletes from doc the value at each error's field, and reports whether each is a
// field of the spec that can be left out (not a list item as a whole).
func removeAll(doc map[string]any, errs field.ErrorList) bool {
	for _, e := range errs {
		steps, ok := pathSteps(e.Field)
		if !ok || len(steps) < 2 || steps[0] != "spec" {
			return false
		}
		if _, item := steps[len(steps)-1].(int); item && e.Type == field.ErrorTypeNotSupported && len(steps) > 2 {
			// a value of a list an enum refuses (disabledAPIs: [telemetryx]): the list is left
			// out whole, as leaving the item out would renumber the items after it
			steps = steps[:len(steps)-1]
		}
		if _, item := steps[len(steps)-1].(int); item || !remove(doc, steps) {
			return false
		}
	}
	return true
}

// fatal reports an error of a decode other than an unknown field: the value did not decode.
func fatal(errs field.ErrorList) bool {
	return slices.ContainsFunc(errs, func(e *field.Error) bool { return e.Type != field.ErrorTypeNotSupported })
}

// pathSteps splits a field path (spec.providers.inference[0].endpoint, metadata.labels[app])
// into map keys and list indexes.
func pathSteps(path string) ([]any, bool) {
	var steps []any
	for _, part := range strings.Split(path, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			steps = append(steps, name)
		}
		for rest != "" {
			inside, after, ok := strings.Cut(rest, "]")
			if !ok {
				return nil, false
			}
			if i, err := strconv.Atoi(inside); err == nil {
				steps = append(steps, i)
			} else {
				steps = append(steps, inside)
			}
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return steps, len(steps) > 0
}

// remove deletes the value at steps of doc, and reports whether the path led to it (or to
// nothing: a value already left out).
func remove(doc any, steps []any) bool {
	for i, step := range steps {
		last := i == len(steps)-1
		switch node := doc.(type) {
		case map[string]any:
			key, ok := step.(string)
			if !ok {
				return false
			}
			if last {
				delete(node, key)
				return true
			}
			if doc, ok = node[key]; !ok {
				return true
			}
		case []any:
			index, ok := step.(int)
			if !ok || index < 0 || index >= len(node) {
				return false
			}
			doc = node[index]
		default:
			return false
		}
	}
	return false
}
