// SPDX-License-Identifier: Apache-2.0

package config

import "github.com/llamastack/llsd/pkg/api/v1alpha2"

// Where the rendered Deployment mounts what the config refers to.
const (
	// ConfigDir holds config.yaml (and launcher.py when needed).
	ConfigDir = "/etc/llama-stack"
	// TLSDir holds the networking.tls Secret (tls.crt, tls.key).
	TLSDir = "/etc/llama-stack/tls"
	// ClientTLSDir holds, under <provider id>/, each provider's client certificate (tls.crt,
	// tls.key) for mutual TLS.
	ClientTLSDir = "/etc/llama-stack/client-tls"
	// ServiceCADir holds OpenShift's service CA (service-ca.crt of the openshift-service-ca.crt
	// ConfigMap OpenShift puts in every namespace), which signs token-protected predictors'
	// certificates; ServiceCAFile is the file.
	ServiceCADir  = "/etc/llama-stack/service-ca"
	ServiceCAFile = ServiceCADir + "/service-ca.crt"
)

// applyServer writes the server block: port and workers when the spec sets them (with the
// host several workers need on 0.6), and the certificate files when TLS is enabled. caBundle
// is outbound trust (SSL_CERT_FILE), not server.tls_cafile, which would demand client
// certificates. A server that refuses to start without TLS (OGX 1.2 on) gets insecure: true
// when TLS ends outside the pod (an Ingress, a Route, a mesh): the 1.2.0 image's entrypoint
// does not pass --insecure, nor does a command of one's own.
func (g *generator) applyServer() {
	server := ensureMap(g.cfg, "server")
	if n := g.spec.Networking; n != nil && n.Port != nil {
		server["port"] = int64(*n.Port)
	}
	if w := g.spec.Workload; w != nil && w.Workers != nil {
		server["workers"] = int64(*w.Workers)
		if *w.Workers > 1 && g.prof.MultiWorkerHost != "" && server["host"] == nil {
			server["host"] = g.prof.MultiWorkerHost
		}
	}
	if g.spec.ServerTLS() != nil {
		server["tls_certfile"] = TLSDir + "/" + v1alpha2.TLSCertificateKey
		server["tls_keyfile"] = TLSDir + "/" + v1alpha2.TLSPrivateKeyKey
	} else if g.prof.TLSRequired {
		server["insecure"] = true
	}
	if len(server) == 0 {
		delete(g.cfg, "server")
	}
}
