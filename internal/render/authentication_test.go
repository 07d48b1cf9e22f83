// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/render"
)

// The Kubernetes provider asks the in-cluster API server with the caller's token: the pod
// trusts the cluster's CA from kube-root-ca.crt and keeps no token of its own; an API server
// named by its outside URL needs neither.
func TestKubernetesProviderGetsTheClusterCAWithoutAToken(t *testing.T) {
	for _, tc := range []struct {
		reason, auth string
		wantCA       bool
	}{
		{reason: "the in-cluster API server (the default)", auth: "kubernetes: {}", wantCA: true},
		{reason: "the in-cluster Service named in full", auth: "kubernetes: {apiServerURL: https://kubernetes.default.svc.cluster.local}", wantCA: true},
		{reason: "an API server outside the cluster", auth: "kubernetes: {apiServerURL: https://api.example.com:6443}"},
		{reason: "another provider", auth: "github: {}"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			out, problems := renderSpec(t, "chat", "  distribution: {name: starter}\n  authentication: {"+tc.auth+"}\n", nil)
			require.Empty(t, filterErrors(problems))
			pod := deploymentOf(t, out).Spec.Template.Spec
			assert.False(t, *pod.AutomountServiceAccountToken, "the pod keeps no service account token")
			var ca *corev1.Volume
			for i, v := range pod.Volumes {
				if v.ConfigMap != nil && v.ConfigMap.Name == config.KubeCAConfigMap {
					ca = &pod.Volumes[i]
				}
			}
			mounted := false
			for _, m := range pod.Containers[0].VolumeMounts {
				mounted = mounted || m.MountPath == config.KubeCADir
			}
			assert.Equal(t, tc.wantCA, ca != nil, "the cluster's CA as a volume")
			assert.Equal(t, tc.wantCA, mounted, "the cluster's CA mounted at %s", config.KubeCADir)
			assert.Equal(t, tc.wantCA, strings.Contains(out.Objects[0].(*corev1.ConfigMap).Data[render.ConfigKey],
				"tls_cafile: "+config.KubeCADir+"/"+config.KubeCAKey), "the provider trusts the mounted CA")
		})
	}
}

// A server that believes a header believes whoever sends it: llsd renders it only behind a
// NetworkPolicy that admits the proxy alone, named exactly, and never exposed past the proxy
// (F2 of round five: "*", 0.0.0.0/0 or a label every namespace has let any pod be the admin).
func TestUpstreamHeaderOnlyBehindTheProxy(t *testing.T) {
	const auth = "  distribution: {name: starter}\n  authentication: {upstreamHeader: {principalHeader: x-user}}\n"
	from := func(allowed string) string { return "  networking: {allowedFrom: " + allowed + "}\n" }
	for _, tc := range []struct {
		reason, networking string
		want               []string
	}{
		{reason: "the proxy's namespace admitted, nothing exposed", networking: from("{namespaces: [gateway]}")},
		{reason: "the proxy's namespace by its label and value", networking: from("{labels: [kubernetes.io/metadata.name=gateway, team=proxy]}")},
		{reason: "the proxy's load balancer subnet", networking: from("{cidrs: [203.0.113.0/24, '2001:db8::/64']}")},
		{reason: "the proxy's pods, without the rest of their namespace", networking: from("{pods: [{namespace: openshift-ingress, labels: [app=payload-processing]}]}")},
		{reason: "no allowedFrom: any pod could name itself anyone", want: []string{
			"spec.networking.allowedFrom: Required value: the server believes the header x-user whoever sends it: name the proxy"}},
		{reason: "exposed: callers from outside reach the server past the proxy", networking: "  networking: {allowedFrom: {namespaces: [gateway]}, expose: {hostname: chat.example.com}}\n",
			want: []string{"spec.authentication.upstreamHeader: Forbidden: the server believes the header x-user whoever sends it, and networking.expose routes"}},
		{reason: "every namespace by name", networking: from("{namespaces: [gateway, '*']}"), want: []string{
			`spec.networking.allowedFrom.namespaces[1]: Invalid value: "*": the server believes the header x-user whoever sends it, and "*" admits every pod`}},
		{reason: "a label every namespace has", networking: from("{labels: [kubernetes.io/metadata.name]}"), want: []string{
			`spec.networking.allowedFrom.labels[0]: Invalid value: "kubernetes.io/metadata.name": the server believes the header x-user whoever sends it, and every namespace has the label`}},
		{reason: "a label without its value", networking: from("{labels: [team]}"), want: []string{
			`spec.networking.allowedFrom.labels[0]: Invalid value: "team": the server believes the header x-user whoever sends it, and a label without a value admits every namespace that carries it`}},
		{reason: "the whole internet, and a pod network", networking: from("{cidrs: [0.0.0.0/0, 10.0.0.0/8, '::/0']}"), want: []string{
			`spec.networking.allowedFrom.cidrs[0]: Invalid value: "0.0.0.0/0": the server believes the header x-user whoever sends it, and a network of /0 holds more than a proxy`,
			`spec.networking.allowedFrom.cidrs[1]: Invalid value: "10.0.0.0/8"`, `at most a /64`}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			out, problems := renderSpec(t, "chat", auth+tc.networking, nil)
			errs := filterErrors(problems)
			require.Len(t, errs, len(tc.want), "%v", problems)
			for i, want := range tc.want {
				assert.Contains(t, errs[i], want)
			}
			if len(tc.want) > 0 {
				return
			}
			policy := networkPolicyOf(t, out)
			require.Len(t, policy.Spec.Ingress, 1)
			for _, peer := range policy.Spec.Ingress[0].From {
				assert.False(t, peer.PodSelector != nil && peer.NamespaceSelector == nil,
					"the server's own namespace is not admitted: its pods could send the header")
				switch {
				case peer.PodSelector != nil && peer.PodSelector.MatchLabels["app"] == "payload-processing":
					assert.Equal(t, map[string]string{"kubernetes.io/metadata.name": "openshift-ingress"}, peer.NamespaceSelector.MatchLabels,
						"the proxy's pods in their namespace, not every namespace's")
				case peer.PodSelector != nil:
					assert.Equal(t, "llsd-controller", peer.PodSelector.MatchLabels["app.kubernetes.io/name"], "only llsd-controller's pod besides the proxy")
				}
			}
		})
	}
}

func networkPolicyOf(t *testing.T, out render.Output) *networkingv1.NetworkPolicy {
	for _, o := range out.Objects {
		if policy, ok := o.(*networkingv1.NetworkPolicy); ok {
			return policy
		}
	}
	require.Fail(t, "no NetworkPolicy")
	return nil
}

// Authentication on an image whose own config runs (llsd generates none) is refused: llsd
// could not put server.auth anywhere the server reads.
func TestAuthenticationNeedsAConfigLLSDWrites(t *testing.T) {
	in, errs := specInput(t, "chat", "  distribution: {name: starter}\n  authentication: {kubernetes: {}}\n")
	require.Empty(t, errs)
	in.Config = &config.Result{} // the image's own config runs
	_, errs = render.Render(in)
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), "spec.authentication: Forbidden: llsd writes server.auth into the config it generates")
}

// An exposed server that authenticates its callers is no cause for a warning, and one that
// does not is, under every provider of the spec.
func TestExposureFollowsAuthentication(t *testing.T) {
	const exposed = "  distribution: {name: starter}\n  networking: {expose: {hostname: chat.example.com, tlsSecretName: chat-tls}}\n"
	_, problems := renderSpec(t, "chat", exposed, nil)
	assert.True(t, containsLine(problems, "authenticates nobody"), "%v", problems)
	for _, auth := range []string{"kubernetes: {}", "github: {}", "custom: {endpoint: http://authz.auth.svc:8080/check}",
		"oidc: {issuer: https://idp.example.com, jwksURI: https://idp.example.com/certs}"} {
		_, problems := renderSpecWith(t, "chat", exposed+"  authentication: {"+auth+"}\n", nil, render.Options{RequireAuthentication: true})
		assert.Empty(t, problems, auth)
	}
}

// With limited egress, the NetworkPolicy cannot name the in-cluster API server the Kubernetes
// provider asks (its Service's address is the control plane's): the render says so, with the
// command that lists its addresses. An API server named by a host outside the cluster is
// warned of as any such host.
func TestKubernetesProviderEgressNamesTheAPIServer(t *testing.T) {
	const base = "  distribution: {name: starter}\n  networking: {egress: {}}\n"
	_, problems := renderSpec(t, "chat", base+"  authentication: {kubernetes: {}}\n", nil)
	require.Empty(t, filterErrors(problems))
	assert.True(t, containsLine(problems, "the API server the Kubernetes provider asks (spec.authentication.kubernetes.apiServerURL)"), "%v", problems)
	assert.True(t, containsLine(problems, "kubectl get endpointslices -n default -l kubernetes.io/service-name=kubernetes"), "%v", problems)

	_, problems = renderSpec(t, "chat", base+"  authentication: {kubernetes: {apiServerURL: https://api.example.com:6443}}\n", nil)
	assert.False(t, containsLine(problems, "endpointslices"), "%v", problems)
	assert.True(t, containsLine(problems, "api.example.com (spec.authentication.kubernetes.apiServerURL)"), "%v", problems)
}
