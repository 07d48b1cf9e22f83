// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/kubeexpand"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// telemetryEnv is the OpenTelemetry environment of spec.telemetry. The image's entrypoint
// runs the server under opentelemetry-instrument as soon as any OTEL_* variable is set.
// Header values come from Secrets into LLSD_OTEL_HEADER_<NAME> variables, which
// OTEL_EXPORTER_OTLP_HEADERS names as $(LLSD_OTEL_HEADER_<NAME>): Kubernetes expands them in
// the pod, so no value is ever in the manifests.
func telemetryEnv(obj *v1alpha2.LlamaStackDistribution) []corev1.EnvVar {
	t := obj.Spec.Telemetry
	if t == nil {
		return nil
	}
	serviceName := t.ServiceName
	if serviceName == "" {
		serviceName = obj.Name
	}
	var vars []corev1.EnvVar
	var headers []string
	for _, name := range slices.Sorted(maps.Keys(t.Headers)) {
		ref := t.Headers[name].SecretKeyRef
		v := telemetryHeaderVar(name)
		vars = append(vars, corev1.EnvVar{Name: v, ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: ref.Name}, Key: ref.Key}}})
		headers = append(headers, name+"=$("+v+")")
	}
	vars = append(vars,
		corev1.EnvVar{Name: "OTEL_EXPORTER_OTLP_ENDPOINT", Value: kubeexpand.Literal(t.Endpoint)},
		corev1.EnvVar{Name: "OTEL_SERVICE_NAME", Value: kubeexpand.Literal(serviceName)})
	vars = append(vars, corev1.EnvVar{Name: "OTEL_EXPORTER_OTLP_PROTOCOL", Value: telemetryProtocol(t)})
	if t.SamplingPercent != nil {
		vars = append(vars, corev1.EnvVar{Name: "OTEL_TRACES_SAMPLER", Value: "parentbased_traceidratio"},
			corev1.EnvVar{Name: "OTEL_TRACES_SAMPLER_ARG", Value: fmt.Sprintf("%.2f", float64(*t.SamplingPercent)/100)})
	}
	if len(headers) > 0 {
		vars = append(vars, corev1.EnvVar{Name: config.EnvOTLPHeaders, Value: strings.Join(headers, ",")})
	}
	return vars
}

// telemetryProtocol is the OTLP protocol of the exporters: http/protobuf unless set. Under
// opentelemetry-instrument (the image's entrypoint, whenever OTEL_* is set) every exporter
// speaks the protocol set; a server started without it exports its own metrics over
// OTLP/HTTP only (to <endpoint>/v1/metrics). HTTP is the one protocol right in both cases.
func telemetryProtocol(t *v1alpha2.TelemetrySpec) string {
	if t.Protocol == "" {
		return v1alpha2.TelemetryProtocolHTTP
	}
	return t.Protocol
}

// otlpPorts are the ports collectors listen on for each OTLP protocol.
var otlpPorts = map[string]string{"4317": v1alpha2.TelemetryProtocolGRPC, "4318": v1alpha2.TelemetryProtocolHTTP}

// checkTelemetry warns when the endpoint's port is the standard port of the other OTLP
// protocol (gRPC to 4318, HTTP to 4317): every export would fail, and only the pod log says so.
func checkTelemetry(in Input) []config.Warning {
	t := in.Object.Spec.Telemetry
	if t == nil {
		return nil
	}
	u, err := v1alpha2.ParseEndpoint(t.Endpoint, "")
	if err != nil {
		return nil
	}
	protocol := telemetryProtocol(t)
	portProtocol, known := otlpPorts[u.Port()]
	if !known || (portProtocol == v1alpha2.TelemetryProtocolGRPC) == (protocol == v1alpha2.TelemetryProtocolGRPC) {
		return nil
	}
	chosen, fix := "⟦spec.telemetry.protocol⟧", "set protocol: http/protobuf (or leave it unset), or use the collector's OTLP/gRPC port 4317"
	if protocol != v1alpha2.TelemetryProtocolGRPC {
		fix = "set protocol: grpc, or use the collector's OTLP/HTTP port 4318"
	}
	if t.Protocol == "" {
		chosen += " unset"
	}
	return []config.Warning{{Field: "spec.telemetry.endpoint", Message: fmt.Sprintf(
		"the server exports over %s (%s) to port %s, where collectors take %s: %s", protocol, chosen, u.Port(), portProtocol, fix)}}
}

// checkTelemetryCredentials refuses an endpoint that holds a credential: it is written into
// the Deployment's environment in clear, and a collector's token belongs in headers.
func checkTelemetryCredentials(in Input) field.ErrorList {
	t := in.Object.Spec.Telemetry
	if t == nil || !redact.HasCredentials(t.Endpoint) {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("spec", "telemetry", "endpoint"), redact.URL(t.Endpoint),
		"holds a credential (user info or a token parameter), which the Deployment would store in clear: remove it, "+
			"and send the collector's token as a header from a Secret (⟦spec.telemetry.headers⟧: {authorization: {secretKeyRef: ...}})")}
}

// telemetryHeaderVar is the variable that carries a header's value: LLSD_OTEL_HEADER_X_API_KEY.
func telemetryHeaderVar(header string) string {
	return "LLSD_OTEL_HEADER_" + strings.ToUpper(strings.ReplaceAll(header, "-", "_"))
}

// telemetryEnvOwners names the field that sets each telemetry variable.
func telemetryEnvOwners(obj *v1alpha2.LlamaStackDistribution) map[string]string {
	owners := map[string]string{}
	for _, v := range telemetryEnv(obj) {
		owners[v.Name] = "⟦spec.telemetry⟧"
	}
	return owners
}
