// SPDX-License-Identifier: Apache-2.0

package migrate_test

import (
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
)

// An LLSD whose egress is limited (networking.egress: {}: DNS and the spec's in-cluster
// endpoints) becomes an OGXServer with the same egress rules: an OGXServer without egress rules
// lets the server go anywhere (round four's F6, where migrate dropped them when allowedFrom was set).
func TestMigrationKeepsTheEgressLimit(t *testing.T) {
	doc := []byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s, namespace: ai}
spec:
  distribution: {name: starter}
  providers: {inference: {provider: vllm, endpoint: "http://vllm.models.svc:8000/v1"}}
  networking:
    allowedFrom: {namespaces: [apps]}
    egress: {cidrs: [203.0.113.0/24]}
`)
	decoded, errs := api.DecodeObject(doc)
	require.Empty(t, errs)
	res, errs := pipeline.RenderDecoded(decoded, pipeline.Options{RendererVersion: "test"})
	require.Empty(t, errs)
	var rendered *networkingv1.NetworkPolicy
	for _, o := range res.Objects {
		if np, ok := o.(*networkingv1.NetworkPolicy); ok {
			rendered = np
		}
	}
	require.NotNil(t, rendered)
	require.Len(t, rendered.Spec.Egress, 3, "DNS, the models namespace and the network")

	items, err := fn.ParseKubeObjects(doc)
	require.NoError(t, err)
	migrated, results := migrate.Items(items, pipeline.Options{RendererVersion: "test"})
	require.False(t, hasErrors(results), "%v", results)
	require.Len(t, migrated, 1)
	var server ogx.OGXServer
	require.NoError(t, yaml.Unmarshal([]byte(migrated[0].String()), &server))
	require.NotNil(t, server.Spec.Network)
	require.NotNil(t, server.Spec.Network.Policy, "the OGXServer has a policy:\n%s", migrated[0].String())
	assert.Equal(t, rendered.Spec.Egress, server.Spec.Network.Policy.Egress)

	// Rendered as the OGXServer it became, the server may go where it went: its provider, now
	// a custom one with base_url in its settings, is admitted as its endpoint was.
	back := networkPoliciesOf(t, migrated)
	require.Len(t, back, 1)
	assert.Equal(t, rendered.Spec.Egress, back[0].Spec.Egress)
}

// networkPoliciesOf are the NetworkPolicies the objects of items render.
func networkPoliciesOf(t *testing.T, items fn.KubeObjects) []*networkingv1.NetworkPolicy {
	t.Helper()
	var out []*networkingv1.NetworkPolicy
	for _, item := range items {
		decoded, errs := api.DecodeObject([]byte(item.String()))
		require.Empty(t, errs)
		res, errs := pipeline.RenderDecoded(decoded, pipeline.Options{RendererVersion: "test"})
		require.Empty(t, errs)
		for _, o := range res.Objects {
			if np, ok := o.(*networkingv1.NetworkPolicy); ok {
				out = append(out, np)
			}
		}
	}
	return out
}
