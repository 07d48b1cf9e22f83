// SPDX-License-Identifier: Apache-2.0

package oci_test

import (
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
)

const baseConfig = `version: 2
distro_name: custom
apis: [inference]
`

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

// withLayerLabel points io.llamastack.config.layer at the image's last layer.
func withLayerLabel(t *testing.T, img v1.Image) v1.Image {
	layers, err := img.Layers()
	require.NoError(t, err)
	digest, err := layers[len(layers)-1].Digest()
	require.NoError(t, err)
	cfg, err := img.ConfigFile()
	require.NoError(t, err)
	labels := cfg.Config.Labels
	labels[oci.LabelLayer] = digest.String()
	img, err = mutate.Config(img, v1.Config{Labels: labels})
	require.NoError(t, err)
	return img
}

func client(t *testing.T) *oci.Client {
	return &oci.Client{Cache: &oci.Cache{Dir: t.TempDir()}}
}

func TestBaseConfigFromLabels(t *testing.T) {
	reg := registrytest.New(t)
	big := baseConfig + "# " + strings.Repeat("x", oci.MaxInline) + "\n"
	for _, tc := range []struct {
		reason  string
		labels  map[string]string
		files   map[string]string
		want    string
		version string
		label   string
	}{
		{
			reason: "a small config is inline, base64",
			labels: map[string]string{oci.LabelBase64: b64(baseConfig), oci.LabelVersion: "0.7.1"},
			want:   baseConfig, version: "0.7.1", label: oci.LabelBase64,
		},
		{
			reason: "a large config is read from the labelled layer and path",
			labels: map[string]string{oci.LabelPath: "/app/config.yaml", oci.LabelVersion: "0.6.0"},
			files:  map[string]string{"app/config.yaml": big, "app/other.yaml": "x: 1\n"},
			want:   big, version: "0.6.0", label: oci.LabelLayer,
		},
		{
			reason: "base64 wins over layer and path",
			labels: map[string]string{oci.LabelBase64: b64(baseConfig), oci.LabelPath: "/app/config.yaml"},
			files:  map[string]string{"app/config.yaml": big},
			want:   baseConfig, label: oci.LabelBase64,
		},
		{
			reason: "llama-stack 0.8+ images name their default config among com.ogx.config.* labels",
			labels: map[string]string{"com.ogx.distribution.default-config": "config.yaml", "com.ogx.config.config.yaml": b64(baseConfig),
				"com.ogx.config.run-with-safety.yaml": b64("other: 1\n"), "com.ogx.distribution.version": "0.8.0"},
			want: baseConfig, version: "0.8.0", label: "com.ogx.config.config.yaml",
		},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			img := registrytest.Image(t, tc.labels, tc.files)
			if tc.files != nil && tc.labels[oci.LabelBase64] == "" {
				img = withLayerLabel(t, img)
			}
			ref := reg.Push(t, "custom/distro:1", img)
			got, err := client(t).BaseConfig(ref)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got.Config))
			assert.Equal(t, tc.version, got.Version)
			assert.Contains(t, got.Source, "label "+tc.label+" of "+reg.Host+"/custom/distro@sha256:")
		})
	}
}

// A layer-referenced config costs the config blob and that one layer, not the others.
func TestLayerLabelFetchesOnlyThatLayer(t *testing.T) {
	reg := registrytest.New(t)
	img := withLayerLabel(t, registrytest.Image(t, map[string]string{oci.LabelPath: "app/config.yaml"},
		map[string]string{"app/config.yaml": baseConfig}))
	ref := reg.Push(t, "custom/distro:1", img)
	_, err := client(t).BaseConfig(ref)
	require.NoError(t, err)
	assert.Equal(t, 2, reg.Requests("blobs"), "the image config and the labelled layer")
}

// A multi-platform index resolves to the linux/amd64 image's labels unless told otherwise.
func TestIndexPicksThePlatform(t *testing.T) {
	reg := registrytest.New(t)
	amd := registrytest.Image(t, map[string]string{oci.LabelBase64: b64(baseConfig)}, nil)
	arm := registrytest.Image(t, map[string]string{oci.LabelBase64: b64("distro_name: arm\n")}, nil)
	ref := reg.PushIndex(t, "custom/distro:1", registrytest.Index(t, map[string]v1.Image{"linux/arm64": arm, "linux/amd64": amd}))
	got, err := client(t).BaseConfig(ref)
	require.NoError(t, err)
	assert.Equal(t, baseConfig, string(got.Config))
	tag, _, _ := strings.Cut(ref, "@")
	c := client(t)
	c.Platform = &v1.Platform{OS: "linux", Architecture: "arm64"}
	got, err = c.BaseConfig(tag)
	require.NoError(t, err)
	assert.Equal(t, "distro_name: arm\n", string(got.Config))
}

// The cache answers for a digest: a pinned image renders the second time without any
// request, a tag with one manifest request; a moved tag is read again.
func TestCacheByDigest(t *testing.T) {
	reg := registrytest.New(t)
	ref := reg.Push(t, "custom/distro:1", registrytest.Image(t, map[string]string{oci.LabelBase64: b64(baseConfig)}, nil))
	tag, _, _ := strings.Cut(ref, "@")
	c := client(t)

	_, err := c.BaseConfig(ref)
	require.NoError(t, err)
	reg.Reset()
	got, err := c.BaseConfig(ref)
	require.NoError(t, err)
	assert.Equal(t, baseConfig, string(got.Config))
	assert.Zero(t, reg.Requests(""), "a digest read before costs nothing")

	_, err = c.BaseConfig(tag)
	require.NoError(t, err)
	assert.Equal(t, 1, reg.Requests("manifests"), "a tag costs one manifest request")
	assert.Zero(t, reg.Requests("blobs"))

	reg.Push(t, "custom/distro:1", registrytest.Image(t, map[string]string{oci.LabelBase64: b64("distro_name: moved\n")}, nil))
	got, err = c.BaseConfig(tag)
	require.NoError(t, err)
	assert.Equal(t, "distro_name: moved\n", string(got.Config), "the tag now names another digest")
}

// Renders running at once share the cache directory.
func TestConcurrentRendersShareTheCache(t *testing.T) {
	reg := registrytest.New(t)
	ref := reg.Push(t, "custom/distro:1", registrytest.Image(t, map[string]string{oci.LabelBase64: b64(baseConfig)}, nil))
	cache := &oci.Cache{Dir: t.TempDir()}
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, err := (&oci.Client{Cache: cache}).BaseConfig(ref)
			if err == nil && string(got.Config) != baseConfig {
				err = errors.New("wrong config: " + string(got.Config))
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	reg.Reset()
	_, err := (&oci.Client{Cache: cache}).BaseConfig(ref)
	require.NoError(t, err)
	assert.Zero(t, reg.Requests(""))
}

func TestErrors(t *testing.T) {
	reg := registrytest.New(t)
	plain := reg.Push(t, "plain/image:1", registrytest.Image(t, map[string]string{"maintainer": "me"}, nil))
	for _, tc := range []struct {
		reason string
		image  func(t *testing.T) string
		kind   oci.Kind
		want   string
	}{
		{
			reason: "an image without labels gets the message that says how to add them",
			image:  func(*testing.T) string { return plain },
			kind:   oci.MissingLabels,
			want:   "Distribution image " + plain + " missing config labels. Add labels using `llsd label-image " + plain,
		},
		{
			reason: "a base64 label that is not base64",
			image: func(t *testing.T) string {
				return reg.Push(t, "bad/b64:1", registrytest.Image(t, map[string]string{oci.LabelBase64: "not base64!"}, nil))
			},
			kind: oci.CorruptLabel, want: "label io.llamastack.config.base64: not base64",
		},
		{
			reason: "a layer label naming a layer the image does not have",
			image: func(t *testing.T) string {
				return reg.Push(t, "bad/layer:1", registrytest.Image(t, map[string]string{oci.LabelLayer: "sha256:" + strings.Repeat("0", 64),
					oci.LabelPath: "/app/config.yaml"}, nil))
			},
			kind: oci.CorruptLabel, want: "label io.llamastack.config.layer",
		},
		{
			reason: "a path the labelled layer does not hold",
			image: func(t *testing.T) string {
				img := withLayerLabel(t, registrytest.Image(t, map[string]string{oci.LabelPath: "/app/missing.yaml"},
					map[string]string{"app/config.yaml": baseConfig}))
				return reg.Push(t, "bad/path:1", img)
			},
			kind: oci.CorruptLabel, want: "has no file /app/missing.yaml",
		},
		{
			reason: "a layer label without its path",
			image: func(t *testing.T) string {
				return reg.Push(t, "bad/nopath:1", registrytest.Image(t, map[string]string{oci.LabelLayer: "sha256:" + strings.Repeat("0", 64)}, nil))
			},
			kind: oci.CorruptLabel, want: "io.llamastack.config.layer and io.llamastack.config.path must be set together",
		},
		{
			reason: "an image that is not there",
			image:  func(*testing.T) string { return reg.Host + "/nothing/here:1" },
			kind:   oci.NotFound, want: "is not in its registry",
		},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			image := tc.image(t)
			_, err := client(t).BaseConfig(image)
			var oerr *oci.Error
			require.ErrorAs(t, err, &oerr)
			assert.Equal(t, tc.kind, oerr.Kind, err.Error())
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// Missing labels are remembered for the digest like a config is.
func TestMissingLabelsAreCached(t *testing.T) {
	reg := registrytest.New(t)
	ref := reg.Push(t, "plain/image:1", registrytest.Image(t, nil, nil))
	c := client(t)
	_, err := c.BaseConfig(ref)
	require.Error(t, err)
	reg.Reset()
	_, err = c.BaseConfig(ref)
	var oerr *oci.Error
	require.ErrorAs(t, err, &oerr)
	assert.Equal(t, oci.MissingLabels, oerr.Kind)
	assert.Zero(t, reg.Requests(""))
}

func TestAuth(t *testing.T) {
	reg := registrytest.New(t)
	reg.RequireAuth("robot", "s3cret-token")
	ref := reg.Push(t, "private/distro:1", registrytest.Image(t, map[string]string{oci.LabelBase64: b64(baseConfig)}, nil))

	_, err := (&oci.Client{Keychain: registrytest.Keychain{User: "robot", Password: "wrong"}}).BaseConfig(ref)
	var oerr *oci.Error
	require.ErrorAs(t, err, &oerr)
	assert.Equal(t, oci.Unauthorized, oerr.Kind)
	assert.Contains(t, err.Error(), "the registry refused access to "+ref)
	assert.Contains(t, err.Error(), "docker")
	assert.NotContains(t, err.Error(), "wrong", "credentials never appear in messages")

	got, err := (&oci.Client{Keychain: registrytest.Keychain{User: "robot", Password: "s3cret-token"}}).BaseConfig(ref)
	require.NoError(t, err)
	assert.Equal(t, baseConfig, string(got.Config))

	// By default the credentials are docker's: $DOCKER_CONFIG/config.json, as `docker login` writes it.
	dockerConfig := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dockerConfig, "config.json"), []byte(`{"auths": {"`+reg.Host+`": {"auth": "`+
		b64("robot:s3cret-token")+`"}}}`), 0o600))
	t.Setenv("DOCKER_CONFIG", dockerConfig)
	got, err = client(t).BaseConfig(ref)
	require.NoError(t, err)
	assert.Equal(t, baseConfig, string(got.Config))
}

func TestRegistryDown(t *testing.T) {
	reg := registrytest.New(t)
	ref := reg.Push(t, "custom/distro:1", registrytest.Image(t, map[string]string{oci.LabelBase64: b64(baseConfig)}, nil))
	reg.Close()
	_, err := client(t).BaseConfig(ref)
	var oerr *oci.Error
	require.ErrorAs(t, err, &oerr)
	assert.Equal(t, oci.Unreachable, oerr.Kind)
	assert.Contains(t, err.Error(), "cannot reach the registry of "+ref)
	assert.Contains(t, err.Error(), "spec.registry.insecureHosts")
}

// A plain-HTTP registry on a routable address works only when listed as insecure.
func TestInsecureHosts(t *testing.T) {
	reg := registrytest.NewNonLoopback(t)
	ref := reg.Push(t, "custom/distro:1", registrytest.Image(t, map[string]string{oci.LabelBase64: b64(baseConfig)}, nil))
	_, err := client(t).BaseConfig(ref)
	var oerr *oci.Error
	require.ErrorAs(t, err, &oerr)
	assert.Equal(t, oci.Unreachable, oerr.Kind, err.Error())

	c := client(t)
	c.InsecureHosts = []string{reg.Host}
	got, err := c.BaseConfig(ref)
	require.NoError(t, err)
	assert.Equal(t, baseConfig, string(got.Config))

	// What a tag names over plain HTTP is anyone's on the way: the offline index, which other
	// renders sharing the cache trust, does not keep it. What a digest names is checked, so stays.
	reg.Push(t, "custom/provider:1", providerImage(t, providerSpec))
	tag := reg.Host + "/custom/provider:1"
	p, err := c.ProviderPackage(tag)
	require.NoError(t, err)
	_, err = oci.OfflineCache{Cache: c.Cache}.ProviderPackage(tag)
	assert.ErrorContains(t, err, "render once with the render option registry.enabled", "no tag resolved over plain HTTP is remembered")
	pinned := strings.SplitN(p.Source, " of ", 2)[1]
	_, err = oci.OfflineCache{Cache: c.Cache}.ProviderPackage(pinned)
	assert.NoError(t, err, "the digest's content was checked")
}

// What a registry answers is told by its status, never quoted: a render pointed at a host
// inside the cluster must not carry that host's pages into its messages (round four's F10).
func TestRegistryAnswersAreNotQuoted(t *testing.T) {
	const sentinel = "INTERNAL-PAGE-S3NT1NEL"
	for _, status := range []int{http.StatusInternalServerError, http.StatusUnauthorized, http.StatusNotFound, http.StatusTeapot} {
		server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprintf(w, `{"errors": [{"code": "UNKNOWN", "message": "%s", "detail": "%s"}]}`, sentinel, sentinel)
		}))
		image := strings.TrimPrefix(server.URL, "http://") + "/team/distro:1"
		_, err := client(t).BaseConfig(image)
		server.Close()
		require.Error(t, err)
		assert.NotContains(t, err.Error(), sentinel, "status %d", status)
		assert.Contains(t, err.Error(), fmt.Sprintf("the registry answered %d %s", status, http.StatusText(status)))
	}
}
