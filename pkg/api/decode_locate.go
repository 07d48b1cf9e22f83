// SPDX-License-Identifier: Apache-2.0

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// valueErrors finds every value of doc that does not decode into its field of t, with its
// path. encoding/json stops at the first bad value and, when a type's own UnmarshalJSON fails
// (a quantity written "string"), says neither which field nor where; decoding each value on
// its own says both, for all of them at once.
func valueErrors(doc any, t reflect.Type, path *field.Path) field.ErrorList {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) {
		return decodeOne(doc, t, path)
	}
	switch v := doc.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			var errs field.ErrorList
			for _, key := range slices.Sorted(maps.Keys(v)) {
				if f, ok := jsonField(t, key); ok { // unknown fields are reported on their own
					errs = append(errs, valueErrors(v[key], f.Type, path.Child(key))...)
				}
			}
			return errs
		case reflect.Map:
			var errs field.ErrorList
			for _, key := range slices.Sorted(maps.Keys(v)) {
				errs = append(errs, valueErrors(v[key], t.Elem(), path.Key(key))...)
			}
			return errs
		}
	case []any:
		if t.Kind() == reflect.Slice {
			var errs field.ErrorList
			for i, item := range v {
				errs = append(errs, valueErrors(item, t.Elem(), path.Index(i))...)
			}
			return errs
		}
	}
	return decodeOne(doc, t, path)
}

// decodeOne decodes a single value into a new t.
func decodeOne(value any, t reflect.Type, path *field.Path) field.ErrorList {
	raw, err := json.Marshal(value)
	if err != nil {
		return nil
	}
	err = json.Unmarshal(raw, reflect.New(t).Interface())
	if err == nil {
		return nil
	}
	var typeErr *json.UnmarshalTypeError
	switch {
	case t == reflect.TypeFor[resource.Quantity]():
		return field.ErrorList{field.Invalid(path, value, "must be a quantity such as 500m, 2, 512Mi or 10Gi")}
	case errors.As(err, &typeErr) && typeErr.Field == "":
		// the JSON type written, not the value: a credential in the wrong place stays unseen
		return field.ErrorList{field.Invalid(path, typeErr.Value, fmt.Sprintf("must be of type %s", jsonType(t.Kind().String())))}
	case errors.As(err, &typeErr):
		return nil // a value inside: its own path reports it
	}
	return field.ErrorList{field.Invalid(path, field.OmitValueType{}, err.Error())}
}
