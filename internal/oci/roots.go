// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"crypto/x509"
	"sync"

	"golang.org/x/crypto/x509roots/fallback/bundle"
)

// useFallbackRoots gives TLS Mozilla's root certificates where the system has none (the
// function image is FROM scratch), the first time a registry is contacted: a render without
// registry access does not pay for parsing them.
var useFallbackRoots = sync.OnceFunc(func() {
	pool := x509.NewCertPool()
	for c := range bundle.Roots() {
		cert, err := x509.ParseCertificate(c.Certificate)
		if err != nil {
			continue // a bundled root that does not parse cannot verify anything
		}
		if c.Constraint == nil {
			pool.AddCert(cert)
		} else {
			pool.AddCertWithConstraint(cert, c.Constraint)
		}
	}
	x509.SetFallbackRoots(pool) // used only when the system has no roots of its own
})
