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
		{reason: "fresh", data: data, names: names, at: now, want: true},
		{reason: "eleven months on: still more than 30 days left", data: data, names: names, at: now.Add(330 * 24 * time.Hour), want: true},
		{reason: "within 30 days of expiry: renew", data: data, names: names, at: now.Add(340 * 24 * time.Hour), want: false},
		{reason: "another service name", data: data, names: dnsNames(CertOptions{Namespace: "elsewhere", ServiceName: "llsd-webhook"}), at: now, want: false},
		{reason: "a CA that did not sign it", data: map[string][]byte{"ca.crt": other["ca.crt"], "tls.crt": data["tls.crt"], "tls.key": data["tls.key"]}, names: names, at: now, want: false},
		{reason: "no key", data: map[string][]byte{"ca.crt": data["ca.crt"], "tls.crt": data["tls.crt"]}, names: names, at: now, want: false},
		{reason: "empty Secret", data: map[string][]byte{}, names: names, at: now, want: false},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, certUsable(tc.data, tc.names, tc.at))
		})
	}
}
