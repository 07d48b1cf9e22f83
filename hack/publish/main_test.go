// SPDX-License-Identifier: Apache-2.0

package main

import (
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/release"
)

const named = "registry.example.com/platform"

// fakeDist writes a release's layout as make release-snapshot does, with random content: three
// images and two OLM images (indexes) tagged v1.2.3, v1.2 and v1 with an offline signature beside
// each, and the chart's artifact (an image) tagged 1.2.3.
func fakeDist(t *testing.T) string {
	dist := t.TempDir()
	var images, olm []string
	add := func(dir string, tags []string, into *[]string, nameOf string) {
		index, err := random.Index(64, 1, 2)
		require.NoError(t, err)
		path, err := layout.Write(filepath.Join(dist, dir), empty.Index)
		require.NoError(t, err)
		for _, tag := range tags {
			require.NoError(t, path.AppendIndex(index, layout.WithAnnotations(map[string]string{release.RefNameAnnotation: tag})))
		}
		digest, err := index.Digest()
		require.NoError(t, err)
		sig, err := random.Image(16, 1)
		require.NoError(t, err)
		offline := release.Image{Digest: digest.String()}
		require.NoError(t, path.AppendImage(sig, layout.WithAnnotations(map[string]string{release.RefNameAnnotation: offline.SignatureTag()})))
		*into = append(*into, nameOf+" "+digest.String())
	}
	for _, image := range []string{"llsd", "llsd-controller", "llsd-argocd-cmp"} {
		add(filepath.Join("images", image), []string{"v1.2.3", "v1.2", "v1"}, &images, image)
	}
	add(filepath.Join("olm", "bundle"), []string{"v1.2.3", "v1.2", "v1"}, &olm, release.BundleImage)
	add(filepath.Join("olm", "catalog"), []string{"v1.2.3", "v1.2", "v1"}, &olm, release.CatalogImage)
	write(t, dist, "images.txt", strings.Join(images, "\n")+"\n")
	write(t, dist, "olm/images.txt", strings.Join(olm, "\n")+"\n")
	controller := strings.TrimPrefix(images[1], "llsd-controller ")
	write(t, dist, "install.yaml", "spec:\n  containers:\n    - name: controller\n      image: "+named+"/llsd-controller@"+controller+"\n")
	write(t, dist, "charts/llsd-controller-1.2.3.tgz", "a chart")
	chart, err := random.Image(32, 1)
	require.NoError(t, err)
	path, err := layout.Write(filepath.Join(dist, "charts", "oci", "llsd-controller"), empty.Index)
	require.NoError(t, err)
	require.NoError(t, path.AppendImage(chart, layout.WithAnnotations(map[string]string{release.RefNameAnnotation: "1.2.3"})))
	return dist
}

func write(t *testing.T, dist, file, content string) {
	require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dist, file)), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dist, file), []byte(content), 0o644))
}

// A release goes to its registry by the digests it was checked and signed with, under each of
// its tags, with every blob; the offline key's signatures stay behind.
func TestPublishKeepsTheDigests(t *testing.T) {
	dist := fakeDist(t)
	artifacts, err := release.Artifacts(dist)
	require.NoError(t, err)
	require.Len(t, artifacts, 6, "three images, the chart and two OLM images")
	server := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	t.Cleanup(server.Close)
	host := strings.TrimPrefix(server.URL, "http://") + "/platform"

	published, err := Publish(dist, artifacts, host)
	require.NoError(t, err)
	require.NoError(t, Verify(dist, artifacts, host))
	for i, a := range artifacts {
		assert.Equal(t, host+"/"+a.Name+"@"+a.Digest, published[i])
		sig, err := name.NewTag(host+"/"+a.Name+":"+a.SignatureTag(), name.Insecure)
		require.NoError(t, err)
		_, err = remote.Head(sig)
		assert.Error(t, err, "%s: the throwaway key's signature is not published", a.Name)
	}
	moving, err := name.NewTag(host+"/llsd:v1", name.Insecure)
	require.NoError(t, err)
	got, err := remote.Head(moving)
	require.NoError(t, err)
	assert.Equal(t, artifacts[0].Digest, got.Digest.String(), "v1 moves to the release")
}

// Nothing is pushed to a registry the release does not name (its install.yaml and chart would
// pull from elsewhere), and a layout whose tag is not the release's digest is refused.
func TestPublishRefuses(t *testing.T) {
	dist := fakeDist(t)
	assert.ErrorContains(t, run(dist, []string{"ghcr.io/someone"}), "names its images in "+named+", not ghcr.io/someone: build the release with RELEASE_REGISTRY=ghcr.io/someone")

	path, err := layout.FromPath(filepath.Join(dist, "images", "llsd"))
	require.NoError(t, err)
	other, err := random.Index(64, 1, 1)
	require.NoError(t, err)
	require.NoError(t, path.AppendIndex(other, layout.WithAnnotations(map[string]string{release.RefNameAnnotation: "v1"})))
	artifacts, err := release.Artifacts(dist)
	require.NoError(t, err)
	_, err = Publish(dist, artifacts, "127.0.0.1:1/x")
	assert.ErrorContains(t, err, "tag v1 is sha256:")
}

// A registry that lost a blob fails the check of what was pushed.
func TestVerifyPullsEveryBlob(t *testing.T) {
	dist := fakeDist(t)
	artifacts, err := release.Artifacts(dist)
	require.NoError(t, err)
	blobs := registry.NewInMemoryBlobHandler()
	server := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0)), registry.WithBlobHandler(blobs)))
	t.Cleanup(server.Close)
	host := strings.TrimPrefix(server.URL, "http://") + "/platform"
	_, err = Publish(dist, artifacts, host)
	require.NoError(t, err)

	img, err := layoutImage(dist, artifacts[3]) // the chart's artifact
	require.NoError(t, err)
	layers, err := img.Layers()
	require.NoError(t, err)
	digest, err := layers[0].Digest()
	require.NoError(t, err)
	require.NoError(t, blobs.(registry.BlobDeleteHandler).Delete(t.Context(), "platform/"+release.ChartRepository, digest))
	assert.Error(t, Verify(dist, artifacts, host))
}

func layoutImage(dist string, a release.Image) (v1.Image, error) {
	path, err := layout.FromPath(filepath.Join(dist, a.Layout))
	if err != nil {
		return nil, err
	}
	hash, err := v1.NewHash(a.Digest)
	if err != nil {
		return nil, err
	}
	return path.Image(hash)
}
