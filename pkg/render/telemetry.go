// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/config"
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
		corev1.EnvVar{Name: "OTEL_EXPORTER_OTLP_ENDPOINT", Value: t.Endpoint},
		corev1.EnvVar{Name: "OTEL_SERVICE_NAME", Value: serviceName})
	vars = append(vars, corev1.EnvVar{Name: "OTEL_EXPORTER_OTLP_PROTOCOL", Value: telemetryProtocol(t)})
	if t.SamplingPercent != nil {
		vars = append(vars, corev1.EnvVar{Name: "OTEL_TRACES_SAMPLER", Value: "parentbased_traceidratio"},
			corev1.EnvVar{Name: "OTEL_TRACES_SAMPLER_ARG", Value: fmt.Sprintf("%.2f", float64(*t.SamplingPercent)/100)})
	}
	if len(headers) > 0 {
		vars = append(vars, corev1.EnvVar{Name: "OTEL_EXPORTER_OTLP_HEADERS", Value: strings.Join(headers, ",")})
	}
	return vars
}

// telemetryProtocol is the OTLP protocol of the exporters opentelemetry-instrument starts:
// http/protobuf unless set, because the server's own metrics exporter speaks only OTLP/HTTP
// (it posts to <endpoint>/v1/metrics), so one endpoint serves both only over HTTP.
func telemetryProtocol(t *v1alpha2.TelemetrySpec) string {
	if t.Protocol == "" {
		return v1alpha2.TelemetryProtocolHTTP
	}
	return t.Protocol
}

// checkTelemetry warns where the server's metrics would not reach the collector: the server
// posts them over OTLP/HTTP to <endpoint>/v1/metrics, whatever the protocol, so with grpc
// the endpoint would need to take both.
func checkTelemetry(in Input) []config.Warning {
	t := in.Object.Spec.Telemetry
	if t == nil || telemetryProtocol(t) != v1alpha2.TelemetryProtocolGRPC {
		return nil
	}
	return []config.Warning{{Field: "spec.telemetry.protocol", Message: fmt.Sprintf(
		"traces go over gRPC, but the server exports its own metrics over OTLP/HTTP to %s/v1/metrics whatever the "+
			"protocol, so they are lost unless that endpoint also takes OTLP/HTTP; use protocol: %s with the "+
			"collector's OTLP/HTTP port (4318)", t.Endpoint, v1alpha2.TelemetryProtocolHTTP)}}
}

// telemetryHeaderVar is the variable that carries a header's value: LLSD_OTEL_HEADER_X_API_KEY.
func telemetryHeaderVar(header string) string {
	return "LLSD_OTEL_HEADER_" + strings.ToUpper(strings.ReplaceAll(header, "-", "_"))
}

// telemetryEnvOwners names the field that sets each telemetry variable.
func telemetryEnvOwners(obj *v1alpha2.LlamaStackDistribution) map[string]string {
	owners := map[string]string{}
	for _, v := range telemetryEnv(obj) {
		owners[v.Name] = "spec.telemetry"
	}
	return owners
}
