// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/crane"
	imagemutate "github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
)

// wheel builds a pure-Python wheel of files (path in the wheel -> content), as a build
// backend would: the files, then the dist-info with METADATA, WHEEL and a RECORD of hashes.
func wheel(t *testing.T, name, version string, files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	info := strings.ReplaceAll(name, "-", "_") + "-" + version + ".dist-info/"
	files[info+"METADATA"] = fmt.Sprintf(`Metadata-Version: 2.1
Name: %s
Version: %s
`, name, version)
	files[info+"WHEEL"] = `Wheel-Version: 1.0
Generator: llsd-test
Root-Is-Purelib: true
Tag: py3-none-any
`
	var record strings.Builder
	for _, p := range sortedKeys(files) {
		sum := sha256.Sum256([]byte(files[p]))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", p, base64.RawURLEncoding.EncodeToString(sum[:]), len(files[p]))
	}
	fmt.Fprintf(&record, "%sRECORD,,\n", info)
	files[info+"RECORD"] = record.String()
	for _, p := range sortedKeys(files) {
		w, err := zw.Create(p)
		require.NoError(t, err)
		_, err = w.Write([]byte(files[p]))
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// acmeProviderImage is a provider image built to the contract: the stand-in provider of
// testdata/provider-image and a dependency as wheels in /lls-provider/packages, described by
// /lls-provider/lls-provider-spec.yaml for api. It returns the image's files too.
func acmeProviderImage(t *testing.T, api string) (map[string][]byte, *registrytest.Registry, string) {
	pkg := map[string]string{}
	src := filepath.Join("testdata", "provider-image", "opt", "acme", "acme_provider")
	entries, err := os.ReadDir(src)
	require.NoError(t, err)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		require.NoError(t, err)
		pkg["acme_provider/"+e.Name()] = string(data)
	}
	files := map[string][]byte{
		"lls-provider/packages/acme_provider-1.0.0-py3-none-any.whl": wheel(t, "acme-provider", "1.0.0", pkg),
		"lls-provider/packages/acme_client-2.1-py3-none-any.whl": wheel(t, "acme-client", "2.1",
			map[string]string{"acme_client/__init__.py": "VERSION = '2.1'\n"}),
		"lls-provider/lls-provider-spec.yaml": []byte(`apiVersion: llamastack.io/v1alpha1
kind: ProviderPackage
metadata: {name: acme-provider, version: 1.0.0, vendor: acme}
spec:
  packageName: acme_provider
  providerType: remote::acme
  api: ` + api + `
  wheelPath: packages/acme_provider-1.0.0-py3-none-any.whl
  dependencyWheels: [packages/acme_client-2.1-py3-none-any.whl]
`),
	}
	base, err := random.Image(256, 1)
	require.NoError(t, err)
	layer, err := crane.Layer(files)
	require.NoError(t, err)
	img, err := imagemutate.AppendLayers(base, layer)
	require.NoError(t, err)
	reg := registrytest.New(t)
	return files, reg, reg.Push(t, "acme/provider:1.0", img)
}

const contractLLSD = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: acme, namespace: ai}
spec:
  distribution: {name: starter}
  externalProviders:
    inference:
    - providerId: acme
      image: %s
      settings: {base_url: "http://acme:8080/v1"}
`

// A provider image built to the upstream operator's provider contract works with only its
// providerId and image: llsd reads lls-provider-spec.yaml from the image (through the
// registry, then from its cache), writes the module and provider type it names, and the pod's
// init containers, run here with their own commands, copy the wheels and install them with
// pip --no-deps --no-index --target; python3 then loads the provider from the rendered
// PYTHONPATH as the server does.
func TestProviderImagesByTheContract(t *testing.T) {
	if out, err := exec.Command("python3", "-m", "pip", "--version").CombinedOutput(); err != nil {
		testenv.Need(t, "python3 with pip is not installed (apt-get install python3-pip): "+string(out))
	}
	files, _, ref := acmeProviderImage(t, "inference")
	obj, errs := api.Decode([]byte(fmt.Sprintf(contractLLSD, ref)))
	require.Empty(t, errs)
	client := &oci.Client{Cache: &oci.Cache{Dir: t.TempDir()}}
	res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test", Providers: client})
	require.Empty(t, errs)
	checkStarts(t, res)

	config, dep := renderedServer(res)
	cfg, err := configyaml.UnmarshalMap(config)
	require.NoError(t, err)
	var acme map[string]any
	for _, p := range cfg["providers"].(map[string]any)["inference"].([]any) {
		if p.(map[string]any)["provider_id"] == "acme" {
			acme = p.(map[string]any)
		}
	}
	require.NotNil(t, acme)
	assert.Equal(t, "acme_provider", acme["module"])
	assert.Equal(t, "remote::acme", acme["provider_type"])
	inits := slices.DeleteFunc(slices.Clone(dep.Spec.Template.Spec.InitContainers), func(c corev1.Container) bool {
		return c.Name == "cache" // the cache's seed: the real server's suite runs it
	})
	require.Len(t, inits, 2)
	assert.Equal(t, ref, inits[0].Image, "the provider image copies its /lls-provider")
	assert.Equal(t, dep.Spec.Template.Spec.Containers[0].Image, inits[1].Image, "the server image installs the wheels with its own Python")

	image := t.TempDir()
	for p, data := range files {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(image, p)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(image, p), data, 0o644))
	}
	pod := newFakePod(t, image, dep.Spec.Template.Spec.Volumes)
	for _, c := range inits {
		out, err := pod.runInit(c)
		require.NoError(t, err, "init container %s: %s", c.Name, out)
	}
	server := dep.Spec.Template.Spec.Containers[0]
	assert.FileExists(t, pod.path(server, "/opt/llsd/providers/acme/acme_client/__init__.py"), "the dependency wheel is installed")
	loader, err := filepath.Abs(filepath.Join("testdata", "load_external_providers.py"))
	require.NoError(t, err)
	providers := expandedProviders(t, res.LLSD.Annotations[api.AnnotationServerVersion], config, server)
	assert.Contains(t, pod.python(server, loader, providers), "loaded inference acme from ")

	// Rendered again offline (the default: no registry), from what the first render cached.
	again, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test", Providers: oci.OfflineCache{Cache: client.Cache}})
	require.Empty(t, errs)
	assert.Equal(t, res.Objects, again.Objects, "the same objects from the cache")
}

// An image's provider that serves another API than the section it sits in is refused, naming
// the section it belongs to; an image llsd has not read is refused offline with the way to read it.
func TestProviderImageErrors(t *testing.T) {
	_, _, ref := acmeProviderImage(t, "safety")
	obj, errs := api.Decode([]byte(fmt.Sprintf(contractLLSD, ref)))
	require.Empty(t, errs)
	client := &oci.Client{Cache: &oci.Cache{Dir: t.TempDir()}}
	_, errs = pipeline.Render(obj, pipeline.Options{Providers: client})
	require.Len(t, errs, 1)
	assert.Equal(t, "spec.externalProviders.inference[0].image", errs[0].Field)
	assert.Contains(t, errs[0].Detail, "serves the safety API")
	assert.Contains(t, errs[0].Detail, "move it to spec.externalProviders.safety")

	_, errs = pipeline.Render(obj, pipeline.Options{Providers: oci.OfflineCache{Cache: &oci.Cache{Dir: t.TempDir()}}})
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Detail, "LLSD_REGISTRY_ENABLED=true")
}
