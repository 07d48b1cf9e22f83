// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Options, from which the usage, --doc and the ConfigMap reader are made, has every option of
// RenderOptions (but limits), and each variable sets the field the table names.
func TestOptionsTableIsEveryOption(t *testing.T) {
	var fields []string
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, prefix string) {
		for f := range typ.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "limits" {
				continue
			}
			typ := f.Type
			if typ.Kind() == reflect.Pointer {
				typ = typ.Elem()
			}
			if typ.Kind() == reflect.Struct {
				walk(typ, prefix+name+".")
				continue
			}
			fields = append(fields, prefix+name)
		}
	}
	walk(reflect.TypeFor[RenderOptionsSpec](), "")
	var listed []string
	for _, o := range Options {
		listed = append(listed, o.Field)
	}
	assert.ElementsMatch(t, fields, listed)

	example := map[string]string{
		EnvImageOverrides: "starter=registry.internal/starter:1", EnvDistributions: "rh-dev=quay.io/rh/dev:1",
		EnvIngressClass: "nginx", EnvIngressDomain: "apps.example.com", EnvIngressControllerNS: "ingress-nginx",
		EnvPlatform: "openshift", EnvPodSecurity: "baseline", EnvRegistryEnabled: "true", EnvRegistryInsecure: "registry.lab:5000",
		EnvControllerNamespace: "ai-platform", EnvOpenShiftAIRelease: "3.5", EnvRequireAuth: "true",
		EnvPraxisNamespace: "gateway", EnvPraxisPodLabels: "app=praxis,tier=edge",
	}
	for _, o := range Options {
		t.Run(o.Env, func(t *testing.T) {
			got, err := RenderOptions{}.WithEnv(func(name string) (string, bool) {
				if name == o.Env {
					return example[name], true
				}
				return "", false
			})
			require.NoError(t, err)
			data, err := json.Marshal(got.Spec)
			require.NoError(t, err)
			var spec map[string]any
			require.NoError(t, json.Unmarshal(data, &spec))
			var at any = spec
			for part := range strings.SplitSeq(o.Field, ".") {
				m, _ := at.(map[string]any)
				at = m[part]
			}
			assert.NotEmpty(t, at, "%s sets spec.%s", o.Env, o.Field)
		})
	}
}
