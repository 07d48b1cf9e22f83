// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/render"
)

// The pod runs non-root with the RuntimeDefault seccomp profile; on OpenShift it leaves its
// user and group to the namespace's security context constraints. The spec's pod settings
// join llsd's labels and annotations without replacing them.
func TestPodSettings(t *testing.T) {
	spec := `  distribution: {name: starter}
  workload: {pod: {labels: {team: a}, annotations: {owner: b}, nodeSelector: {gpu: 'true'}}}
`
	for _, platform := range []string{"", render.PlatformOpenShift} {
		t.Run("platform "+platform, func(t *testing.T) {
			out, problems := renderSpecWith(t, "pod", spec, nil, render.Options{Platform: platform})
			require.Empty(t, problems)
			pod := deploymentOf(t, out).Spec.Template
			sc := pod.Spec.SecurityContext
			assert.True(t, *sc.RunAsNonRoot)
			assert.Equal(t, corev1.SeccompProfileTypeRuntimeDefault, sc.SeccompProfile.Type)
			if platform == render.PlatformOpenShift {
				assert.Nil(t, sc.RunAsUser, "the SCC assigns the user")
				assert.Nil(t, sc.FSGroup, "the SCC assigns the group")
			} else {
				assert.NotNil(t, sc.RunAsUser)
			}
			assert.Equal(t, "a", pod.Labels["team"])
			assert.Equal(t, "pod", pod.Labels["app.kubernetes.io/instance"], "llsd's labels stay")
			assert.Equal(t, "b", pod.Annotations["owner"])
			assert.Equal(t, map[string]string{"gpu": "true"}, pod.Spec.NodeSelector)
		})
	}
}
