// SPDX-License-Identifier: Apache-2.0

package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	helmregistry "helm.sh/helm/v4/pkg/registry"
)

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// packed packages the repository's chart for release v1.2.3 into a new directory.
func packed(t *testing.T) string {
	out := t.TempDir()
	images := filepath.Join(out, "images.txt")
	require.NoError(t, os.WriteFile(images, []byte("llsd-controller "+digest+"\n"), 0o600))
	require.NoError(t, pack(filepath.Join("..", "..", "..", "charts", "llsd-controller"), images, "registry.example.com/platform", "v1.2.3", out))
	return out
}

// artifact is the one manifest of the chart's OCI layout in out, and its tag.
func artifact(t *testing.T, out string) (v1.Descriptor, layout.Path) {
	path, err := layout.FromPath(filepath.Join(out, "oci", "llsd-controller"))
	require.NoError(t, err)
	index, err := path.ImageIndex()
	require.NoError(t, err)
	manifest, err := index.IndexManifest()
	require.NoError(t, err)
	require.Len(t, manifest.Manifests, 1)
	return manifest.Manifests[0], path
}

// The release's chart is also the OCI artifact helm push makes of it: copied to a registry,
// Helm's client pulls the chart archive byte for byte; and two builds of one commit give one
// digest, which can be signed before anything is published.
func TestOCIArtifact(t *testing.T) {
	t.Setenv("LLSD_COMMIT_DATE", "2026-11-28T12:00:00Z")
	out := packed(t)
	desc, path := artifact(t, out)
	assert.Equal(t, "1.2.3", desc.Annotations["org.opencontainers.image.ref.name"], "tagged with the chart's version")
	again, _ := artifact(t, packed(t))
	assert.Equal(t, desc.Digest, again.Digest, "the same commit, the same digest")
	archive, err := os.ReadFile(filepath.Join(out, "llsd-controller-1.2.3.tgz"))
	require.NoError(t, err)
	zipped, err := gzip.NewReader(bytes.NewReader(archive))
	require.NoError(t, err)
	files := tar.NewReader(zipped)
	for header, err := files.Next(); !errors.Is(err, io.EOF); header, err = files.Next() {
		require.NoError(t, err)
		assert.Equal(t, "2026-11-28T12:00:00Z", header.ModTime.UTC().Format(time.RFC3339), "%s has the commit's time, not the build's", header.Name)
	}

	server := httptest.NewServer(registry.New())
	t.Cleanup(server.Close)
	ref := strings.TrimPrefix(server.URL, "http://") + "/platform/charts/llsd-controller:1.2.3"
	img, err := path.Image(desc.Digest)
	require.NoError(t, err)
	target, err := name.ParseReference(ref, name.Insecure)
	require.NoError(t, err)
	require.NoError(t, remote.Write(target, img), "a registry takes the layout's artifact as it is")

	client, err := helmregistry.NewClient(helmregistry.ClientOptPlainHTTP())
	require.NoError(t, err)
	pulled, err := client.Pull(ref)
	require.NoError(t, err)
	assert.Equal(t, archive, pulled.Chart.Data, "helm pull gives the release's archive")
	assert.Equal(t, "v1.2.3", pulled.Chart.Meta.AppVersion)
	assert.Equal(t, desc.Digest.String(), pulled.Manifest.Digest)
}
