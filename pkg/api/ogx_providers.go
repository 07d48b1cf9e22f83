// SPDX-License-Identifier: Apache-2.0

package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"unicode"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// ogxProviders converts an OGXServer's typed providers into an LLSD's provider lists: each
// entry keeps its provider id and type; its URL becomes the endpoint and its credential the
// apiKey, which llsd writes into the config keys the server's provider reads; other Secret
// references become secretRefs, and the rest settings under the server's config keys.
func ogxProviders(p *ogx.ProvidersSpec, paths *pathMap) *v1alpha2.ProvidersSpec {
	entries := ogx.Entries(p)
	if len(entries) == 0 {
		return nil
	}
	lists := map[string][]v1alpha2.ProviderSpec{}
	for _, e := range entries {
		at := field.NewPath("spec", "providers", string(v1alpha2.APINameOf(e.API))).Index(len(lists[e.API]))
		paths.add(at, e.Path)
		lists[e.API] = append(lists[e.API], ogxProvider(e, at, paths))
	}
	out := &v1alpha2.ProvidersSpec{}
	v := reflect.ValueOf(out).Elem()
	for api, list := range lists {
		v.FieldByName(exportedName(v1alpha2.APINameOf(api))).Set(reflect.ValueOf(list))
	}
	return out
}

// exportedName is the Go field of v1alpha2.ProvidersSpec for an API: vectorIo is VectorIo.
func exportedName(api v1alpha2.APIName) string {
	r := []rune(string(api))
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

func ogxProvider(e ogx.Entry, at *field.Path, paths *pathMap) v1alpha2.ProviderSpec {
	out := v1alpha2.ProviderSpec{ID: e.ID, Provider: e.Type}
	if c := e.Custom; c != nil {
		for key, ref := range c.SecretRefs {
			if out.SecretRefs == nil {
				out.SecretRefs = map[string]v1alpha2.SecretKeySource{}
			}
			out.SecretRefs[key] = secretSource(&ref)
		}
		if len(c.Settings) > 0 {
			out.Settings = &apiextensionsv1.JSON{Raw: c.Settings}
		}
		return out
	}
	settings := map[string]any{}
	typedFields(e.Typed, e.Path, func(f reflect.StructField, v reflect.Value, from *field.Path) {
		key := f.Tag.Get("config")
		switch ref, isRef := v.Interface().(ogx.SecretKeyRef); {
		case f.Tag.Get("role") == "endpoint":
			out.Endpoint = v.String()
			paths.add(at.Child("endpoint"), from)
		case f.Tag.Get("role") == "credential":
			source := secretSource(&ref)
			out.APIKey = &source
			paths.add(at.Child("apiKey"), from)
		case isRef:
			if out.SecretRefs == nil {
				out.SecretRefs = map[string]v1alpha2.SecretKeySource{}
			}
			out.SecretRefs[key] = secretSource(&ref)
			paths.add(at.Child("secretRefs").Key(key), from)
		default:
			settings[key] = configValue(v)
			paths.add(at.Child("settings").Child(key), from)
		}
	})
	if len(settings) > 0 {
		raw, _ := json.Marshal(settings) // plain values always marshal
		out.Settings = &apiextensionsv1.JSON{Raw: raw}
	}
	return out
}

// typedFields calls fn for each set field of a typed provider that goes into the config (those
// with a config tag), the inline groups' included, with the field's path.
func typedFields(v reflect.Value, path *field.Path, fn func(reflect.StructField, reflect.Value, *field.Path)) {
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		if f.Anonymous {
			typedFields(fv, path, fn)
			continue
		}
		if f.Tag.Get("config") == "" || fv.IsZero() {
			continue
		}
		if fv.Kind() == reflect.Pointer {
			fv = fv.Elem()
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		fn(f, fv, path.Child(name))
	}
}

// configValue is a field's value as config.yaml holds it: structs by their config keys, raw
// JSON with its keys in the server's snake_case, the rest as it is.
func configValue(v reflect.Value) any {
	if raw, ok := v.Interface().(json.RawMessage); ok {
		var tree any
		if json.Unmarshal(raw, &tree) != nil {
			return nil
		}
		return snakeKeys(tree)
	}
	if v.Kind() != reflect.Struct {
		return v.Interface()
	}
	out := map[string]any{}
	typedFields(v, field.NewPath(""), func(f reflect.StructField, fv reflect.Value, _ *field.Path) {
		out[f.Tag.Get("config")] = configValue(fv)
	})
	return out
}

// snakeKeys writes the keys of a JSON tree in snake_case: defaultProviderId is
// default_provider_id.
func snakeKeys(tree any) any {
	switch t := tree.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, v := range t {
			out[snake(k)] = snakeKeys(v)
		}
		return out
	case []any:
		for i, v := range t {
			t[i] = snakeKeys(v)
		}
	}
	return tree
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

func secretSource(ref *ogx.SecretKeyRef) v1alpha2.SecretKeySource {
	return v1alpha2.SecretKeySource{SecretKeyRef: v1alpha2.SecretKeyRef{Name: ref.Name, Key: ref.Key}}
}
