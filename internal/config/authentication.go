// SPDX-License-Identifier: Apache-2.0

package config

import (
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/lazyre"
)

// Authentication is what the config a server runs asks of its callers, as far as llsd can
// read it.
type Authentication struct {
	// Known is false when llsd cannot read the config the server runs (the image's own, or a
	// ConfigMap not among the inputs).
	Known bool
	// Required is true when server.auth.provider_config.type resolves, in the pod, to a
	// provider (oauth2_token, kubernetes, ...); false when the server authenticates nobody and
	// answers every caller.
	Required bool
}

// envTypeReference is a value the server substitutes whole from one variable:
// ${env.AUTH_ISSUER:+oauth2_token} (the value when the variable is set), ${env.X:=default},
// ${env.X}.
var envTypeReference = lazyre.New(`^\$\{env\.([A-Z0-9_]+)(?:(:\+|:=)([^}]*))?\}$`)

// AuthenticationOf reads the authentication of a config the server runs, whose pod has the
// variables env: OpenShift AI's images write type: ${env.AUTH_ISSUER:+oauth2_token}, so
// their servers authenticate only when AUTH_ISSUER is set.
func AuthenticationOf(tree map[string]any, env []corev1.EnvVar) Authentication {
	server, _ := tree["server"].(map[string]any)
	auth, _ := server["auth"].(map[string]any)
	provider, _ := auth["provider_config"].(map[string]any)
	typ, _ := provider["type"].(string)
	return Authentication{Known: true, Required: resolvesNonEmpty(typ, env)}
}

// resolvesNonEmpty reports whether a value resolves to a non-empty one in a pod with env: a
// plain value as it is, one ${env.} reference as the server substitutes it, which reads an
// empty variable as unset. A variable from a Secret or ConfigMap counts as set.
func resolvesNonEmpty(value string, env []corev1.EnvVar) bool {
	m := envTypeReference().FindStringSubmatch(strings.TrimSpace(value))
	if m == nil {
		return value != ""
	}
	set := false
	for _, e := range env {
		if e.Name == m[1] {
			set = e.ValueFrom != nil || e.Value != ""
		}
	}
	switch m[2] {
	case ":+": // the value when the variable is set
		return set && m[3] != ""
	case ":=": // the variable's value, or the default
		return set || m[3] != ""
	}
	return set
}
