// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"strings"
	"testing"

	"github.com/llamastack/llsd/internal/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// The config is an immutable ConfigMap named after its content: another config is another
// name (the pods roll), the same config the same name. The cluster's trusted CAs get a
// ConfigMap of their own, labelled for OpenShift to fill, with no data of llsd's.
func TestConfigMaps(t *testing.T) {
	first, problems := renderSpec(t, "cfg", "  distribution: {name: starter}\n", nil)
	require.Empty(t, problems)
	again, _ := renderSpec(t, "cfg", "  distribution: {name: starter}\n", nil)
	other, _ := renderSpec(t, "cfg", `  distribution: {name: starter}
  workload: {workers: 2}
`, nil)
	cm := objectsOf[*corev1.ConfigMap](first)[0]
	assert.True(t, *cm.Immutable)
	assert.True(t, strings.HasPrefix(cm.Name, "cfg-config-"), cm.Name)
	assert.Equal(t, cm.Name, objectsOf[*corev1.ConfigMap](again)[0].Name, "the same config, the same name")
	assert.NotEqual(t, cm.Name, objectsOf[*corev1.ConfigMap](other)[0].Name, "another config, another name")

	trusted, problems := renderSpecWith(t, "cfg", `  distribution: {name: starter}
  networking: {tls: {clusterTrustedCAs: true}}
`, nil,
		renderOptionsOpenShift())
	require.Empty(t, problems)
	var ca *corev1.ConfigMap
	for _, c := range objectsOf[*corev1.ConfigMap](trusted) {
		if c.Name == "cfg-trusted-ca" {
			ca = c
		}
	}
	require.NotNil(t, ca, "the trusted-CA ConfigMap")
	assert.Equal(t, "true", ca.Labels["config.openshift.io/inject-trusted-cabundle"])
	assert.Empty(t, ca.Data, "the cluster's data, not llsd's")
	assert.Nil(t, ca.Immutable, "the cluster keeps it current")
}

func renderOptionsOpenShift() render.Options {
	return render.Options{Platform: render.PlatformOpenShift}
}
