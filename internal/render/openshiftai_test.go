// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	networkingv1 "k8s.io/api/networking/v1"

	"github.com/llamastack/llsd/internal/render"
)

// Under OpenShift AI's conventions the server trusts the platform's CA bundle, from a
// ConfigMap that may be missing (the namespace then starts with the image's CAs), and the
// dashboard's namespace may reach it.
func TestOpenShiftAIConventions(t *testing.T) {
	out, problems := renderSpecWith(t, "rhoai", `  distribution: {name: starter}
  networking: {allowedFrom: {namespaces: [apps]}}
`, nil,
		render.Options{Platform: render.PlatformOpenShift, OpenShiftAI: true, DashboardNamespace: "redhat-ods-applications"})
	require.Empty(t, problems)
	pod := deploymentOf(t, out).Spec.Template.Spec
	found := false
	for _, v := range pod.Volumes {
		if v.ConfigMap != nil && v.ConfigMap.Name == render.PlatformCABundle {
			found = true
			assert.True(t, *v.ConfigMap.Optional, "a namespace without the bundle still starts")
		}
	}
	assert.True(t, found, "the platform's CA bundle is mounted")
	env := map[string]string{}
	for _, e := range pod.Containers[0].Env {
		env[e.Name] = e.Value
	}
	assert.NotEmpty(t, env["SSL_CERT_FILE"], "the server trusts the merged bundle")
	assert.Contains(t, ingressNamespaces(t, out), "redhat-ods-applications")
}

// ingressNamespaces are the namespaces the NetworkPolicy's ingress rules admit by name.
func ingressNamespaces(t *testing.T, out render.Output) []string {
	t.Helper()
	policy := objectOf[*networkingv1.NetworkPolicy](t, out)
	var names []string
	for _, rule := range policy.Spec.Ingress {
		for _, peer := range rule.From {
			if peer.NamespaceSelector != nil {
				if name := peer.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"]; name != "" {
					names = append(names, name)
				}
			}
		}
	}
	return names
}
