// SPDX-License-Identifier: Apache-2.0

package v1alpha2_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The server's TLS is decided once: on only when enabled, the Secret's keys tls.crt and
// tls.key unless the spec names others.
func TestServerTLS(t *testing.T) {
	for _, tc := range []struct {
		reason string
		tls    *v1alpha2.TLSSpec
		want   *v1alpha2.ServerTLS
	}{
		{reason: "no tls block: plain HTTP", tls: nil, want: nil},
		{reason: "a tls block for trust only: plain HTTP", tls: &v1alpha2.TLSSpec{ClusterTrustedCAs: true}, want: nil},
		{reason: "a kubernetes.io/tls Secret", tls: &v1alpha2.TLSSpec{Enabled: true, SecretName: "s"},
			want: &v1alpha2.ServerTLS{SecretName: "s", CertificateKey: "tls.crt", PrivateKeyKey: "tls.key"}},
		{reason: "a Secret of keys of its own", tls: &v1alpha2.TLSSpec{Enabled: true, SecretName: "s", CertificateKey: "fullchain.pem"},
			want: &v1alpha2.ServerTLS{SecretName: "s", CertificateKey: "fullchain.pem", PrivateKeyKey: "tls.key", OtherKeys: true}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			spec := v1alpha2.LlamaStackDistributionSpec{Networking: &v1alpha2.NetworkingSpec{TLS: tc.tls}}
			assert.Equal(t, tc.want, spec.ServerTLS())
		})
	}
	assert.Nil(t, (&v1alpha2.LlamaStackDistributionSpec{}).ServerTLS(), "no networking at all")
}

// Every address the spec names is parsed once, with its field: a bare host:port takes no
// scheme's port, a URL its scheme's when it names none.
func TestEndpoints(t *testing.T) {
	port := int32(6432)
	spec := v1alpha2.LlamaStackDistributionSpec{
		Providers: &v1alpha2.ProvidersSpec{Inference: []v1alpha2.ProviderSpec{
			{Provider: "vllm", Endpoint: "https://vllm.models.svc/v1"}, {Provider: "ollama", Endpoint: "http://10.0.0.7:11434"},
			{Provider: "remote::vllm", Settings: &apiextensionsv1.JSON{Raw: []byte(`{"base_url": "http://granite.serving.svc:8080/v1"}`)}},
			{Provider: "remote::vllm", Settings: &apiextensionsv1.JSON{Raw: []byte(`{"base_url": "${env.VLLM_URL}"}`)}}}},
		Storage: &v1alpha2.StateStorageSpec{
			KV:       &v1alpha2.KVStorageSpec{Type: "redis", Endpoint: "redis.cache.svc:6379"},
			Backends: map[string]v1alpha2.StorageBackendSpec{"sql_default": {Type: "sql_postgres", Host: "pg.db.svc", Port: &port, User: "u"}}},
		Telemetry: &v1alpha2.TelemetrySpec{Endpoint: "http://collector:4318"},
	}
	type resolved struct {
		Field, Host string
		Port        int
	}
	var got []resolved
	for _, e := range spec.Endpoints() {
		got = append(got, resolved{e.Field, e.Host(), e.Port()})
	}
	assert.Equal(t, []resolved{
		{"spec.providers.inference[0].endpoint", "vllm.models.svc", 443},
		{"spec.providers.inference[1].endpoint", "10.0.0.7", 11434},
		{"spec.providers.inference[2].settings[base_url]", "granite.serving.svc", 8080},
		{"spec.storage.kv.endpoint", "redis.cache.svc", 6379},
		{"spec.storage.backends.sql_default.host", "pg.db.svc", 6432},
		{"spec.telemetry.endpoint", "collector", 4318},
	}, got)
	u, err := v1alpha2.ParseEndpoint("pg.db.svc/vectors", "postgresql")
	assert.NoError(t, err)
	port64, err := v1alpha2.PortOr(u, 5432)
	assert.NoError(t, err)
	assert.Equal(t, int64(5432), port64, "a bare host takes the kind's default port")
	u, _ = v1alpha2.ParseEndpoint("redis://r:99999", "")
	_, err = v1alpha2.PortOr(u, 6379)
	assert.ErrorContains(t, err, "not a number between 1 and 65535")
}
