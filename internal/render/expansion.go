// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/kubeexpand"
)

// checkSecretReferences refuses a value of the spec's overrides that reads one of llsd's
// variables holding a secret through the kubelet's $(NAME) expansion: in an env value,
// the command, the args or a volume mount's subPathExpr the kubelet would put the decoded
// Secret there, and from there into a model id the server publishes, a log line or a
// directory name. ${env.NAME} in config values is refused for the same reason (internal/config).
func checkSecretReferences(in Input) field.ErrorList {
	o := overrides(in.Object)
	if o == nil {
		return nil
	}
	secret := secretVariables(llsdEnv(in))
	overridesPath := workloadPath.Child("overrides")
	var errs field.ErrorList
	check := func(p *field.Path, value string) {
		for _, name := range kubeexpand.References(value) {
			if secret[name] {
				errs = append(errs, field.Invalid(p, "$("+name+")", fmt.Sprintf(
					"the kubelet replaces $(%[1]s) with the value of %[1]s, which holds a Secret llsd passes to the server's "+
						"config: write $$(%[1]s) for the text itself, or read your own Secret with valueFrom.secretKeyRef", name)))
			}
		}
	}
	for i, e := range o.Env {
		check(overridesPath.Child("env").Index(i).Child("value"), e.Value)
	}
	for i, s := range o.Command {
		check(overridesPath.Child("command").Index(i), s)
	}
	for i, s := range o.Args {
		check(overridesPath.Child("args").Index(i), s)
	}
	for i, m := range o.VolumeMounts {
		check(overridesPath.Child("volumeMounts").Index(i).Child("subPathExpr"), m.SubPathExpr)
	}
	return errs
}

// secretVariables are the variables of vars that hold a secret: from a Secret key, or a value
// that reads one (OTEL_EXPORTER_OTLP_HEADERS).
func secretVariables(vars []corev1.EnvVar) map[string]bool {
	secret := map[string]bool{}
	for _, v := range vars {
		if v.ValueFrom != nil && v.ValueFrom.SecretKeyRef != nil {
			secret[v.Name] = true
			continue
		}
		for _, name := range kubeexpand.References(v.Value) {
			secret[v.Name] = secret[v.Name] || secret[name]
		}
	}
	return secret
}
