// SPDX-License-Identifier: Apache-2.0

package config

import (
	"cmp"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/kubeexpand"
	"github.com/llamastack/llsd/internal/lazyre"
)

// Authentication is what the config a server runs asks of its callers, as far as llsd can
// read it.
type Authentication struct {
	// Known is false when llsd cannot read the config the server runs (the image's own, or a
	// ConfigMap not among the inputs).
	Known bool
	// Unread says which config llsd could not read, when it read the ConfigMap but not every
	// config the pod may run ("" otherwise).
	Unread string
	// Required is true when server.auth.provider_config.type resolves, in the pod, to a
	// provider (oauth2_token, kubernetes, ...); false when the server authenticates nobody and
	// answers every caller.
	Required bool
}

// AuthenticationOf reads the authentication of a config the server runs, whose pod has the
// variables env: OpenShift AI's images write type: ${env.AUTH_ISSUER:+oauth2_token}, so
// their servers authenticate only when AUTH_ISSUER is set. The type is judged as the pod runs
// it: the kubelet's $(VAR) expansion of the variables, then the server's substitution of every
// ${env...} reference; a type that may resolve empty (a variable a Secret or ConfigMap decides,
// an optional reference) counts as none, since an empty type authenticates nobody.
func AuthenticationOf(tree map[string]any, env []corev1.EnvVar) Authentication {
	server, _ := tree["server"].(map[string]any)
	auth, _ := server["auth"].(map[string]any)
	provider, _ := auth["provider_config"].(map[string]any)
	typ, _ := provider["type"].(string)
	return Authentication{Known: true, Required: surelyNonEmpty(typ, podVariables(env))}
}

// podVariable is a variable of the pod as its container sees it: its value, when the pod's
// spec decides it (known), or a Secret's or ConfigMap's value llsd does not read.
type podVariable struct {
	value string
	known bool
}

// podVariables are the container's variables as the kubelet sets them: each env value with
// $(VAR) expanded from the variables before it; a later entry of a name replaces an earlier.
func podVariables(env []corev1.EnvVar) map[string]podVariable {
	vars := map[string]podVariable{}
	for _, e := range env {
		if e.ValueFrom != nil {
			vars[e.Name] = podVariable{} // decided outside the spec, maybe empty or unset (optional)
			continue
		}
		value, known := kubeexpand.Expand(e.Value, func(name string) (string, bool, bool) {
			v, ok := vars[name]
			return v.value, ok, v.known
		})
		vars[e.Name] = podVariable{value: value, known: known}
	}
	return vars
}

// serverEnvReference is a reference the server substitutes (its replace_env_vars pattern): ${env.NAME}, ${env.NAME:=default} (the
// variable, or the default when it is unset or empty), ${env.NAME:+value} (the value when the
// variable is set and not empty, else nothing).
var serverEnvReference = lazyre.New(`\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?\}`)

// serverSubstitute is value with each ${env...} reference substituted as the server substitutes
// it in a pod with vars, where a value llsd cannot read counts as empty, the least it can be;
// known is false when one was needed: a variable a Secret or ConfigMap decides, or a plain
// reference of a variable nothing sets (the server refuses to start on it).
func serverSubstitute(value string, vars map[string]podVariable) (out string, known bool) {
	known = true
	out = serverEnvReference().ReplaceAllStringFunc(value, func(ref string) string {
		m := serverEnvReference().FindStringSubmatch(ref)
		v, set := vars[m[1]]
		if set && !v.known || !set && m[2] == "" {
			known = false
		}
		switch m[2] {
		case "=": // the variable, or the default when it is unset or empty
			return cmp.Or(v.value, m[3])
		case "+": // the word when the variable is set and not empty
			if v.value != "" {
				return m[3]
			}
			return ""
		}
		return v.value
	})
	return out, known
}

// surelyNonEmpty reports whether value, each ${env...} reference substituted as the server
// substitutes it in a pod with vars, is non-empty whatever the values llsd cannot read are.
func surelyNonEmpty(value string, vars map[string]podVariable) bool {
	out, _ := serverSubstitute(value, vars)
	return strings.TrimSpace(out) != ""
}

// asThePodReadsIt is value with each ${env...} reference substituted as the server substitutes
// it, from the variables the spec sets itself (spec.workload.overrides.env) with the kubelet's
// $(VAR) expansion; known is false when a reference reads a variable the spec does not set to a
// plain value (a Secret's, or none).
func (g *generator) asThePodReadsIt(value string) (string, bool) {
	if !strings.Contains(value, "${env.") {
		return value, true
	}
	vars := podVariables(g.overrideEnv())
	for name := range vars {
		if HoldsASecret(name) {
			vars[name] = podVariable{} // a secret's value is never the spec's to know
		}
	}
	return serverSubstitute(value, vars)
}
