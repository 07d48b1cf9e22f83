// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateWritten checks what a decoded spec no longer shows: the empty strings, lists and
// maps its author wrote, which the schema's bounds refuse ("" below a minLength or off a
// pattern, [] below a minItems, {} below a minProperties). spec is the spec as written, in JSON
// values; the fields of Kubernetes' own types and free-form settings are theirs to check.
func ValidateWritten(spec map[string]any, path *field.Path) field.ErrorList {
	c := &checks{}
	c.written(reflect.TypeFor[LlamaStackDistributionSpec](), spec, path)
	return c.errs
}

func (c *checks) written(t reflect.Type, raw map[string]any, path *field.Path) {
	for _, f := range fieldPlans(t) {
		if v, ok := raw[f.name]; ok {
			c.writtenValue(t.Field(f.index).Type, v, path.Child(f.name), &f.bounds)
		}
	}
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
		if len(v) == 0 && b.minItems != nil && *b.minItems > 0 {
			c.add(field.Invalid(path, 0, fmt.Sprintf("%s in body should have at least %d items", path, *b.minItems)))
		}
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
		if len(v) == 0 && b.minProperties != nil && *b.minProperties > 0 {
			c.add(field.Invalid(path, 0, fmt.Sprintf("%s in body should have at least %d properties", path, *b.minProperties)))
		}
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
