// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	networkingv1 "k8s.io/api/networking/v1"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The Ingress terminates TLS with expose.tlsSecretName's certificate (a cert-manager issuer
// fills it), also while the server speaks plain HTTP behind it; without it, with the server's
// own certificate when networking.tls is on, and plain HTTP otherwise.
func TestIngressTLS(t *testing.T) {
	for _, tc := range []struct {
		reason      string
		edge        string
		serverTLS   bool
		wantSecret  string
		wantBackend bool // the annotation that makes the controller speak HTTPS to the server
	}{
		{reason: "plain HTTP"},
		{reason: "edge TLS before a plain server", edge: "chat-tls", wantSecret: "chat-tls"},
		{reason: "the server's certificate, re-encrypting", serverTLS: true, wantSecret: "server-tls", wantBackend: true},
		{reason: "the hostname's certificate before a server speaking TLS", edge: "chat-tls", serverTLS: true, wantSecret: "chat-tls", wantBackend: true},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			out := renderEdited(t, filepath.Join("testdata", "exposed-by-domain"), func(obj *v1alpha2.LlamaStackDistribution) {
				obj.Spec.Networking.Expose.TLSSecretName = tc.edge
				obj.Spec.Networking.TLS = nil
				if tc.serverTLS {
					obj.Spec.Networking.TLS = &v1alpha2.TLSSpec{Enabled: true, SecretName: "server-tls"}
				}
			})
			var ing *networkingv1.Ingress
			for _, o := range out.Objects {
				if i, ok := o.(*networkingv1.Ingress); ok {
					ing = i
				}
			}
			require.NotNil(t, ing)
			if tc.wantSecret == "" {
				assert.Empty(t, ing.Spec.TLS)
			} else {
				require.Len(t, ing.Spec.TLS, 1)
				assert.Equal(t, tc.wantSecret, ing.Spec.TLS[0].SecretName)
				assert.Equal(t, []string{ing.Spec.Rules[0].Host}, ing.Spec.TLS[0].Hosts)
			}
			assert.Equal(t, tc.wantBackend, ing.Annotations["nginx.ingress.kubernetes.io/backend-protocol"] == "HTTPS")
		})
	}
}
