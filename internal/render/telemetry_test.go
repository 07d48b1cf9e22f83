// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/render"
)

// The server's OpenTelemetry settings are variables of its container, header values from
// Secrets by reference, never in clear.
func TestTelemetryEnvironment(t *testing.T) {
	out, problems := renderSpec(t, "traced", `  distribution: {name: starter}
  telemetry:
    endpoint: http://collector.observability.svc:4318
    samplingPercent: 25
    headers: {x-api-key: {secretKeyRef: {name: otel, key: token}}}
`, nil)
	require.Empty(t, problems)
	env := map[string]corev1.EnvVar{}
	for _, v := range deploymentOf(t, out).Spec.Template.Spec.Containers[0].Env {
		env[v.Name] = v
	}
	assert.Equal(t, "http://collector.observability.svc:4318", env["OTEL_EXPORTER_OTLP_ENDPOINT"].Value)
	assert.Equal(t, "traced", env["OTEL_SERVICE_NAME"].Value, "the service is named after the LLSD")
	assert.Equal(t, "http/protobuf", env["OTEL_EXPORTER_OTLP_PROTOCOL"].Value)
	assert.Equal(t, "0.25", env["OTEL_TRACES_SAMPLER_ARG"].Value)
	assert.Equal(t, "x-api-key=$(LLSD_OTEL_HEADER_X_API_KEY)", env["OTEL_EXPORTER_OTLP_HEADERS"].Value)
	assert.Equal(t, "otel", env["LLSD_OTEL_HEADER_X_API_KEY"].ValueFrom.SecretKeyRef.Name)
}

// An endpoint with a credential is refused (the Deployment holds it in clear), without
// showing it; a protocol sent to the other protocol's standard port is a warning.
func TestTelemetryEndpointChecks(t *testing.T) {
	for _, tc := range []struct {
		reason, spec string
		configMaps   map[string]map[string]string
		want         []string
	}{
		{reason: "a token in the endpoint",
			spec: `  distribution: {name: starter}
  telemetry: {endpoint: 'https://otlp.example.com?token=s3cr3t'}
`, configMaps: nil,
			want: []string{"spec.telemetry.endpoint: Invalid value:", "holds a credential"}},
		{reason: "telemetry without a protocol (OTLP/HTTP) to the collector's gRPC port",
			spec: `  distribution: {name: starter}
  telemetry: {endpoint: 'http://collector:4317'}
`, configMaps: nil,
			want: []string{"warning: spec.telemetry.endpoint: the server exports over http/protobuf (spec.telemetry.protocol unset) to port 4317, where collectors take grpc: set protocol: grpc"}},
		{reason: "telemetry over gRPC to the collector's HTTP port",
			spec: `  distribution: {name: starter}
  telemetry: {endpoint: 'http://collector:4318', protocol: grpc}
`, configMaps: nil,
			want: []string{"warning: spec.telemetry.endpoint: the server exports over grpc (spec.telemetry.protocol) to port 4318, where collectors take http/protobuf: set protocol: http/protobuf (or leave it unset)"}},
		{reason: "telemetry over gRPC to the gRPC port",
			spec: `  distribution: {name: starter}
  telemetry: {endpoint: 'http://collector:4317', protocol: grpc}
`, configMaps: nil, want: nil},
		{reason: "telemetry without a protocol to the HTTP port",
			spec: `  distribution: {name: starter}
  telemetry: {endpoint: 'http://collector:4318'}
`, configMaps: nil, want: nil},
		{reason: "telemetry to a port of the collector's choosing",
			spec: `  distribution: {name: starter}
  telemetry: {endpoint: 'https://otlp.example.com', protocol: grpc}
`, configMaps: nil, want: nil},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, problems := renderSpec(t, "s", tc.spec, tc.configMaps)
			for _, want := range tc.want {
				assert.True(t, containsLine(problems, want), "%s: want %q in\n%s", tc.reason, want, strings.Join(problems, "\n"))
			}
			assert.NotContains(t, strings.Join(problems, "\n"), "s3cr3t", "no credential in a message")
			if tc.want == nil {
				assert.Empty(t, problems, tc.reason)
			}
		})
	}
}

// deploymentOf is the Deployment of a render.
func deploymentOf(t *testing.T, out render.Output) *appsv1.Deployment {
	t.Helper()
	for _, o := range out.Objects {
		if d, ok := o.(*appsv1.Deployment); ok {
			return d
		}
	}
	t.Fatal("no Deployment")
	return nil
}
