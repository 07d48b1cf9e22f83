// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// praxisServer is an OGXServer in the successor's Praxis mode, exposed as it was before: the
// operator ignores externalAccess there.
const praxisServer = `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference:
      remote:
        vllm: [{endpoint: 'http://vllm.models:8000/v1'}]
  resources:
    models: [{name: granite}]
  network:
    externalAccess: {enabled: true, hostname: chat.example.com, tls: {secretName: chat-tls}}
  praxisMode: {}
`

// praxisRecipe is the same stack as an LLSD behind Praxis, as docs/ogxserver.md shows it: what
// llsd migrate writes of praxisServer, and what it writes back as praxisMode.
func praxisRecipe(t *testing.T) string {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "ogxserver.md"))
	require.NoError(t, err)
	for _, m := range yamlBlock.FindAllStringSubmatch(string(doc), -1) {
		if strings.Contains(m[1], "kind: LlamaStackDistribution") && strings.Contains(m[1], "x-user-id") {
			return m[1]
		}
	}
	require.Fail(t, "docs/ogxserver.md shows no LlamaStackDistribution behind Praxis")
	return ""
}

type rendered struct {
	config  string
	config2 map[string]any
	policy  *networkingv1.NetworkPolicy
	dep     *appsv1.Deployment
	kinds   []string
	warn    []string
}

func renderOne(t *testing.T, doc string) rendered {
	t.Helper()
	return renderOneWith(t, doc, pipeline.Options{RendererVersion: "test"})
}

func renderOneWith(t *testing.T, doc string, opts pipeline.Options) rendered {
	t.Helper()
	decoded, errs := api.DecodeObject([]byte(doc))
	require.Empty(t, errs)
	res, errs := pipeline.RenderDecoded(decoded, opts)
	require.Empty(t, errs)
	out := rendered{config2: res.Config}
	for _, w := range decoded.Warnings {
		out.warn = append(out.warn, w.Field+": "+w.Message)
	}
	for _, w := range res.Warnings {
		out.warn = append(out.warn, w.Field+": "+w.Message)
	}
	for _, o := range res.Objects {
		data, err := yaml.Marshal(o)
		require.NoError(t, err)
		var meta struct{ Kind string }
		require.NoError(t, yaml.Unmarshal(data, &meta))
		out.kinds = append(out.kinds, meta.Kind)
		switch meta.Kind {
		case "ConfigMap":
			var cm struct{ Data map[string]string }
			require.NoError(t, yaml.Unmarshal(data, &cm))
			if c, ok := cm.Data[render.ConfigKey]; ok {
				out.config = c
			}
		case "NetworkPolicy":
			out.policy = &networkingv1.NetworkPolicy{}
			require.NoError(t, yaml.Unmarshal(data, out.policy))
		case "Deployment":
			out.dep = &appsv1.Deployment{}
			require.NoError(t, yaml.Unmarshal(data, out.dep))
		}
	}
	return out
}

// An OGXServer in Praxis mode renders the successor's topology: the server believes the
// gateway's headers (x-user-id, x-tenant-id) with the ownership rules and one tenant per caller,
// serves no Responses API (Praxis does), admits only the gateway's pods and llsd-controller,
// has no Ingress, and starts; the Tech Preview warning and the ignored externalAccess are said.
func TestPraxisMode(t *testing.T) {
	got := renderOne(t, praxisServer)
	server := got.config2["server"].(map[string]any)
	auth := server["auth"].(map[string]any)
	provider := auth["provider_config"].(map[string]any)
	assert.Equal(t, "upstream_header", provider["type"])
	assert.Equal(t, "x-user-id", provider["principal_header"])
	assert.Equal(t, "x-tenant-id", provider["tenant_header"])
	rules, _ := yaml.Marshal(auth["access_policy"])
	for _, want := range []string{"resource is unowned", "user is owner", "- create"} {
		assert.Contains(t, string(rules), want)
	}
	assert.Equal(t, map[string]any{"mode": "multi"}, server["tenancy"])
	assert.NotContains(t, got.config2["apis"], "responses")
	assert.Contains(t, got.config, "vector_stores:", "multi-tenancy needs the vector stores' store")
	assert.NotContains(t, got.kinds, "Ingress", "externalAccess is ignored")

	require.NotNil(t, got.policy)
	require.Len(t, got.policy.Spec.Ingress[0].From, 2)
	gateway, controller := got.policy.Spec.Ingress[0].From[0], got.policy.Spec.Ingress[0].From[1]
	assert.Equal(t, map[string]string{"kubernetes.io/metadata.name": "openshift-ingress"}, gateway.NamespaceSelector.MatchLabels)
	assert.Equal(t, map[string]string{"app": "payload-processing"}, gateway.PodSelector.MatchLabels)
	assert.Equal(t, "llsd-controller", controller.PodSelector.MatchLabels["app.kubernetes.io/name"])

	assert.True(t, mentions(got.warn, "Responses through Praxis is Tech Preview"), "%v", got.warn)
	assert.True(t, mentions(got.warn, "Praxis mode ignores externalAccess"), "%v", got.warn)
	checkServerStarts(t, "1.3", []byte(got.config), got.dep, got.warn)

	t.Run("the gateway the OGXServer names", func(t *testing.T) {
		got := renderOne(t, strings.Replace(praxisServer, "praxisMode: {}",
			"praxisMode: {praxisSelector: {namespace: gateways, podSelector: {matchLabels: {app: praxis}}}}", 1))
		gateway := got.policy.Spec.Ingress[0].From[0]
		assert.Equal(t, map[string]string{"kubernetes.io/metadata.name": "gateways"}, gateway.NamespaceSelector.MatchLabels)
		assert.Equal(t, map[string]string{"app": "praxis"}, gateway.PodSelector.MatchLabels)
	})
	t.Run("enabled: false is the legacy topology", func(t *testing.T) {
		got := renderOne(t, strings.Replace(praxisServer, "praxisMode: {}", "praxisMode: {enabled: false}", 1))
		assert.NotContains(t, got.config2["server"], "auth")
		assert.Contains(t, got.kinds, "Ingress")
	})
}

// The platform names its Praxis gateway once (the render options praxis.namespace and
// praxis.podLabels, as the operator's praxis-peer ConfigMap does): an OGXServer that names none
// admits it; what an OGXServer's praxisSelector names stands, the rest is the platform's.
func TestPraxisGatewayOfThePlatform(t *testing.T) {
	platform := pipeline.Options{RendererVersion: "test", Praxis: v1alpha2.PodsPeer{Namespace: "gateway", Labels: []string{"app=praxis", "tier=edge"}}}
	for _, tc := range []struct {
		reason, selector string
		namespace        string
		labels           map[string]string
	}{
		{reason: "the OGXServer names no gateway", selector: "praxisMode: {}",
			namespace: "gateway", labels: map[string]string{"app": "praxis", "tier": "edge"}},
		{reason: "it names the namespace", selector: "praxisMode: {praxisSelector: {namespace: edge}}",
			namespace: "edge", labels: map[string]string{"app": "praxis", "tier": "edge"}},
		{reason: "it names both", selector: "praxisMode: {praxisSelector: {namespace: edge, podSelector: {matchLabels: {app: own}}}}",
			namespace: "edge", labels: map[string]string{"app": "own"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got := renderOneWith(t, strings.Replace(praxisServer, "praxisMode: {}", tc.selector, 1), platform)
			gateway := got.policy.Spec.Ingress[0].From[0]
			assert.Equal(t, map[string]string{"kubernetes.io/metadata.name": tc.namespace}, gateway.NamespaceSelector.MatchLabels)
			assert.Equal(t, tc.labels, gateway.PodSelector.MatchLabels)
		})
	}
	t.Run("an LLSD's own peers are its author's", func(t *testing.T) {
		got := renderOneWith(t, praxisRecipe(t), platform)
		gateway := got.policy.Spec.Ingress[0].From[0]
		assert.Equal(t, map[string]string{"kubernetes.io/metadata.name": "openshift-ingress"}, gateway.NamespaceSelector.MatchLabels)
	})
}

// The LLSD recipe behind Praxis (docs/ogxserver.md) renders the config and the NetworkPolicy the
// OGXServer does.
func TestPraxisRecipeIsPraxisMode(t *testing.T) {
	server, recipe := renderOne(t, praxisServer), renderOne(t, praxisRecipe(t))
	assert.Equal(t, server.config, recipe.config)
	assert.Equal(t, server.policy.Spec.Ingress[0], recipe.policy.Spec.Ingress[0], "the server's port: the gateway and llsd-controller")
}

// llsd migrate writes the recipe as praxisMode and praxisMode as the recipe, saying nothing is
// lost: the authentication the OGXServer has no field for is what praxisMode says.
func TestPraxisMigratesBothWays(t *testing.T) {
	opts := pipeline.Options{RendererVersion: "test"}
	items, err := fn.ParseKubeObjects([]byte(praxisRecipe(t)))
	require.NoError(t, err)
	out, results := migrate.Items(items, opts)
	require.Len(t, out, 1, "%v", results)
	for _, r := range results {
		assert.NotContains(t, r.Message, "no field for authentication", "praxisMode carries it")
	}
	server := out[0]
	var written struct {
		Spec struct {
			PraxisMode *map[string]any `json:"praxisMode"`
		} `json:"spec"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(server.String()), &written))
	require.NotNil(t, written.Spec.PraxisMode, "%s", server)
	assert.Empty(t, *written.Spec.PraxisMode, "the successor's defaults: its gateway, no migration")
	disabled, _, _ := server.NestedStringSlice("spec", "disabledAPIs")
	assert.NotContains(t, disabled, "responses", "praxisMode says it")

	items, err = fn.ParseKubeObjects([]byte(praxisServer))
	require.NoError(t, err)
	out, results = migrate.Items(items, opts)
	require.Len(t, out, 1, "%v", results)
	back := renderOne(t, out[0].String())
	assert.Equal(t, renderOne(t, praxisRecipe(t)).config, back.config, "the LLSD renders the recipe's config")

	// Where the platform names its gateway, the LLSD migrated there admits the gateway the
	// OGXServer rendered with, and renders the same NetworkPolicy.
	platform := pipeline.Options{RendererVersion: "test", Praxis: v1alpha2.PodsPeer{Namespace: "gateway", Labels: []string{"app=praxis"}}}
	out, results = migrate.Items(items, platform)
	require.Len(t, out, 1, "%v", results)
	assert.Contains(t, out[0].String(), "namespace: gateway")
	assert.Equal(t, renderOneWith(t, praxisServer, platform).policy.Spec, renderOneWith(t, out[0].String(), platform).policy.Spec)
}
