// SPDX-License-Identifier: Apache-2.0

package oci_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
)

// forgedLayer is a gzip-compressed layer holding files, padded (in the gzip header's extra field)
// to size bytes: what a hostile registry serves in place of a real layer of that size, so that
// only the digest tells them apart.
func forgedLayer(t *testing.T, files map[string]string, size int64) []byte {
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for name, body := range files {
		require.NoError(t, tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}))
		_, err := tw.Write([]byte(body))
		require.NoError(t, err)
	}
	require.NoError(t, tw.Close())
	compress := func(extra []byte) []byte {
		var out bytes.Buffer
		zw := gzip.NewWriter(&out)
		zw.Extra = extra
		_, err := zw.Write(raw.Bytes())
		require.NoError(t, err)
		require.NoError(t, zw.Close())
		return out.Bytes()
	}
	plain := compress(nil)
	pad := size - int64(len(plain)) - 2 // an extra field of n bytes adds n+2 (its length)
	require.Positive(t, pad, "the forgery fits in the real layer's size")
	forged := compress(make([]byte, pad))
	require.Len(t, forged, int(size))
	return forged
}

// incompressible is n bytes of hex that gzip cannot shrink much, to give a layer its size.
func incompressible(n int) string {
	var b strings.Builder
	sum := sha256.Sum256([]byte("seed"))
	for b.Len() < n {
		b.WriteString(hex.EncodeToString(sum[:]))
		sum = sha256.Sum256(sum[:])
	}
	return b.String()[:n]
}

// tamper makes reg serve a forgery of img's top layer, of the same size.
func tamper(t *testing.T, reg *registrytest.Registry, img v1.Image, files map[string]string) {
	layers, err := img.Layers()
	require.NoError(t, err)
	top := layers[len(layers)-1]
	d, err := top.Digest()
	require.NoError(t, err)
	size, err := top.Size()
	require.NoError(t, err)
	reg.Tamper(d.String(), forgedLayer(t, files, size))
}

// F1: a registry that serves the real manifest and forged layer bytes plants nothing. The
// provider spec and a base config read from a layer are used only after the layer's bytes
// match its digest; a forged layer is an error, nothing is cached, and a later read (by tag
// or by digest, online or offline) never returns what the forgery said.
func TestForgedLayersAreNeverTrusted(t *testing.T) {
	const evilSpec = `apiVersion: llamastack.io/v1alpha1
kind: ProviderPackage
metadata: {name: acme-provider}
spec: {packageName: evil, providerType: remote::evil, api: inference, wheelPath: packages/evil-1.0-py3-none-any.whl}
`
	t.Run("provider spec", func(t *testing.T) {
		reg := registrytest.New(t)
		img := providerImage(t, providerSpec)
		pinned := reg.Push(t, "acme/provider:1.0", img)
		tamper(t, reg, img, map[string]string{"lls-provider/lls-provider-spec.yaml": evilSpec})
		c := client(t)
		_, err := c.ProviderPackage(pinned)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "does not match its digest")
		assert.NotContains(t, err.Error(), "remote::evil")
		_, err = oci.OfflineCache{Cache: c.Cache}.ProviderPackage(pinned)
		var oerr *oci.Error
		require.True(t, errors.As(err, &oerr))
		assert.Equal(t, oci.ProviderSpecNotCached, oerr.Kind, "nothing read from the forged layer was cached")

		honest := registrytest.New(t)
		ref := honest.Push(t, "acme/provider:1.0", img)
		got, err := (&oci.Client{Cache: c.Cache}).ProviderPackage(ref)
		require.NoError(t, err)
		assert.Equal(t, "remote::acme", got.ProviderType)
	})
	t.Run("base config in a layer", func(t *testing.T) {
		reg := registrytest.New(t)
		img := withLayerLabel(t, registrytest.Image(t, map[string]string{oci.LabelPath: "/app/config.yaml", oci.LabelVersion: "0.7.1"},
			map[string]string{"app/config.yaml": baseConfig, "app/notes.txt": incompressible(2048)}))
		ref := reg.Push(t, "custom/distro:1", img)
		tamper(t, reg, img, map[string]string{"app/config.yaml": "providers: {inference: [{provider_id: evil, provider_type: remote::openai, " +
			"config: {base_url: https://attacker.example/v1}}]}\n"})
		c := client(t)
		_, err := c.BaseConfig(ref)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "does not match its digest")
		honest := registrytest.New(t)
		got, err := (&oci.Client{Cache: c.Cache}).BaseConfig(honest.Push(t, "custom/distro:1", img))
		require.NoError(t, err)
		assert.Equal(t, baseConfig, string(got.Config), "the forgery left nothing in the cache")
	})
}

// tarEntry is one entry of a hand-written layer.
type tarEntry struct {
	name     string
	typeflag byte
	body     string
	link     string
}

// layerOf writes entries as a layer, in order (duplicates, links and whiteouts included).
func layerOf(t *testing.T, entries ...tarEntry) v1.Layer {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Typeflag: e.typeflag, Mode: 0o644, Size: int64(len(e.body)), Linkname: e.link}
		if e.typeflag != tar.TypeReg {
			h.Size = 0
		}
		if e.typeflag == tar.TypeDir {
			h.Mode = 0o755
		}
		require.NoError(t, tw.WriteHeader(h))
		if e.typeflag == tar.TypeReg {
			_, err := tw.Write([]byte(e.body))
			require.NoError(t, err)
		}
	}
	require.NoError(t, tw.Close())
	data := buf.Bytes()
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil })
	require.NoError(t, err)
	return layer
}

// F14: the provider spec is read as the runtime would see the image: the last entry of a path
// wins, a whiteout or a non-directory above the file hides it, and a link or a directory at its
// path is refused instead of being read as something it is not.
func TestTheLayerStackReadsAsTheRuntimeSeesIt(t *testing.T) {
	const spec = "lls-provider/lls-provider-spec.yaml"
	other := `apiVersion: llamastack.io/v1alpha1
kind: ProviderPackage
spec: {packageName: other, providerType: remote::other, api: inference, wheelPath: packages/other-1.0-py3-none-any.whl}
`
	reg := registrytest.New(t)
	for _, tc := range []struct {
		reason string
		top    v1.Layer
		// want is the provider type read; missing means the image has no spec; says is an error.
		want    string
		missing bool
		says    string
	}{
		{reason: "two entries of the path in one layer: the last wins",
			top:  layerOf(t, tarEntry{name: spec, typeflag: tar.TypeReg, body: providerSpec}, tarEntry{name: spec, typeflag: tar.TypeReg, body: other}),
			want: "remote::other"},
		{reason: "a whiteout of the directory above the file", top: layerOf(t, tarEntry{name: ".wh.lls-provider", typeflag: tar.TypeReg}), missing: true},
		{reason: "an opaque root", top: layerOf(t, tarEntry{name: ".wh..wh..opq", typeflag: tar.TypeReg}), missing: true},
		{reason: "a file where the directory above was", top: layerOf(t, tarEntry{name: "lls-provider", typeflag: tar.TypeReg, body: "x"}), missing: true},
		{reason: "the path as a symbolic link", top: layerOf(t, tarEntry{name: "lls-provider/", typeflag: tar.TypeDir},
			tarEntry{name: spec, typeflag: tar.TypeSymlink, link: "/etc/passwd"}), says: "is a symbolic link in the image, not a regular file"},
		{reason: "the path as a hard link", top: layerOf(t, tarEntry{name: "etc/x", typeflag: tar.TypeReg, body: other},
			tarEntry{name: spec, typeflag: tar.TypeLink, link: "etc/x"}), says: "is a hard link"},
		{reason: "the path as a directory", top: layerOf(t, tarEntry{name: spec + "/", typeflag: tar.TypeDir}), says: "is a directory"},
		{reason: "a whiteout and the file in the same layer: the layer's own file stays",
			top:  layerOf(t, tarEntry{name: "lls-provider/.wh..wh..opq", typeflag: tar.TypeReg}, tarEntry{name: spec, typeflag: tar.TypeReg, body: other}),
			want: "remote::other"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			img, err := mutate.AppendLayers(providerImage(t, providerSpec), tc.top)
			require.NoError(t, err)
			got, err := client(t).ProviderPackage(reg.Push(t, "acme/stack:1", img))
			switch {
			case tc.says != "":
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.says)
			case tc.missing:
				var oerr *oci.Error
				require.True(t, errors.As(err, &oerr), "%v", err)
				assert.Equal(t, oci.MissingProviderSpec, oerr.Kind)
			default:
				require.NoError(t, err)
				assert.Equal(t, tc.want, got.ProviderType)
			}
		})
	}
}

// F6: the offline index of tags names each reference by itself: references that only differ in
// their separators (team/a:b and team/a-b, once both written team_a-b) no longer share an entry.
func TestOfflineTagIndexKeepsReferencesApart(t *testing.T) {
	reg := registrytest.New(t)
	cache := &oci.Cache{Dir: t.TempDir()}
	c := &oci.Client{Cache: cache}
	reg.Push(t, "team/a:b", providerImage(t, providerSpec))
	reg.Push(t, "team/a-b:latest", withTopLayer(t, providerImage(t, providerSpec), map[string][]byte{
		"lls-provider/lls-provider-spec.yaml": []byte(`apiVersion: llamastack.io/v1alpha1
kind: ProviderPackage
` +
			"spec: {packageName: b, providerType: remote::b, api: inference, wheelPath: packages/b-1-py3-none-any.whl}\n")}))
	want := map[string]string{reg.Host + "/team/a:b": "remote::acme", reg.Host + "/team/a-b": "remote::b"}
	for tag := range want {
		_, err := c.ProviderPackage(tag)
		require.NoError(t, err)
	}
	for tag, providerType := range want {
		got, err := oci.OfflineCache{Cache: cache}.ProviderPackage(tag)
		require.NoError(t, err)
		assert.Equal(t, providerType, got.ProviderType, tag)
	}
}
