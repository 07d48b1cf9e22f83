// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/kubeexpand"
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
	out, _ := kubeexpand.Expand(s, func(name string) (string, bool, bool) {
		value, ok := env[name]
		return value, ok, true
	})
	return out
}
