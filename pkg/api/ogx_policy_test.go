// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/pkg/api"
)

// An OGXServer's NetworkPolicy is never loosened without a word (round four's F7): egress
// rules keep the server's egress limited, and what an LLSD cannot say as narrowly (a network's
// ports, an ingress rule's protocol, a namespace) is a warning naming the rule.
func TestOGXServerPolicyIsNeverLoosenedSilently(t *testing.T) {
	for _, tc := range []struct {
		reason, policy string
		limited        bool     // the LLSD limits egress
		cidrs          []string // the networks it admits
		warnings       []string
	}{
		{reason: "no egress rule: the successor limits no egress, nor does the LLSD",
			policy: `{ingress: [{from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: apps}}}]}]}`},
		{reason: "DNS alone limits egress to DNS and the spec's endpoints",
			policy:  `{egress: [{to: [{namespaceSelector: {}}], ports: [{port: 53, protocol: UDP}, {port: 53, protocol: TCP}]}]}`,
			limited: true},
		{reason: "a network on one port is admitted on every port, with a warning",
			policy:  `{egress: [{to: [{ipBlock: {cidr: 10.1.0.0/16}}], ports: [{port: 443, protocol: TCP}]}]}`,
			limited: true, cidrs: []string{"10.1.0.0/16"},
			warnings: []string{"spec.network.policy.egress[0].ports: llsd admits a network on every port: the server may reach 10.1.0.0/16 on any port"}},
		{reason: "a namespace is admitted only where an endpoint of the spec is",
			policy:   `{egress: [{to: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: models}}}]}]}`,
			limited:  true,
			warnings: []string{"spec.network.policy.egress[0].to[0]: llsd admits the namespaces of the spec's in-cluster endpoints"}},
		{reason: "an ingress rule's UDP is read as the server's TCP, with a warning",
			policy:   `{ingress: [{from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: apps}}}], ports: [{port: 8321, protocol: UDP}]}]}`,
			warnings: []string{"spec.network.policy.ingress[0].ports[0].protocol: the server listens on TCP"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			obj, warnings, errs := api.DecodeWithWarnings([]byte(`apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  network: {policy: ` + tc.policy + `}
`))
			require.Empty(t, errs)
			egress := obj.Spec.Networking.Egress
			assert.Equal(t, tc.limited, egress != nil, "egress limited")
			if egress != nil {
				assert.Equal(t, tc.cidrs, egress.CIDRs)
			}
			var said []string
			for _, w := range warnings {
				said = append(said, w.Field+": "+w.Message)
			}
			require.Len(t, said, len(tc.warnings), strings.Join(said, "\n"))
			for i, want := range tc.warnings {
				assert.Contains(t, said[i], want)
			}
		})
	}
}
