// SPDX-License-Identifier: Apache-2.0

package oci_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
)

const sitePackages = "usr/local/lib/python3.12/site-packages/"

// distroImage is an image laid out like llama-stack's: DISTRO_NAME in the env, the package
// with its distributions and its dist-info in site-packages.
func distroImage(t *testing.T, env []string, files map[string]string) v1.Image {
	all := map[string]string{}
	for k, v := range files {
		all[k] = v
	}
	if !slices.ContainsFunc(slices.Collect(maps.Keys(files)), func(f string) bool { return strings.Contains(f, ".dist-info/") }) {
		all[sitePackages+"llama_stack-0.7.1.dist-info/METADATA"] = `Name: llama_stack
Version: 0.7.1
`
	}
	return registrytest.ImageWithConfig(t, v1.Config{Env: env, Labels: map[string]string{"maintainer": "acme"}}, all)
}

func labels(t *testing.T, ref string) map[string]string {
	r, err := name.ParseReference(ref)
	require.NoError(t, err)
	img, err := remote.Image(r)
	require.NoError(t, err)
	cfg, err := img.ConfigFile()
	require.NoError(t, err)
	return cfg.Config.Labels
}

func layerDigests(t *testing.T, ref string) []string {
	r, err := name.ParseReference(ref)
	require.NoError(t, err)
	img, err := remote.Image(r)
	require.NoError(t, err)
	layers, err := img.Layers()
	require.NoError(t, err)
	var out []string
	for _, l := range layers {
		d, err := l.Digest()
		require.NoError(t, err)
		out = append(out, d.String())
	}
	return out
}

func TestLabelImage(t *testing.T) {
	reg := registrytest.New(t)
	big := baseConfig + "# " + strings.Repeat("x", oci.MaxInline) + "\n"
	for _, tc := range []struct {
		reason  string
		env     []string
		files   map[string]string
		opts    oci.LabelOptions
		want    string
		path    string
		inline  bool
		version string
	}{
		{
			reason: "the DISTRO_NAME distribution's config from the llama_stack package, inline",
			env:    []string{"DISTRO_NAME=acme"},
			files:  map[string]string{sitePackages + "llama_stack/distributions/acme/config.yaml": baseConfig},
			want:   baseConfig, path: "/" + sitePackages + "llama_stack/distributions/acme/config.yaml", inline: true, version: "0.7.1",
		},
		{
			reason: "OGX (0.8): the config and the version from the ogx package",
			env:    []string{"DISTRO_NAME=acme"},
			files: map[string]string{sitePackages + "ogx/distributions/acme/config.yaml": baseConfig,
				sitePackages + "ogx-0.8.0.dist-info/METADATA": `Name: ogx
Version: 0.8.0
`},
			want: baseConfig, path: "/" + sitePackages + "ogx/distributions/acme/config.yaml", inline: true, version: "0.8.0",
		},
		{
			reason: "a config over 50 KB is referenced by layer and path",
			env:    []string{"RUN_CONFIG_PATH=/app/config.yaml"},
			files:  map[string]string{"app/config.yaml": big},
			want:   big, path: "/app/config.yaml", version: "0.7.1",
		},
		{
			reason: "--path and --server-version win",
			env:    []string{"RUN_CONFIG_PATH=/app/config.yaml"},
			files:  map[string]string{"app/config.yaml": "other: 1\n", "etc/llama/custom.yaml": baseConfig},
			opts:   oci.LabelOptions{Path: "/etc/llama/custom.yaml", ServerVersion: "0.6.0"},
			want:   baseConfig, path: "/etc/llama/custom.yaml", inline: true, version: "0.6.0",
		},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			src := reg.Push(t, "acme/distro:build", distroImage(t, tc.env, tc.files))
			dst := reg.Host + "/acme/distro:0.7.1"
			pushed, got, err := (&oci.Client{}).Label(src, dst, tc.opts)
			require.NoError(t, err)
			require.Len(t, got, 1)
			assert.Equal(t, tc.path, got[0].Path)
			assert.Equal(t, tc.version, got[0].Version)
			assert.Equal(t, tc.inline, got[0].Layer == "")

			l := labels(t, pushed)
			assert.Equal(t, "acme", l["maintainer"], "other labels are kept")
			assert.Equal(t, tc.inline, l[oci.LabelBase64] != "")
			assert.Equal(t, layerDigests(t, src), layerDigests(t, pushed), "layers untouched")

			read, err := client(t).BaseConfig(dst)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(read.Config))
			assert.Equal(t, tc.version, read.Version)
		})
	}
}

// Relabelling replaces llsd's labels: a config that shrank under 50 KB loses the layer label.
func TestRelabelReplaces(t *testing.T) {
	reg := registrytest.New(t)
	big := baseConfig + "# " + strings.Repeat("x", oci.MaxInline) + "\n"
	src := reg.Push(t, "acme/distro:build", distroImage(t, []string{"RUN_CONFIG_PATH=/app/config.yaml"}, map[string]string{"app/config.yaml": big}))
	labelledRef, _, err := (&oci.Client{}).Label(src, reg.Host+"/acme/distro:labelled", oci.LabelOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, labels(t, labelledRef)[oci.LabelLayer])

	_, _, err = (&oci.Client{}).Label(labelledRef, reg.Host+"/acme/distro:relabelled", oci.LabelOptions{Path: "/" + sitePackages + "llama_stack-0.7.1.dist-info/METADATA"})
	require.NoError(t, err)
	l := labels(t, reg.Host+"/acme/distro:relabelled")
	assert.Empty(t, l[oci.LabelLayer])
	assert.Empty(t, l[oci.LabelPath])
	assert.NotEmpty(t, l[oci.LabelBase64])
}

func TestLabelImageIndex(t *testing.T) {
	reg := registrytest.New(t)
	amd := distroImage(t, []string{"DISTRO_NAME=acme"}, map[string]string{sitePackages + "llama_stack/distributions/acme/config.yaml": baseConfig})
	arm := distroImage(t, []string{"DISTRO_NAME=acme"}, map[string]string{sitePackages + "llama_stack/distributions/acme/config.yaml": "distro_name: arm\n"})
	src := reg.PushIndex(t, "acme/distro:build", registrytest.Index(t, map[string]v1.Image{"linux/amd64": amd, "linux/arm64": arm}))
	dst := reg.Host + "/acme/distro:0.7.1"
	_, got, err := (&oci.Client{}).Label(src, dst, oci.LabelOptions{})
	require.NoError(t, err)
	require.Len(t, got, 2)

	read, err := client(t).BaseConfig(dst)
	require.NoError(t, err)
	assert.Equal(t, baseConfig, string(read.Config))
	c := client(t)
	c.Platform = &v1.Platform{OS: "linux", Architecture: "arm64"}
	read, err = c.BaseConfig(dst)
	require.NoError(t, err)
	assert.Equal(t, "distro_name: arm\n", string(read.Config))
}

func TestLabelImageErrors(t *testing.T) {
	reg := registrytest.New(t)
	for _, tc := range []struct {
		reason string
		img    v1.Image
		opts   oci.LabelOptions
		want   string
	}{
		{reason: "no hint where the config is", img: distroImage(t, nil, nil), opts: oci.LabelOptions{},
			want: "the image sets neither RUN_CONFIG_PATH nor DISTRO_NAME: pass --path"},
		{reason: "the config is not where the image says", img: distroImage(t, []string{"DISTRO_NAME=acme"}, nil), opts: oci.LabelOptions{},
			want: "the image has no llama_stack/distributions/acme/config.yaml (ogx/... from 0.8): pass --path"},
		{reason: "no llama_stack package and no --server-version",
			img: registrytest.ImageWithConfig(t, v1.Config{}, map[string]string{"app/config.yaml": baseConfig}), opts: oci.LabelOptions{Path: "/app/config.yaml"},
			want: "cannot tell the server version (no llama_stack-*.dist-info or ogx-*.dist-info in the image): pass --server-version"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			src := reg.Push(t, "acme/bad:build", tc.img)
			_, _, err := (&oci.Client{}).Label(src, reg.Host+"/acme/bad:labelled", tc.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
