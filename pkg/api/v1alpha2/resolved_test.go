// SPDX-License-Identifier: Apache-2.0

package v1alpha2_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
