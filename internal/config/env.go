// SPDX-License-Identifier: Apache-2.0

package config

import (
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/kubeexpand"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// envVar is one container variable: from a Secret key, or a plain value.
type envVar struct {
	secret *v1alpha2.SecretKeyRef
	value  string
	field  *field.Path
}

type envVars map[string]envVar

// EnvName is the variable that carries a provider's secret config key into the container:
// LLSD_<ID>_<KEY>, upper case, "-" as "_" (vllm-primary, api_token -> LLSD_VLLM_PRIMARY_API_TOKEN).
func EnvName(parts ...string) string {
	return "LLSD_" + strings.ToUpper(strings.ReplaceAll(strings.Join(parts, "_"), "-", "_"))
}

// EnvOTLPHeaders is the OpenTelemetry SDK's variable of the exporter's headers. llsd writes it
// as $(LLSD_OTEL_HEADER_<NAME>) references, so in the pod it holds the telemetry Secrets'
// values, decoded by the kubelet.
const EnvOTLPHeaders = "OTEL_EXPORTER_OTLP_HEADERS"

// HoldsASecret reports whether llsd fills the pod's variable name from the spec's Secrets:
// every LLSD_* variable, and EnvOTLPHeaders. No value and no config llsd did not write reads
// one (a config that reads it can send it anywhere, or publish it as a model id).
func HoldsASecret(name string) bool {
	return strings.HasPrefix(name, "LLSD_") || name == EnvOTLPHeaders
}

// Placeholder is the config value that reads a variable at server start.
func Placeholder(name string) string { return "${env." + name + "}" }

// addSecret records a secretKeyRef variable. Two fields that map to the same name (ids
// a-b with key c, and a with key b_c) are an error, not a silent overwrite.
// secretConfigKey sets a provider's config key to ${env.<envName>}, a variable from the
// Secret ref names; a value the settings gave that key is overridden, with a warning.
func (g *generator) secretConfigKey(config, settings map[string]any, key, envName string, ref v1alpha2.SecretKeyRef, path *field.Path) {
	if _, ok := settings[key]; ok {
		g.warn(path, "overrides settings.%s: the secret wins", key)
	}
	g.addSecret(envName, ref, path)
	config[key] = Placeholder(envName)
}

func (g *generator) addSecret(name string, ref v1alpha2.SecretKeyRef, path *field.Path) {
	if prev, ok := g.env[name]; ok {
		g.errs = append(g.errs, field.Duplicate(path, name+
			" (the environment variable of "+prev.field.String()+" too): rename a provider id so their variables differ"))
		return
	}
	r := ref
	g.env[name] = envVar{secret: &r, field: path}
}

// addValue records a plain variable.
func (g *generator) addValue(name, value string, path *field.Path) {
	g.env[name] = envVar{value: value, field: path}
}

func (e envVars) fields() map[string]string {
	out := make(map[string]string, len(e))
	for name, v := range e {
		out[name] = v.field.String()
	}
	return out
}

func (e envVars) list() []corev1.EnvVar {
	out := make([]corev1.EnvVar, 0, len(e))
	for _, name := range slices.Sorted(maps.Keys(e)) {
		v := e[name]
		if v.secret == nil {
			// Plain values come from what the user wrote (a mount path, a redis host): the
			// kubelet must not expand $(...) in them.
			out = append(out, corev1.EnvVar{Name: name, Value: kubeexpand.Literal(v.value)})
			continue
		}
		out = append(out, corev1.EnvVar{Name: name, ValueFrom: &corev1.EnvVarSource{
			SecretKeyRef: &corev1.SecretKeySelector{
				LocalObjectReference: corev1.LocalObjectReference{Name: v.secret.Name},
				Key:                  v.secret.Key,
			},
		}})
	}
	return out
}
