// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/llamastack/llsd/internal/testsupport/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// pluginConfig is the part of Argo CD's ConfigManagementPlugin that runs commands.
type pluginConfig struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct{ Name string }
	Spec       struct {
		Init     *struct{ Command, Args []string } `json:"init"`
		Generate struct{ Command, Args []string }  `json:"generate"`
	}
}

// Argo CD's plugin contract, emulated as the CMP server runs it (no Argo CD can be built
// here): generate runs in a copy of the app directory with the build environment and the
// plugin env as ARGOCD_ENV_*, the binaries on PATH; stdout must be only manifests.
func TestArgoCDPluginGenerate(t *testing.T) {
	root := filepath.Join("..", "..", "examples", "argocd")
	data, err := os.ReadFile(filepath.Join(root, "plugin.yaml"))
	require.NoError(t, err)
	var plugin pluginConfig
	require.NoError(t, yaml.UnmarshalStrict(data, &plugin))
	require.Equal(t, "ConfigManagementPlugin", plugin.Kind)
	require.NotEmpty(t, plugin.Spec.Generate.Command)

	app := t.TempDir()
	src, err := os.ReadFile(filepath.Join(root, "app", "llsd.yaml"))
	require.NoError(t, err)
	writeFiles(t, app, map[string]string{"llsd.yaml": string(src)})

	t.Setenv("PATH", filepath.Dir(llsdBinary)+":"+os.Getenv("PATH")) // the sidecar image has llsd on PATH
	env := append(os.Environ(), "ARGOCD_APP_NAME=chat", "ARGOCD_APP_NAMESPACE=ai", "ARGOCD_APP_PROJECT_NAME=default",
		"ARGOCD_APP_REVISION=0123456789abcdef", "ARGOCD_APP_SOURCE_PATH=examples/argocd/app",
		"KUBE_VERSION=1.34.4", "KUBE_API_VERSIONS=v1,apps/v1",
		"ARGOCD_ENV_LLSD_INGRESS_DOMAIN=apps.example.com", "ARGOCD_ENV_LLSD_INGRESS_CLASS=nginx")
	runPlugin := func(command []string) []byte {
		cmd := exec.Command(command[0], command[1:]...)
		cmd.Dir, cmd.Env = app, env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		require.NoError(t, err, stderr.String())
		return out
	}
	if plugin.Spec.Init != nil {
		runPlugin(append(plugin.Spec.Init.Command, plugin.Spec.Init.Args...))
	}
	out := runPlugin(append(plugin.Spec.Generate.Command, plugin.Spec.Generate.Args...))

	got := objects(t, out) // every document parses as an object with kind and name
	for _, want := range []string{"LlamaStackDistribution/assistant", "Deployment/assistant", "Service/assistant-service",
		"Ingress/assistant-ingress", "Namespace/ai"} {
		assert.Contains(t, got, want)
	}
	assert.Contains(t, string(out), "ingressClassName: nginx", "the plugin env reached llsd")
	assert.NotContains(t, string(src), "namespace:", "the example names no namespace, as GitOps repositories leave it out")
	assert.Equal(t, "ai", got["Deployment/assistant"]["metadata"].(map[string]any)["namespace"], "the destination's namespace (ARGOCD_APP_NAMESPACE)")

	golden.Check(t, filepath.Join(root, "expected.yaml"), out) // outside app/: Argo CD renders every file there
}
