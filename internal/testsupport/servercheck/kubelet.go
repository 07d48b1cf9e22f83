// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// What the kubelet does to a container before it starts, restated from its source
// (k8s.io/kubernetes third_party/forked/golang/expansion, pkg/kubelet/kubelet_pods.go):
// each env value is expanded against the variables listed before it, command and args
// against all of them; $(NAME) of a known variable becomes its value, $$ becomes $, an
// unknown or unclosed reference stays as written.

// KubeletEnv is the environment a container starts with: each variable's value after the
// kubelet's expansion, with secret(name) for the variables from a Secret key.
func KubeletEnv(c corev1.Container, secret func(name string) string) map[string]string {
	env := map[string]string{}
	for _, e := range c.Env {
		switch {
		case e.ValueFrom == nil:
			env[e.Name] = KubeletExpand(e.Value, env)
		case e.ValueFrom.SecretKeyRef != nil:
			env[e.Name] = secret(e.Name)
		}
	}
	return env
}

// KubeletExpand expands s as the kubelet does with the variables env.
func KubeletExpand(s string, env map[string]string) string {
	var out strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 == len(s) {
			out.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			out.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				out.WriteString("$(")
				i++
				continue
			}
			name := s[i+2 : i+2+end]
			if value, ok := env[name]; ok {
				out.WriteString(value)
			} else {
				out.WriteString("$(" + name + ")")
			}
			i += 2 + end
		default:
			out.WriteByte('$')
		}
	}
	return out.String()
}
