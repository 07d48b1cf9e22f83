// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// An external provider reaches the server: the rendered init container's own command copies
// a stand-in provider package (testdata/provider-image, laid out as `pip install --target`
// leaves it in an image) into the pod's shared volume, and python3, with the rendered
// PYTHONPATH, loads every module: provider of the rendered config.yaml as the server does at
// start-up. A wrong module, provider type, path or setting fails as it would in the server.
func TestExternalProvidersLoad(t *testing.T) {
	_, err := exec.LookPath("python3")
	if err != nil {
		testenv.Need(t, "python3 is not installed: "+err.Error())
	}
	loader, err := filepath.Abs(filepath.Join("testdata", "load_external_providers.py"))
	require.NoError(t, err)
	for _, tc := range []struct {
		reason string
		edit   func(*v1alpha2.ExternalProviderRef)
		want   string
	}{
		{reason: "the provider as its image installs it", edit: func(*v1alpha2.ExternalProviderRef) {}, want: "loaded inference acme from "},
		{reason: "a module the image does not have", edit: func(p *v1alpha2.ExternalProviderRef) { p.Module = "acme" },
			want: "get_provider_spec not found"},
		{reason: "a provider type the module does not provide", edit: func(p *v1alpha2.ExternalProviderRef) { p.ProviderType = "remote::acme-v2" },
			want: "Provider `remote::acme-v2` is not available for API `Api.inference`"},
		{reason: "a path above the package: it lands one directory too deep", edit: func(p *v1alpha2.ExternalProviderRef) { p.Path = "/opt" },
			want: "get_provider_spec not found"},
		{reason: "settings the provider's config class refuses", edit: func(p *v1alpha2.ExternalProviderRef) {
			p.Settings.Raw = []byte(`{"base_url": "acme:8080"}`)
		}, want: "base_url must be a URL"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			doc, err := os.ReadFile(filepath.Join("..", "render", "testdata", "telemetry-and-external-provider", "llsd.yaml"))
			require.NoError(t, err)
			obj, errs := api.Decode(doc)
			require.Empty(t, errs)
			tc.edit(&obj.Spec.ExternalProviders.Inference[0])
			res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
			require.Empty(t, errs)
			config, dep := renderedServer(res)
			pod := newFakePod(t, filepath.Join("testdata", "provider-image"), dep.Spec.Template.Spec.Volumes)
			for _, c := range dep.Spec.Template.Spec.InitContainers {
				out, err := pod.runInit(c)
				require.NoError(t, err, "init container %s: %s", c.Name, out)
			}
			server := dep.Spec.Template.Spec.Containers[0]
			providers := expandedProviders(t, res.LLSD.Annotations[api.AnnotationServerVersion], config, server)
			assert.Contains(t, pod.python(server, loader, providers), tc.want)
		})
	}
}

// expandedProviders is the providers: section of config.yaml as the server container reads it
// (its environment substituted), as JSON.
func expandedProviders(t *testing.T, version string, config []byte, c corev1.Container) []byte {
	tree, err := configyaml.UnmarshalMap(config)
	require.NoError(t, err)
	pod := servercheck.PodOf(version, c)
	expanded, err := servercheck.SubstituteFor(version, tree, pod.Getenv, pod.Home)
	require.NoError(t, err)
	data, err := json.Marshal(map[string]any{"providers": expanded.(map[string]any)["providers"]})
	require.NoError(t, err)
	return data
}

// fakePod runs a container's command on this machine: paths under the container's volume
// mounts are directories of the test, other absolute paths are in the image directory.
type fakePod struct {
	image   string
	volumes map[string]string
}

func newFakePod(t *testing.T, image string, volumes []corev1.Volume) *fakePod {
	abs, err := filepath.Abs(image)
	require.NoError(t, err)
	pod := &fakePod{image: abs, volumes: map[string]string{}}
	for _, v := range volumes {
		if v.EmptyDir != nil {
			pod.volumes[v.Name] = t.TempDir()
		}
	}
	return pod
}

// path is where a container's absolute path is on this machine.
func (p *fakePod) path(c corev1.Container, path string) string {
	for _, m := range c.VolumeMounts {
		if dir, ok := p.volumes[m.Name]; ok && (path == m.MountPath || strings.HasPrefix(path, m.MountPath+"/")) {
			return dir + strings.TrimPrefix(path, m.MountPath)
		}
	}
	return p.image + path
}

// runInit runs an init container's command, its absolute paths mapped onto this machine.
func (p *fakePod) runInit(c corev1.Container) (string, error) {
	args := slices.Clone(c.Command)
	for i, a := range args[1:] {
		if strings.HasPrefix(a, "/") {
			args[i+1] = p.path(c, a)
		}
	}
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	return string(out), err
}

// python runs a script of the test with container c's PYTHONPATH and stdin; it returns the
// output.
func (p *fakePod) python(c corev1.Container, script string, stdin []byte) string {
	cmd := exec.Command("python3", script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for _, e := range c.Env {
		if e.Name == "PYTHONPATH" {
			var dirs []string
			for _, d := range strings.Split(e.Value, ":") {
				dirs = append(dirs, p.path(c, d))
			}
			cmd.Env = append(cmd.Env, "PYTHONPATH="+strings.Join(dirs, ":"))
		}
	}
	cmd.Stdin = bytes.NewReader(stdin)
	out, _ := cmd.CombinedOutput() // a failure is in the output, with the server's message
	return string(out)
}
