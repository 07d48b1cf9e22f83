// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"fmt"
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
		err            string // the refusal, when it is refused
	}{
		{reason: "no egress rule: the successor limits no egress, nor does the LLSD",
			policy: `{ingress: [{from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: apps}}}]}]}`},
		{reason: "DNS alone limits egress to DNS and the spec's endpoints",
			policy:  `{egress: [{to: [{namespaceSelector: {}}], ports: [{port: 53, protocol: UDP}, {port: 53, protocol: TCP}]}]}`,
			limited: true},
		{reason: "a network on one port would be admitted on every port: refused (round five: a policy keeps what its author limited)",
			policy: `{egress: [{to: [{ipBlock: {cidr: 10.1.0.0/16}}], ports: [{port: 443, protocol: TCP}]}]}`,
			err:    "spec.network.policy.egress[0].ports: Forbidden: llsd admits a network (10.1.0.0/16) on every port, and this rule admits it on some"},
		{reason: "a network on every port", policy: `{egress: [{to: [{ipBlock: {cidr: 10.1.0.0/16}}]}]}`,
			limited: true, cidrs: []string{"10.1.0.0/16"}},
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
			if tc.err != "" {
				require.NotEmpty(t, errs)
				assert.Contains(t, errs.ToAggregate().Error(), tc.err)
				return
			}
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

// ogxServerWithProviders is an OGXServer with n custom providers, each with an id llsd refuses,
// and a client identity, which llsd refuses in conversion (so the rest is validated there).
func ogxServerWithProviders(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: s, namespace: ai}\nspec:\n  distribution: {name: starter}\n" +
		"  tls: {identity: {cert: {name: a, key: b}, key: {name: c, key: d}}}\n  providers: {inference: {remote: {custom: [\n")
	for i := range n {
		fmt.Fprintf(&b, "    {id: P_%d, type: 'remote::vllm', settings: {base_url: 'http://v%d:8000/v1'}},\n", i, i)
	}
	b.WriteString("  ]}}}\n")
	return []byte(b.String())
}

// An OGXServer's lists are bounded before it is converted: 6,000 providers are one error, not
// 6,000 converted and each mapped back through 6,000 paths (9 s of CPU: round four's F1).
func TestOGXServerListsAreBoundedBeforeConversion(t *testing.T) {
	_, errs := api.Decode(ogxServerWithProviders(6000))
	require.Len(t, errs, 1, "%v", errs)
	assert.Equal(t, "spec.providers.inference.remote.custom: Too many: 6000: must have at most 256 items", errs[0].Error())

	_, errs = api.Decode(ogxServerWithProviders(200))
	assert.Greater(t, len(errs), 200, "within the bound, every provider's problem is reported")
	assert.Contains(t, errs.ToAggregate().Error(), "spec.providers.inference.remote.custom[199].id")
}

// BenchmarkOGXServerErrors measures an OGXServer whose every provider has a problem: the time per
// provider stays flat as they grow (each error's path maps back in time of its length).
func BenchmarkOGXServerErrors(b *testing.B) {
	for _, n := range []int{16, 64, 256} {
		doc := ogxServerWithProviders(n)
		b.Run(fmt.Sprintf("providers=%d", n), func(b *testing.B) {
			for b.Loop() {
				api.Decode(doc)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/provider")
		})
	}
}
