// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import "cmp"

// The keys of a kubernetes.io/tls Secret, and the file names the pod sees a certificate and key
// under (the server's own, and each provider's client certificate), whatever the Secret's keys.
const (
	TLSCertificateKey = "tls.crt"
	TLSPrivateKeyKey  = "tls.key"
)

// ServerTLS is the server's own TLS, resolved once from spec.networking.tls, so that no package
// re-reads (and re-decides) the raw spec: which Secret, which of its keys.
//
// +kubebuilder:object:generate=false
type ServerTLS struct {
	// SecretName is the Secret of the certificate and key.
	SecretName string
	// CertificateKey and PrivateKeyKey are the Secret's keys: tls.crt and tls.key unless the
	// spec names others.
	CertificateKey, PrivateKeyKey string
	// OtherKeys is true when the spec names keys of its own: a Secret an Ingress cannot serve
	// TLS with, which the pod mounts with its keys renamed to tls.crt and tls.key.
	OtherKeys bool
}

// ServerTLS is the server's own TLS: nil when it speaks plain HTTP (no networking.tls, or one
// without enabled: a tls block may hold only the CAs the server trusts).
//
//	networking:
//	  tls: {enabled: true, secretName: chat-tls}   # ServerTLS{SecretName: chat-tls, tls.crt, tls.key}
func (s *LlamaStackDistributionSpec) ServerTLS() *ServerTLS {
	t := s.tls()
	if t == nil || !t.Enabled {
		return nil
	}
	return &ServerTLS{
		SecretName:     t.SecretName,
		CertificateKey: cmp.Or(t.CertificateKey, TLSCertificateKey), PrivateKeyKey: cmp.Or(t.PrivateKeyKey, TLSPrivateKeyKey),
		OtherKeys: t.CertificateKey != "" || t.PrivateKeyKey != "",
	}
}

// ClusterTrustedCAs reports whether the server trusts the CAs the cluster trusts
// (networking.tls.clusterTrustedCAs).
func (s *LlamaStackDistributionSpec) ClusterTrustedCAs() bool {
	t := s.tls()
	return t != nil && t.ClusterTrustedCAs
}

// CABundleRefs are the CA bundle ConfigMaps of networking.tls, caBundle first, then caBundles.
func (s *LlamaStackDistributionSpec) CABundleRefs() []CABundleRef { return s.tls().Bundles() }

// tls is networking.tls, or nil.
func (s *LlamaStackDistributionSpec) tls() *TLSSpec {
	if s.Networking == nil {
		return nil
	}
	return s.Networking.TLS
}
