// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// An external provider's package is copied from its image into a volume the server shares,
// in spec order, and the server's PYTHONPATH lists each provider's directory.
func TestExternalProviderPackages(t *testing.T) {
	out, problems := renderSpec(t, "ext", `  distribution: {name: starter}
  externalProviders:
    inference:
      - {providerId: acme, image: "registry.example.com/acme:1.0", module: acme_provider, providerType: "remote::acme", path: /opt/acme, settings: {base_url: "http://acme:8080/v1"}}
      - {providerId: zeta, image: "registry.example.com/zeta:2.0", module: zeta_provider, providerType: "remote::zeta", settings: {url: "http://zeta:9000"}}
`, nil)
	require.Empty(t, problems)
	pod := deploymentOf(t, out).Spec.Template.Spec
	pod.InitContainers = slices.DeleteFunc(pod.InitContainers, func(c corev1.Container) bool { return c.Name == "cache" })
	require.Len(t, pod.InitContainers, 2)
	assert.Equal(t, "provider-acme", pod.InitContainers[0].Name)
	assert.Equal(t, "registry.example.com/acme:1.0", pod.InitContainers[0].Image)
	assert.Equal(t, []string{"cp", "-R", "/opt/acme/.", pod.InitContainers[0].Command[3]}, pod.InitContainers[0].Command, "the provider's own path")
	assert.Equal(t, "provider-zeta", pod.InitContainers[1].Name)
	var pythonPath string
	for _, e := range pod.Containers[0].Env {
		if e.Name == "PYTHONPATH" {
			pythonPath = e.Value
		}
	}
	assert.Regexp(t, `/acme:.*/zeta$`, pythonPath, "each provider's directory, in spec order")
}
