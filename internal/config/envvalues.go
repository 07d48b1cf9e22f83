// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/redact"
)

// overridesEnvPath is spec.workload.overrides.env, the pod's own variables.
var overridesEnvPath = field.NewPath("spec", "workload", "overrides", "env")

// envValue is a config value that is one pod variable's value, or its default when unset:
// ${env.X} or ${env.X:=default} (not ${env.X:+value}, which is value).
var envValue = lazyre.New(`^\$\{env\.([A-Za-z0-9_]+)(?::=[^}]*)?\}$`)

// checkEnvValues refuses a plain variable of spec.workload.overrides.env that a provider's
// config key reads whole when the server would not start with it, as the server reads it
// (configyaml.Substituted): a placeholder where the key is a URL (VLLM_URL=PLACEHOLDER), a
// word where it is a number, a value its enum lacks or out of its bounds, digits where it is
// a string. The distribution's providers count too.
func (g *generator) checkEnvValues() {
	if len(g.overrideEnv()) == 0 {
		return // no variable of the user's to check (the hot path of a render)
	}
	for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
		for _, entry := range providerList(g.cfg, api) {
			if _, started := g.enabledID(entry["provider_id"]); !started {
				continue // the server validates the config of the providers it starts only
			}
			providerType, _ := entry["provider_type"].(string)
			fields, _ := g.prof.Fields(api, providerType)
			for _, f := range fields {
				value, _ := mapAt(entry, "config")[f.Name].(string)
				m := envValue().FindStringSubmatch(value)
				if m == nil {
					continue
				}
				i, raw, known := g.knownOverride(m[1])
				if !known {
					continue
				}
				if problem := envValueProblem(f, raw); problem != "" {
					g.errs = append(g.errs, field.Invalid(overridesEnvPath.Index(i).Child("value"),
						shownEnvValue(f, m[1], raw), fmt.Sprintf("%s is the %s of provider %s (%s) in %s: %s", m[1], f.Name,
							entryID(entry["provider_id"]), providerType, g.prof, problem)))
				}
			}
		}
	}
}

// shownEnvValue is what an error may show of a variable's value raw that key f reads: nothing
// when the key or the variable holds a credential (VLLM_API_TOKEN=73521946 read at api_token
// is a token whatever it looks like), else the value without a URL's credentials.
func shownEnvValue(f profile.Field, name, raw string) any {
	if f.Secret || redact.IsCredentialKey(f.Name) || redact.IsCredentialKey(name) {
		return field.OmitValueType{}
	}
	return redact.URL(raw)
}

// envValueProblem says why key f cannot take a variable's value raw, "" when it can.
func envValueProblem(f profile.Field, raw string) string {
	v := configyaml.Substituted(raw)
	if got, ok := takes(f.Kinds, v); !ok {
		return fmt.Sprintf("the server reads this value as %s, and the key takes %s: the server would not start; %s", kindName(got),
			strings.Join(kindNames(f.Kinds), " or "), envKindFix(f.Kinds, got))
	}
	if s, ok := v.(string); ok && f.URL {
		if fix := httpURLFix(s); fix != "" {
			return "an http or https URL with a host, which this is not, and the server would not start: " + fix
		}
	}
	if problem := notAllowed(f, v); problem != "" {
		return "the key " + problem + ": the server would not start"
	}
	return ""
}

// envKindFix says how to pass a value of the kind the key takes through a variable.
func envKindFix(kinds []string, got string) string {
	if slices.Contains(kinds, "string") && (got == "integer" || got == "number" || got == "boolean") {
		return "a variable cannot pass a string that reads as a number or boolean: give the key another value"
	}
	return kindFix(kinds, got)
}

// checkEnvShields refuses a plain variable of spec.workload.overrides.env that a registered
// shield of an inline scanner reads as its provider_shield_id (the 0.6 and 0.7 starters'
// provider_shield_id: ${env.CODE_SCANNER_MODEL:=}) when the scanner does not run a shield of
// that id: the server would not start.
func (g *generator) checkEnvShields() {
	if len(g.overrideEnv()) == 0 {
		return
	}
	items, _ := mapAt(g.cfg, "registered_resources")["shields"].([]any)
	for _, item := range items {
		shield, _ := item.(map[string]any)
		value, _ := shield["provider_shield_id"].(string)
		m := envValue().FindStringSubmatch(value)
		if m == nil {
			continue
		}
		providerType := g.providerType("safety", entryID(shield["provider_id"]))
		ids, fixed := fixedShieldIDs[providerType]
		i, raw, known := g.knownOverride(m[1])
		if !fixed || !known || slices.Contains(ids, raw) {
			continue
		}
		g.errs = append(g.errs, field.Invalid(overridesEnvPath.Index(i).Child("value"), raw,
			fmt.Sprintf("%s is the provider_shield_id of shield %v, which %s runs: it runs %s only, and the server would not start with another",
				m[1], shield["shield_id"], providerType, strings.Join(ids, " and "))))
	}
}

// knownOverride is the index and value of the variable name of spec.workload.overrides.env
// when its value is known here: a plain value, not empty, which the kubelet does not expand.
// One from a Secret, or unset, is not known.
func (g *generator) knownOverride(name string) (int, string, bool) {
	env := g.overrideEnv()
	i := slices.IndexFunc(env, func(e corev1.EnvVar) bool { return e.Name == name && e.ValueFrom == nil })
	if i < 0 || env[i].Value == "" || strings.Contains(env[i].Value, "$(") {
		return 0, "", false
	}
	return i, env[i].Value, true
}

// overrideEnv are the variables of spec.workload.overrides.env.
func (g *generator) overrideEnv() []corev1.EnvVar {
	if g.spec.Workload == nil || g.spec.Workload.Overrides == nil {
		return nil
	}
	return g.spec.Workload.Overrides.Env
}

// overrideEnvSets reports whether spec.workload.overrides.env sets name, whatever its value.
func (g *generator) overrideEnvSets(name string) bool {
	return slices.ContainsFunc(g.overrideEnv(), func(e corev1.EnvVar) bool { return e.Name == name })
}
