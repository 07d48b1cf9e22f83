// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCertUsable(t *testing.T) {
	names := dnsNames(CertOptions{Namespace: "llsd-system", ServiceName: "llsd-webhook"})
	now := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	data, err := generateCerts(names, now)
	require.NoError(t, err)
	other, err := generateCerts(names, now)
	require.NoError(t, err)
	for _, tc := range []struct {
		reason string
		data   map[string][]byte
		names  []string
		at     time.Time
		want   bool
	}{
		{"fresh", data, names, now, true},
		{"eleven months on: still more than 30 days left", data, names, now.Add(330 * 24 * time.Hour), true},
		{"within 30 days of expiry: renew", data, names, now.Add(340 * 24 * time.Hour), false},
		{"another service name", data, dnsNames(CertOptions{Namespace: "elsewhere", ServiceName: "llsd-webhook"}), now, false},
		{"a CA that did not sign it", map[string][]byte{"ca.crt": other["ca.crt"], "tls.crt": data["tls.crt"], "tls.key": data["tls.key"]}, names, now, false},
		{"no key", map[string][]byte{"ca.crt": data["ca.crt"], "tls.crt": data["tls.crt"]}, names, now, false},
		{"empty Secret", map[string][]byte{}, names, now, false},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, certUsable(tc.data, tc.names, tc.at))
		})
	}
}
