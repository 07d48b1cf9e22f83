// SPDX-License-Identifier: Apache-2.0

package v1beta1

import (
	"iter"
	"reflect"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Entry is one provider of spec.providers, wherever the typed groups put it.
type Entry struct {
	// API is the server's name of its API: inference, vector_io, ...
	API string
	// Path is where the entry is written: spec.providers.inference.remote.vllm[0].
	Path *field.Path
	// ID is its provider id: its own, or the one the successor derives for its type.
	ID string
	// Type is the provider type (remote::vllm); a custom entry's own.
	Type string
	// Typed is the typed entry (a VLLMProvider, ...); invalid for a custom one.
	Typed reflect.Value
	// Custom is the custom entry, or nil.
	Custom *CustomProvider
}

// Entries lists the providers of p in the order the successor writes them: by API, remote
// before inline, the typed providers in their declared order, then the custom ones.
func Entries(p *ProvidersSpec) []Entry {
	var out []Entry
	for apiField, api := range givenAPIs(p) {
		path := specPath.Child("providers", jsonName(apiField))
		for _, place := range []string{"Remote", "Inline"} {
			group := api.Elem().FieldByName(place)
			if group.IsNil() {
				continue
			}
			out = append(out, groupEntries(apiField.Tag.Get("api"), path.Child(strings.ToLower(place)), group.Elem())...)
		}
	}
	return out
}

// givenAPIs yields the APIs p gives providers to (its fields that are set), in declared order,
// each with its value: the field's tag api is the server's name of the API.
func givenAPIs(p *ProvidersSpec) iter.Seq2[reflect.StructField, reflect.Value] {
	return func(yield func(reflect.StructField, reflect.Value) bool) {
		if p == nil {
			return
		}
		apis := reflect.ValueOf(p).Elem()
		for i := range apis.NumField() {
			if !apis.Field(i).IsNil() && !yield(apis.Type().Field(i), apis.Field(i)) {
				return
			}
		}
	}
}

// groupEntries are the entries of one remote or inline group.
func groupEntries(api string, path *field.Path, group reflect.Value) []Entry {
	var out []Entry
	for i := range group.NumField() {
		f, v := group.Type().Field(i), group.Field(i)
		name := jsonName(f)
		if name == "custom" {
			for j := range v.Len() {
				c := v.Index(j).Addr().Interface().(*CustomProvider)
				id := c.ID
				if id == "" {
					id = strings.ReplaceAll(c.Type, "::", "-")
				}
				out = append(out, Entry{API: api, Path: path.Child(name).Index(j), ID: id, Type: c.Type, Custom: c})
			}
			continue
		}
		typ, defaultID := f.Tag.Get("provider"), f.Tag.Get("id")
		switch v.Kind() {
		case reflect.Slice:
			for j := range v.Len() {
				out = append(out, typedEntry(api, path.Child(name).Index(j), typ, defaultID, v.Index(j)))
			}
		case reflect.Pointer:
			if !v.IsNil() {
				out = append(out, typedEntry(api, path.Child(name), typ, defaultID, v.Elem()))
			}
		}
	}
	return out
}

func typedEntry(api string, path *field.Path, typ, defaultID string, v reflect.Value) Entry {
	id := defaultID
	if f := v.FieldByName("ID"); f.IsValid() && f.String() != "" {
		id = f.String()
	}
	return Entry{API: api, Path: path, ID: id, Type: typ, Typed: v}
}

// jsonName is a struct field's JSON name.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}
