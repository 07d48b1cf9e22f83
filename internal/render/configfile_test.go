// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
)

// The config a spec's own settings make the server run: RUN_CONFIG_PATH first, else the first
// .yaml path of the command or arguments; and which key of the user's ConfigMap that file is.
func TestNamedConfigFile(t *testing.T) {
	for _, tc := range []struct {
		reason, overrides, file, field, key string
	}{
		{reason: "nothing named", overrides: "{}"},
		{reason: "the dashboard's RUN_CONFIG_PATH", overrides: "{env: [{name: RUN_CONFIG_PATH, value: /etc/llama-stack/run.yaml}]}",
			file: "/etc/llama-stack/run.yaml", field: "spec.workload.overrides.env[0].value", key: "run.yaml"},
		{reason: "a path in a shell command", overrides: "{command: [/bin/sh, -c, 'ogx stack run /etc/llama-stack/custom.yaml --port 8321']}",
			file: "/etc/llama-stack/custom.yaml", field: "spec.workload.overrides.command[2]", key: "custom.yaml"},
		{reason: "a mount of the same ConfigMap elsewhere",
			overrides: "{env: [{name: RUN_CONFIG_PATH, value: /app-config/config.yaml}], volumes: [{name: own, configMap: {name: mine}}], volumeMounts: [{name: own, mountPath: /app-config}]}",
			file:      "/app-config/config.yaml", field: "spec.workload.overrides.env[0].value", key: "config.yaml"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: c}
spec:
  distribution: {name: starter}
  workload: {overrides: ` + tc.overrides + "}\n"))
			require.Empty(t, errs)
			file, path := render.NamedConfigFile(obj)
			assert.Equal(t, tc.file, file)
			if tc.file == "" {
				return
			}
			assert.Equal(t, tc.field, path.String())
			key, ok := render.UserConfigKeyAt(obj, "mine", file, false)
			assert.True(t, ok)
			assert.Equal(t, tc.key, key)
		})
	}
}

// An OGXServer's pod has its config also where the successor operator mounts it: the key of
// overrideConfig as /etc/ogx/config.yaml, which OpenShift AI 3.5's dashboard runs
// (ogx run /etc/ogx/config.yaml). A LlamaStackDistribution's pod has nothing there.
func TestTheSuccessorsConfigFile(t *testing.T) {
	obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: c}
spec:
  distribution: {name: starter}
  overrideConfig: {configMapName: mine, key: run.yaml}
  workload: {overrides: {command: [ogx, run, /etc/ogx/config.yaml, --insecure]}}
`))
	require.Empty(t, errs)
	file, _ := render.NamedConfigFile(obj)
	require.Equal(t, render.SuccessorConfigFile, file)
	key, ok := render.UserConfigKeyAt(obj, "mine", file, true)
	assert.True(t, ok)
	assert.Equal(t, "run.yaml", key, "the successor mounts the key as config.yaml")
	_, ok = render.UserConfigKeyAt(obj, "mine", file, false)
	assert.False(t, ok, "a LlamaStackDistribution's pod has no /etc/ogx")
}
