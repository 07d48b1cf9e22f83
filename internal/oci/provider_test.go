// SPDX-License-Identifier: Apache-2.0

package oci_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/crane"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
	"github.com/llamastack/llsd/internal/testsupport/yamlbomb"
)

const providerSpec = `apiVersion: llamastack.io/v1alpha1
kind: ProviderPackage
metadata: {name: acme-provider, version: 1.0.0, vendor: acme}
spec:
  packageName: acme_provider
  providerType: remote::acme
  api: inference
  wheelPath: /lls-provider/packages/acme_provider-1.0.0-py3-none-any.whl
  dependencyWheels: [packages/acme_client-2.1-py3-none-any.whl]
`

func providerImage(t *testing.T, spec string) v1.Image {
	return registrytest.Image(t, nil, map[string]string{
		"lls-provider/lls-provider-spec.yaml":                         spec,
		"lls-provider/packages/acme_provider-1.0.0-py3-none-any.whl":  "wheel",
		"lls-provider/packages/acme_client-2.1-py3-none-any.whl":      "wheel",
		"usr/lib/python3.12/site-packages/something_else/__init__.py": "",
	})
}

// withTopLayer adds a layer on top of img.
func withTopLayer(t *testing.T, img v1.Image, files map[string][]byte) v1.Image {
	layer, err := crane.Layer(files)
	require.NoError(t, err)
	img, err = mutate.AppendLayers(img, layer)
	require.NoError(t, err)
	return img
}

// A provider image built to the contract describes itself: llsd reads the spec file from the
// top layer down, makes wheel paths absolute, and answers again from its cache by digest
// without a request; a render that reads no registry finds it by the tag read before.
func TestProviderPackageFromTheImage(t *testing.T) {
	reg := registrytest.New(t)
	pinned := reg.Push(t, "acme/provider:1.0", providerImage(t, providerSpec))
	tag := reg.Host + "/acme/provider:1.0"
	c := client(t)
	got, err := c.ProviderPackage(tag)
	require.NoError(t, err)
	assert.Equal(t, "acme_provider", got.PackageName)
	assert.Equal(t, "remote::acme", got.ProviderType)
	assert.Equal(t, "inference", got.API)
	assert.Equal(t, []string{"/lls-provider/packages/acme_client-2.1-py3-none-any.whl",
		"/lls-provider/packages/acme_provider-1.0.0-py3-none-any.whl"}, got.Wheels(), "dependencies first, relative paths under /lls-provider")
	assert.Contains(t, got.Source, oci.ProviderSpecPath+" of "+reg.Host+"/acme/provider@sha256:")

	reg.Reset()
	again, err := c.ProviderPackage(pinned)
	require.NoError(t, err)
	assert.Equal(t, got, again)
	assert.Zero(t, reg.Requests(""), "a digest read before costs no request")

	offline, err := oci.OfflineCache{Cache: c.Cache}.ProviderPackage(tag)
	require.NoError(t, err)
	assert.Equal(t, got, offline)
}

func TestProviderPackageErrors(t *testing.T) {
	reg := registrytest.New(t)
	for _, tc := range []struct {
		reason string
		image  func(t *testing.T) v1.Image
		kind   oci.Kind
		says   []string
	}{
		{reason: "an image without the file", image: func(t *testing.T) v1.Image { return registrytest.Image(t, nil, map[string]string{"opt/x": "y"}) },
			kind: oci.MissingProviderSpec, says: []string{"has no /lls-provider/lls-provider-spec.yaml", "set module and providerType"}},
		{reason: "a later layer deletes the file", image: func(t *testing.T) v1.Image {
			return withTopLayer(t, providerImage(t, providerSpec), map[string][]byte{"lls-provider/.wh.lls-provider-spec.yaml": nil})
		}, kind: oci.MissingProviderSpec, says: []string{"has no"}},
		{reason: "a later layer makes the directory opaque", image: func(t *testing.T) v1.Image {
			return withTopLayer(t, providerImage(t, providerSpec), map[string][]byte{"lls-provider/.wh..wh..opq": nil})
		}, kind: oci.MissingProviderSpec, says: []string{"has no"}},
		{reason: "every problem of the file at once", image: func(t *testing.T) v1.Image {
			return providerImage(t, `apiVersion: v1
kind: ProviderPackage
spec: {packageName: acme-provider, providerType: acme, wheelPath: /opt/x.tar.gz}
`)
		}, kind: oci.CorruptProviderSpec, says: []string{`apiVersion "v1"`, `spec.packageName "acme-provider"`, `spec.providerType "acme"`, "spec.api: missing", `wheel "/opt/x.tar.gz"`}},
		{reason: "an api that would write lines and terminal escapes into messages (F10)", image: func(t *testing.T) v1.Image {
			return providerImage(t, strings.Replace(providerSpec, "api: inference", `api: "inference\n\u001b[2Jwarning: all good"`, 1))
		}, kind: oci.CorruptProviderSpec, says: []string{`spec.api "inference\n\x1b[2Jwarning: all good": want the name of an API`}},
		{reason: "aliases that expand to a billion strings are refused, not expanded (round five: the alias bounds on every reader)",
			image: func(t *testing.T) v1.Image {
				return providerImage(t, strings.Replace(providerSpec, "metadata: {", "metadata: {"+yamlbomb.Laughs(9)+", ", 1))
			}, kind: oci.CorruptProviderSpec, says: []string{"excessive aliasing"}},
		{reason: "an unknown key", image: func(t *testing.T) v1.Image {
			return providerImage(t, providerSpec+"  wheels: []\n")
		}, kind: oci.CorruptProviderSpec, says: []string{`unknown field "wheels"`}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			ref := reg.Push(t, "acme/provider:1.0", tc.image(t))
			_, err := client(t).ProviderPackage(ref)
			var oerr *oci.Error
			require.True(t, errors.As(err, &oerr), "%v", err)
			assert.Equal(t, tc.kind, oerr.Kind)
			for _, s := range tc.says {
				assert.Contains(t, err.Error(), s)
			}
			assert.NotContains(t, err.Error(), "\x1b", "no terminal escape reaches a message")
			assert.Equal(t, 1, len(strings.Split(err.Error(), "\n")), "one line")
		})
	}
	_, err := oci.OfflineCache{Cache: &oci.Cache{Dir: t.TempDir()}}.ProviderPackage("registry.example.com/acme/provider:1.0")
	assert.ErrorContains(t, err, "render once with the render option registry.enabled (LLSD_REGISTRY_ENABLED=true)")
}
