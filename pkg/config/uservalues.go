// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/configyaml"
)

// envReference matches the server's ${env.NAME...} substitution. The server replaces it
// everywhere in config.yaml with the pod's variable, and the pod's variables hold decoded
// secrets (LLSD_*), so a user value must not carry one: model: "${env.LLSD_STORAGE_SQL_PASSWORD}"
// would publish a password as a model id. There is no escape.
var envReference = lazyre.New(`\$\{env\.([^}:]*)`)

// checkUserValues refuses ${env. in every value of the spec that lands in config.yaml. In
// settings, ${env.X} may read a variable the spec sets itself with a plain value in
// spec.workload.overrides.env (not from a Secret, not an LLSD_* variable).
func (g *generator) checkUserValues() {
	check := func(path *field.Path, value string, settings bool) {
		for _, m := range envReference().FindAllStringSubmatch(decoded(value), -1) {
			if settings && g.plainOverride(m[1]) {
				continue
			}
			fix := "write the value itself"
			if strings.HasPrefix(m[1], "LLSD_") {
				fix = "LLSD_* variables carry the secrets of the spec and are never read by a value"
			} else if settings {
				fix = "set the variable in spec.workload.overrides.env with a plain value (not from a Secret) and name it here, or write the value itself"
			}
			g.errs = append(g.errs, field.Invalid(path, value, fmt.Sprintf(
				"the server replaces ${env.%s} with the pod's variable, and the pod's variables hold decoded secrets: %s",
				m[1], fix)))
			return
		}
	}
	if r := g.spec.Resources; r != nil {
		for i, m := range r.Models {
			p := resourcesPath.Child("models").Index(i)
			check(p.Child("name"), m.Name, false)
			check(p.Child("providerModelId"), m.ProviderModelID, false)
			check(p.Child("quantization"), m.Quantization, false)
		}
		for i, s := range r.Shields {
			check(resourcesPath.Child("shields").Index(i), s, false)
		}
	}
	for _, list := range g.spec.Providers.APIs() {
		for i, p := range list.Providers {
			path := field.NewPath("spec", "providers", string(list.Name)).Index(i)
			check(path.Child("endpoint"), p.Endpoint, false)
			settings := path.Child("settings")
			configyaml.WalkStrings(g.settings(p, settings), func(at configyaml.Path, s string) {
				check(fieldPath(settings, at), s, true)
			})
		}
	}
	for _, list := range g.spec.ExternalProviders.APIs() {
		for i, ref := range list.Providers {
			settings := field.NewPath("spec", "externalProviders", string(list.Name)).Index(i).Child("settings")
			configyaml.WalkStrings(g.settings(v1alpha2.ProviderSpec{Settings: ref.Settings}, settings), func(at configyaml.Path, s string) {
				check(fieldPath(settings, at), s, true)
			})
		}
	}
	if s := g.spec.Storage; s != nil && s.KV != nil {
		check(storagePath.Child("kv", "endpoint"), s.KV.Endpoint, false)
	}
}

// decoded is value with every percent-encoding undone, as often as it nests, also where the
// rest is no valid encoding: an endpoint's path and query are decoded into config keys (a
// pgvector database), so %24%7Benv.NAME%7D reaches the server as ${env.NAME}.
func decoded(value string) string {
	for range 8 {
		d := percentByte().ReplaceAllStringFunc(value, func(hex string) string {
			b, _ := strconv.ParseUint(hex[1:], 16, 8)
			return string([]byte{byte(b)})
		})
		if d == value {
			break
		}
		value = d
	}
	return value
}

var percentByte = lazyre.New(`%[0-9A-Fa-f]{2}`)

// plainOverride reports whether spec.workload.overrides.env sets name with a plain value.
func (g *generator) plainOverride(name string) bool {
	if g.spec.Workload == nil || g.spec.Workload.Overrides == nil || strings.HasPrefix(name, "LLSD_") {
		return false
	}
	return slices.ContainsFunc(g.spec.Workload.Overrides.Env, func(e corev1.EnvVar) bool {
		return e.Name == name && e.ValueFrom == nil
	})
}

// fieldPath is the spec field of a value at path inside the field base (settings[a][0]).
func fieldPath(base *field.Path, path configyaml.Path) *field.Path {
	for _, step := range path {
		if i, ok := step.(int); ok {
			base = base.Index(i)
		} else {
			base = base.Key(step.(string))
		}
	}
	return base
}
