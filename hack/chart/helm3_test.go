// SPDX-License-Identifier: Apache-2.0

package chart

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	helm3action "helm.sh/helm/v3/pkg/action"
	helm3loader "helm.sh/helm/v3/pkg/chart/loader"
	helm3chartutil "helm.sh/helm/v3/pkg/chartutil"
)

// Clients still on Helm 3 install the chart as Helm 4 does (apiVersion v2, templates only
// functions both know, a schema both read): it renders with its own values and refuses a
// misspelt choice.
func TestHelm3ClientsInstallTheChart(t *testing.T) {
	chart, err := helm3loader.Load(chartDir)
	require.NoError(t, err)
	install := helm3action.NewInstall(&helm3action.Configuration{})
	install.DryRun, install.ClientOnly, install.ReleaseName, install.Namespace = true, true, "llsd", "team-llsd"
	install.KubeVersion = &helm3chartutil.KubeVersion{Version: "v1.34.0", Major: "1", Minor: "34"}
	release, err := install.Run(chart, map[string]any{})
	require.NoError(t, err)
	assert.Contains(t, release.Manifest, "image: ghcr.io/llamastack/llsd-controller:"+chart.Metadata.AppVersion)
	assert.Contains(t, release.Manifest, "helm.sh/resource-policy: keep")

	_, err = install.Run(chart, map[string]any{"webhook": map[string]any{"certificates": "certmanager"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "certificates")
}
