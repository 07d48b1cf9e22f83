// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"maps"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateWritten checks what a decoded spec no longer shows: the required fields its author
// left out, and the empty strings, lists and maps the author wrote, which the schema's bounds
// refuse ("" below a minLength or off a pattern, [] below a minItems, {} below a
// minProperties). spec is the spec as written, in JSON values; the fields of Kubernetes' own
// types and free-form settings are theirs to check.
func ValidateWritten(spec map[string]any, path *field.Path) field.ErrorList {
	c := &checks{}
	c.written(reflect.TypeFor[LlamaStackDistributionSpec](), spec, path)
	return c.errs
}

func (c *checks) written(t reflect.Type, raw map[string]any, path *field.Path) {
	for _, f := range fieldPlans(t) {
		v, ok := raw[f.name]
		switch {
		case ok:
			c.writtenValue(t.Field(f.index).Type, v, path.Child(f.name), &f.bounds)
		case f.bounds.required && !hasTypeRules(t.Field(f.index).Type):
			c.add(field.Required(path.Child(f.name), ""))
		}
	}
}

// hasTypeRules reports a struct type with rules of its own, which say what a value of it
// needs better than "Required value" (Validate leaves such a field to them).
func hasTypeRules(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct && len(rulesOn()[t.Name()]) > 0
}

func (c *checks) writtenValue(t reflect.Type, v any, path *field.Path, b *bounds) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch v := v.(type) {
	case string:
		if v == "" && t.Kind() == reflect.String {
			c.str(path, v, b)
		}
	case []any:
		c.tooFew(path, len(v), b.minItems, "items")
		if t.Kind() != reflect.Slice {
			return
		}
		items := b.items
		if items == nil {
			items = &bounds{}
		}
		for i, item := range v {
			c.writtenValue(t.Elem(), item, path.Index(i), items)
		}
	case map[string]any:
		c.tooFew(path, len(v), b.minProperties, "properties")
		switch {
		case t.Kind() == reflect.Map:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				c.writtenValue(t.Elem(), v[k], path.Child(k), &bounds{})
			}
		case t.Kind() == reflect.Struct && t.PkgPath() == ownPackage:
			c.written(t, v, path)
		}
	}
}
