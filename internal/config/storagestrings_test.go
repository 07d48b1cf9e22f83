// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Every string field of spec.storage (but a Secret's name and key) reads no pod variable: the
// server would replace ${env.LLSD_...} with a decoded secret and store it where the field goes
// (a store's namespace once took one: round four's F4). The fields are found from the type, so
// a field the storage API gains is held to the rule without a line of this test.
func TestEveryStorageStringIsChecked(t *testing.T) {
	const secret = "${env.LLSD_STORAGE_BACKENDS_KV_DEFAULT_PASSWORD}"
	fields := stringFields(reflect.TypeOf(v1alpha2.StateStorageSpec{}), "spec.storage")
	require.Greater(t, len(fields), 10, "the storage spec's string fields: %v", fields)
	for _, path := range fields {
		t.Run(path, func(t *testing.T) {
			obj, err := api.Decode([]byte(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s, namespace: ai}
spec:
  distribution: {name: starter}
`))
			require.Empty(t, err)
			obj.Spec.Storage = &v1alpha2.StateStorageSpec{}
			setString(reflect.ValueOf(obj.Spec.Storage).Elem(), strings.Split(strings.TrimPrefix(path, "spec.storage."), "."), secret)
			dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
			require.Nil(t, ferr)
			_, errs := config.Generate(obj, dist)
			var at []string
			for _, e := range errs {
				if e.Field == path {
					at = append(at, e.Detail)
				}
			}
			require.NotEmpty(t, at, "no error at %s; the errors: %v", path, errs)
			assert.Contains(t, at[0], "LLSD_* variables carry the secrets of the spec")
		})
	}
}

// stringFields are the dotted paths of the string fields of type t, by their JSON names; a
// map's entries are one entry named b; a Secret reference is not followed.
func stringFields(t reflect.Type, prefix string) []string {
	switch t.Kind() {
	case reflect.Pointer:
		return stringFields(t.Elem(), prefix)
	case reflect.Map:
		return stringFields(t.Elem(), prefix+".b")
	case reflect.String:
		return []string{prefix}
	case reflect.Struct:
		if t == reflect.TypeOf(v1alpha2.SecretKeySource{}) {
			return nil
		}
		var out []string
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			out = append(out, stringFields(t.Field(i).Type, prefix+"."+name)...)
		}
		return out
	}
	return nil
}

// setString sets the string at the JSON path steps below v, making what lies on the way.
func setString(v reflect.Value, steps []string, s string) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		setString(v.Elem(), steps, s)
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
		}
		entry := reflect.New(v.Type().Elem()).Elem()
		setString(entry, steps[1:], s)
		v.SetMapIndex(reflect.ValueOf(steps[0]), entry)
	case reflect.String:
		v.SetString(s)
	case reflect.Struct:
		for i := range v.NumField() {
			if name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ","); name == steps[0] {
				setString(v.Field(i), steps[1:], s)
				return
			}
		}
		panic("no field " + steps[0] + " in " + v.Type().String())
	}
}
