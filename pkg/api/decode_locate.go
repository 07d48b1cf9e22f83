// SPDX-License-Identifier: Apache-2.0

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/redact"
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
	case errors.As(err, &typeErr) && typeErr.Field == "" && isSecretReference(t) && typeErr.Value == "string":
		// the value itself where a Secret's reference goes: never shown, and where it belongs said
		return field.ErrorList{field.Invalid(path, "string", "takes a Secret's key, not the value: keep the value in a Secret "+
			"and write secretKeyRef: {name, key}, naming the Secret and its key (what llsd renders is stored in clear, a Secret is not)")}
	case errors.As(err, &typeErr) && typeErr.Field == "" && t.Kind() == reflect.String && unquoted(value) != "":
		return field.ErrorList{field.Invalid(path, typeErr.Value, unquotedFix(path, unquoted(value)))}
	case errors.As(err, &typeErr) && typeErr.Field == "":
		// the JSON type written, not the value: a credential in the wrong place stays unseen
		return field.ErrorList{field.Invalid(path, typeErr.Value, fmt.Sprintf("must be of type %s", jsonType(t.Kind().String())))}
	case errors.As(err, &typeErr):
		return nil // a value inside: its own path reports it
	}
	return field.ErrorList{field.Invalid(path, field.OmitValueType{}, err.Error())}
}

// isSecretReference reports whether t is a reference to a Secret's key ({secretKeyRef: {name,
// key}}), in any of the APIs.
func isSecretReference(t reflect.Type) bool {
	if t.Kind() != reflect.Struct {
		return false
	}
	for f := range t.Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == "secretKeyRef" {
			return true
		}
	}
	return false
}

// unquoted is a number or boolean as YAML read it where a string goes, "" for other values.
func unquoted(value any) string {
	switch v := value.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// unquotedFix says to quote a number or boolean written where a string goes, shown unless the
// field is named as a credential's.
func unquotedFix(path *field.Path, value string) string {
	name := path.String()[strings.LastIndexAny(path.String(), ".[")+1:]
	if redact.IsCredentialName(name) {
		return "must be of type string, and YAML reads the value unquoted as a number or boolean: write it in quotes"
	}
	if _, err := strconv.Atoi(value); err == nil {
		// YAML has dropped what followed the point: 1.0 arrives as 1
		return fmt.Sprintf("must be of type string, and YAML reads an unquoted number as a number (1.0 as 1): write it in quotes as you mean it, %q or %q",
			value, value+".0")
	}
	return fmt.Sprintf("must be of type string, and YAML reads an unquoted %s as a number or boolean: write it in quotes, %q", value, value)
}
