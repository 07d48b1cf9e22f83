// SPDX-License-Identifier: Apache-2.0

package olm

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/operator-framework/api/crds"
	"github.com/operator-framework/api/pkg/manifests"
	operatorsv1 "github.com/operator-framework/api/pkg/operators/v1"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

const registry = "registry.example.com/platform"

// built is a release's OLM bundle and its two images, written by gen and image as make
// release-snapshot runs them.
type built struct {
	dir                         string // bundle/, olm/bundle, olm/catalog
	bundleDigest, catalogDigest string
}

func buildImages(t *testing.T) built {
	kustomize := needEnv(t, "KUSTOMIZE", "builds the pinned kustomize")
	dir := t.TempDir()
	out, err := exec.Command("go", "run", "./gen", kustomize, filepath.Join("..", "..", "examples", "install"), "v0.4.0", image, filepath.Join(dir, "bundle")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	cmd := exec.Command("go", "run", "./image", filepath.Join(dir, "bundle"), registry, "v0.4.0,v0.4,v0", dir)
	cmd.Env = append(os.Environ(), "LLSD_COMMIT_DATE=2026-12-01T10:00:00Z")
	out, err = cmd.Output()
	require.NoError(t, err)
	b := built{dir: dir}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		name, digest, _ := strings.Cut(line, " ")
		switch name {
		case "llsd-bundle":
			b.bundleDigest = digest
		case "llsd-catalog":
			b.catalogDigest = digest
		}
	}
	require.NotEmpty(t, b.bundleDigest, "%s", out)
	require.NotEmpty(t, b.catalogDigest, "%s", out)
	return b
}

// files is what the linux/arm64 image of the layout in dir, tagged tag, holds, and its labels.
func files(t *testing.T, dir, tag, arch string) (map[string]string, map[string]string, v1.Hash) {
	path, err := layout.FromPath(dir)
	require.NoError(t, err)
	top, err := path.ImageIndex()
	require.NoError(t, err)
	manifest, err := top.IndexManifest()
	require.NoError(t, err)
	var digest v1.Hash
	for _, d := range manifest.Manifests {
		if d.Annotations["org.opencontainers.image.ref.name"] == tag {
			digest = d.Digest
		}
	}
	require.NotEmpty(t, digest.Hex, "no image tagged %s in %s", tag, dir)
	index, err := top.ImageIndex(digest)
	require.NoError(t, err)
	list, err := index.IndexManifest()
	require.NoError(t, err)
	var platforms []string
	var img v1.Image
	for _, m := range list.Manifests {
		platforms = append(platforms, m.Platform.OS+"/"+m.Platform.Architecture)
		if m.Platform.Architecture == arch {
			img, err = index.Image(m.Digest)
			require.NoError(t, err)
		}
	}
	assert.ElementsMatch(t, []string{"linux/amd64", "linux/arm64"}, platforms)
	cfg, err := img.ConfigFile()
	require.NoError(t, err)
	layers, err := img.Layers()
	require.NoError(t, err)
	require.Len(t, layers, 1)
	r, err := layers[0].Uncompressed()
	require.NoError(t, err)
	defer r.Close()
	got := map[string]string{}
	entries := tar.NewReader(r)
	for {
		h, err := entries.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		assert.Equal(t, "2026-12-01T10:00:00Z", h.ModTime.UTC().Format(time.RFC3339), "%s has the commit's time", h.Name)
		if h.Typeflag == tar.TypeReg {
			data, err := io.ReadAll(entries)
			require.NoError(t, err)
			got[h.Name] = string(data)
		}
	}
	return got, cfg.Config.Labels, digest
}

// The bundle image holds the bundle as gen wrote it, labelled with its annotations, and the
// catalog image a file-based catalog whose channel leads to that bundle image by digest, with
// the APIs it provides and the controller's image; two builds of one commit give one digest.
func TestBundleAndCatalogImages(t *testing.T) {
	b := buildImages(t)
	bundleFiles, labels, digest := files(t, filepath.Join(b.dir, "olm", "bundle"), "v0.4.0", "arm64")
	assert.Equal(t, b.bundleDigest, digest.String())
	for _, tag := range []string{"v0.4", "v0"} {
		_, _, moved := files(t, filepath.Join(b.dir, "olm", "bundle"), tag, "amd64")
		assert.Equal(t, digest, moved, "the tag %s the release moves", tag)
	}
	assert.Equal(t, "llsd", labels["operators.operatorframework.io.bundle.package.v1"])
	assert.Equal(t, "registry+v1", labels["operators.operatorframework.io.bundle.mediatype.v1"])
	for name, content := range bundleFiles {
		want, err := os.ReadFile(filepath.Join(b.dir, "bundle", name))
		require.NoError(t, err, name)
		assert.Equal(t, string(want), content, name)
	}
	assert.Contains(t, bundleFiles, "manifests/llsd.clusterserviceversion.yaml")
	assert.Contains(t, bundleFiles, "metadata/annotations.yaml")

	catalogFiles, labels, _ := files(t, filepath.Join(b.dir, "olm", "catalog"), "v0.4.0", "amd64")
	assert.Equal(t, "/configs", labels["operators.operatorframework.io.index.configs.v1"])
	catalog := catalogFiles["configs/llsd/catalog.yaml"]
	require.NotEmpty(t, catalog)
	var pkg, channel, bundle map[string]any
	for _, doc := range strings.Split(catalog, "---\n")[1:] {
		var obj map[string]any
		require.NoError(t, yaml.Unmarshal([]byte(doc), &obj))
		switch obj["schema"] {
		case "olm.package":
			pkg = obj
		case "olm.channel":
			channel = obj
		case "olm.bundle":
			bundle = obj
		}
	}
	assert.Equal(t, "stable", pkg["defaultChannel"])
	assert.Equal(t, "stable", channel["name"])
	assert.Equal(t, []any{map[string]any{"name": "llsd.v0.4.0"}}, channel["entries"])
	assert.Equal(t, "llsd.v0.4.0", bundle["name"])
	assert.Equal(t, registry+"/llsd-bundle@"+b.bundleDigest, bundle["image"], "the bundle image by digest")
	properties, _ := yaml.Marshal(bundle["properties"])
	for _, want := range []string{"packageName: llsd", "version: 0.4.0", "kind: LlamaStackDistribution", "version: v1alpha1", "version: v1alpha2", "olm.bundle.object"} {
		assert.Contains(t, string(properties), want)
	}
	related, _ := yaml.Marshal(bundle["relatedImages"])
	assert.Contains(t, string(related), image, "the controller's image, for mirroring")

	again := buildImages(t)
	assert.Equal(t, b.bundleDigest, again.bundleDigest, "the same commit, the same bundle image")
	assert.Equal(t, b.catalogDigest, again.catalogDigest, "the same commit, the same catalog image")
}

// OLM's own API (its CRDs, with their schemas) takes the bundle's ClusterServiceVersion and
// what the docs tell a cluster admin to apply: the CatalogSource of the catalog image (served
// by OLM's own opm: extractContent), an OperatorGroup for all namespaces and the Subscription to
// the catalog's package and channel. OLM's controllers do not build from the module proxy, so
// no InstallPlan runs here.
func TestOLMTakesTheBundleAndTheCatalog(t *testing.T) {
	needEnv(t, "KUBEBUILDER_ASSETS", "installs envtest's API server")
	b := buildImages(t)
	env := &envtest.Environment{CRDs: []*apiextensionsv1.CustomResourceDefinition{crds.ClusterServiceVersion(), crds.CatalogSource(),
		crds.OperatorGroup(), crds.Subscription(), crds.InstallPlan()}}
	cfg, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { _ = env.Stop() })
	scheme := runtime.NewScheme()
	require.NoError(t, clientgoscheme.AddToScheme(scheme))
	require.NoError(t, operatorsv1alpha1.AddToScheme(scheme))
	require.NoError(t, operatorsv1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	require.NoError(t, err)
	ctx := t.Context()

	for _, ns := range []string{"olm", "operators"} {
		require.NoError(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}))
	}
	bundle, err := manifests.GetBundleFromDir(filepath.Join(b.dir, "bundle"))
	require.NoError(t, err)
	csv := bundle.CSV.DeepCopy()
	csv.Namespace = "operators"
	require.NoError(t, c.Create(ctx, csv), "OLM's CRD takes the bundle's ClusterServiceVersion")

	objects, err := os.ReadFile(filepath.Join("..", "..", "examples", "olm", "subscription.yaml"))
	require.NoError(t, err)
	catalogImage := registry + "/llsd-catalog@" + b.catalogDigest // as a mirror names it
	docs := regexp.MustCompile(`ghcr\.io/llamastack/llsd-catalog:\S+`).ReplaceAllString(string(objects), catalogImage)
	created := 0
	for _, doc := range strings.Split(docs, "\n---\n") {
		var meta metav1.TypeMeta
		require.NoError(t, yaml.Unmarshal([]byte(doc), &meta))
		var obj client.Object
		switch meta.Kind {
		case "CatalogSource":
			obj = &operatorsv1alpha1.CatalogSource{}
		case "OperatorGroup":
			obj = &operatorsv1.OperatorGroup{}
		case "Subscription":
			obj = &operatorsv1alpha1.Subscription{}
		default:
			continue
		}
		require.NoError(t, yaml.UnmarshalStrict([]byte(doc), obj))
		require.NoError(t, c.Create(ctx, obj), "OLM's CRD takes the docs' %s", meta.Kind)
		created++
		switch o := obj.(type) {
		case *operatorsv1alpha1.CatalogSource:
			assert.Equal(t, catalogImage, o.Spec.Image)
			require.NotNil(t, o.Spec.GrpcPodConfig)
			require.NotNil(t, o.Spec.GrpcPodConfig.ExtractContent, "the catalog image holds no opm: OLM's serves it")
			assert.Equal(t, "/configs", o.Spec.GrpcPodConfig.ExtractContent.CatalogDir)
		case *operatorsv1alpha1.Subscription:
			assert.Equal(t, "llsd", o.Spec.Package, "the catalog's package")
			assert.Equal(t, "stable", o.Spec.Channel, "the catalog's channel")
		}
	}
	assert.Equal(t, 3, created, "examples/olm/subscription.yaml holds a CatalogSource, an OperatorGroup and a Subscription")
}
