// SPDX-License-Identifier: Apache-2.0

package distribution_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// customConfig is a config a custom image might ship: the starter 0.7 config, renamed.
func customConfig(t *testing.T, version string) string {
	data, err := distributions.FS.ReadFile("starter/" + version + ".yaml")
	require.NoError(t, err)
	return strings.Replace(string(data), "distro_name: starter", "distro_name: acme", 1)
}

func labelled(t *testing.T, config, version string) map[string]string {
	labels := map[string]string{oci.LabelBase64: base64.StdEncoding.EncodeToString([]byte(config))}
	if version != "" {
		labels[oci.LabelVersion] = version
	}
	return labels
}

// ogxLabels are the labels OGX's release workflow puts on its images (from 1.2.0): the
// embedded starter config of version as the default config, and the release.
func ogxLabels(t *testing.T, version, release string) map[string]string {
	data, err := distributions.FS.ReadFile("starter/" + version + ".yaml")
	require.NoError(t, err)
	return map[string]string{
		"com.ogx.distribution.name": "starter", "com.ogx.distribution.version": release,
		"com.ogx.distribution.default-config": "config.yaml", "com.ogx.config.config.yaml": base64.StdEncoding.EncodeToString(data),
	}
}

func TestResolveFromLabels(t *testing.T) {
	reg := registrytest.New(t)
	push := func(t *testing.T, repoTag string, labels map[string]string) string {
		ref := reg.Push(t, repoTag, registrytest.Image(t, labels, nil))
		tag, _, _ := strings.Cut(ref, "@")
		return tag
	}
	for _, tc := range []struct {
		reason        string
		spec          func(t *testing.T) v1alpha2.DistributionSpec
		overrides     func(t *testing.T) map[string]string
		version       distribution.Version
		versionSource string
		distro        string
		warning       string
		err           string
	}{
		{
			reason: "a custom image's labelled config is its base, versioned by its label",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "acme/llama:1.0", labelled(t, customConfig(t, "0.7"), "0.7.1"))}
			},
			version: "0.7", versionSource: `version label "0.7.1"`, distro: "acme",
		},
		{
			reason: "without a version label, a custom image's tag says nothing about the server: its config's structure does",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "acme/llama:0.7.1-acme", labelled(t, customConfig(t, "0.6"), ""))}
			},
			version: "0.6", versionSource: "the labelled config's structure", distro: "acme",
		},
		{
			reason: "a config the structure cannot place needs spec.distribution.serverVersion",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "acme/tiny:2026.04", labelled(t, `distro_name: acme
providers: {}
`, ""))}
			},
			err: "cannot tell the llama-stack version of the config in label " + oci.LabelBase64,
		},
		{
			reason: "spec.distribution.serverVersion states what the image cannot",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{ServerVersion: "0.7",
					Image: push(t, "acme/tiny:2026.04", labelled(t, `distro_name: acme
providers: {}
`, ""))}
			},
			version: "0.7", versionSource: "spec.distribution.serverVersion", distro: "acme",
		},
		{
			reason: "a serverVersion that contradicts the image's version label is an error",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{ServerVersion: "0.6",
					Image: push(t, "acme/llama:1.0", labelled(t, customConfig(t, "0.7"), "0.7.1"))}
			},
			err: `spec.distribution.serverVersion 0.6 contradicts the image, whose version label "0.7.1" says 0.7`,
		},
		{
			reason: "the seed's version label 2 (the config format, not the server) is no version; the structure tells",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "acme/llama:latest", labelled(t, customConfig(t, "0.7"), "2"))}
			},
			version: "0.7", versionSource: "the labelled config's structure", distro: "acme",
		},
		{
			reason: "a mirror named by imageOverrides is read from the internal registry",
			spec:   func(*testing.T) v1alpha2.DistributionSpec { return v1alpha2.DistributionSpec{Name: "starter"} },
			overrides: func(t *testing.T) map[string]string {
				return map[string]string{"starter": push(t, "mirror/starter:0.7.1", labelled(t, customConfig(t, "0.7"), ""))}
			},
			version: "0.7", versionSource: `image tag "0.7.1"`, distro: "acme",
		},
		{
			reason: "a mirror without labels falls back to the embedded config, and says so",
			spec:   func(*testing.T) v1alpha2.DistributionSpec { return v1alpha2.DistributionSpec{Name: "starter"} },
			overrides: func(t *testing.T) map[string]string {
				return map[string]string{"starter": push(t, "mirror/plain:0.6.0", nil)}
			},
			version: "0.6", versionSource: `image tag "0.6.0"`, distro: "starter",
			warning: "has no config labels: using the embedded starter/0.6.yaml config",
		},
		{
			reason: "a catalog image the registry does not have falls back with the registry's error",
			spec:   func(*testing.T) v1alpha2.DistributionSpec { return v1alpha2.DistributionSpec{Name: "starter"} },
			overrides: func(*testing.T) map[string]string {
				return map[string]string{"starter": reg.Host + "/mirror/absent:0.7.1"}
			},
			version: "0.7", versionSource: `image tag "0.7.1"`, distro: "starter",
			warning: "is not in its registry",
		},
		{
			reason: "a custom image without labels cannot be rendered",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "acme/plain:1.0", map[string]string{"maintainer": "acme"})}
			},
			err: "missing config labels. Add labels using `llsd label-image",
		},
		{
			reason: "a labelled config of an unsupported server version",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "acme/old:1.0", labelled(t, customConfig(t, "0.7"), "0.5.0"))}
			},
			err: `Unsupported config.yaml version 0.5. Supported versions: 0.6, 0.7, 0.8, 1.0, 1.1, 1.2, 1.3, and later 1.x releases, generated for 1.3 (the server's version, which decides its config.yaml, was read from version label "0.5.0")`,
		},
		{
			reason: "an OGX 1.3 image as published (com.ogx.* labels, from 1.2 on)",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "ogxai/distribution-starter:1.3.0", ogxLabels(t, "1.3", "1.3.0"))}
			},
			version: "1.3", versionSource: `version label "1.3.0"`, distro: "starter",
		},
		{
			reason: "an OGX 1.4 image renders with the newest profile, 1.3, and says so",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "ogxai/distribution-starter:1.4.0", ogxLabels(t, "1.3", "1.4.0"))}
			},
			version: "1.4", versionSource: `version label "1.4.0"`, distro: "starter",
			warning: "OGX 1.4 is newer than the newest OGX llsd knows (1.3): its config is generated for OGX 1.3",
		},
		{
			reason: "an OGX 2.0 image is refused",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "ogxai/distribution-starter:2.0.0", ogxLabels(t, "1.3", "2.0.0"))}
			},
			err: "Unsupported config.yaml version 2.0",
		},
		{
			reason: "a label that is not YAML",
			spec: func(t *testing.T) v1alpha2.DistributionSpec {
				return v1alpha2.DistributionSpec{Image: push(t, "acme/broken:0.7.1", labelled(t, "apis: [inference\n", ""))}
			},
			err: "is not a YAML mapping",
		},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			opts := distribution.Options{Labels: &oci.Client{Cache: &oci.Cache{Dir: t.TempDir()}}}
			if tc.overrides != nil {
				opts.ImageOverrides = tc.overrides(t)
			}
			d, ferr := distribution.Resolve(tc.spec(t), opts)
			if tc.err != "" {
				require.NotNil(t, ferr)
				assert.Contains(t, wording.Plain(ferr.Error()), tc.err)
				return
			}
			require.Nil(t, ferr)
			assert.Equal(t, tc.version, d.Version)
			assert.Contains(t, d.VersionSource, tc.versionSource)
			assert.Equal(t, tc.distro, d.DistroName)
			if tc.warning == "" {
				assert.Empty(t, d.Warnings)
				assert.Regexp(t, "^label ("+oci.LabelBase64+"|com.ogx.config.config.yaml) of "+reg.Host, d.BaseSource)
			} else {
				require.Len(t, d.Warnings, 1)
				assert.Contains(t, d.Warnings[0].Message, tc.warning)
				assert.Equal(t, "spec.distribution", d.Warnings[0].Field)
			}
		})
	}
}

// Without registry access nothing is asked of a registry, even for an image that has labels.
func TestOfflineNeverAsksTheRegistry(t *testing.T) {
	reg := registrytest.New(t)
	ref := reg.Push(t, "acme/llama:0.7.1", registrytest.Image(t, labelled(t, customConfig(t, "0.7"), ""), nil))
	_, ferr := distribution.Resolve(v1alpha2.DistributionSpec{Name: "starter"}, distribution.Options{ImageOverrides: map[string]string{"starter": ref}})
	require.Nil(t, ferr)
	_, ferr = distribution.Resolve(v1alpha2.DistributionSpec{Image: ref}, distribution.Options{})
	require.NotNil(t, ferr)
	assert.Contains(t, ferr.Error(), "RenderOptions spec.registry.enabled: true")
	assert.Zero(t, reg.Requests(""))
}
