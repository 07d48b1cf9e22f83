// SPDX-License-Identifier: Apache-2.0

package distribution_test

import (
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

func upstream(t *testing.T, file string) map[string]any {
	cfg, err := servercheck.UpstreamConfig(file)
	require.NoError(t, err)
	return cfg
}

// Each embedded base config is the config the image ships, read the way the server reads
// it; the only difference allowed is the dead registered_resources.vector_dbs key.
func TestEmbeddedBasesEqualUpstream(t *testing.T) {
	for _, p := range profile.All() {
		for _, name := range []string{"starter", "postgres-demo"} {
			upstreamFile := p.Upstream.Configs + "/" + name + "_config"
			t.Run(upstreamFile, func(t *testing.T) {
				d, err := distribution.Resolve(v1alpha2.DistributionSpec{Image: p.Image(name)}, distribution.Options{})
				require.Nil(t, err)
				assert.Equal(t, p.Version, d.Version)
				want := upstream(t, upstreamFile)
				delete(want["registered_resources"].(map[string]any), "vector_dbs")
				assert.Equal(t, want, d.Base)
				// the strict schema accepts the base (it rejects vector_dbs, hence the drop)
				getenv := servercheck.FixtureEnv(map[string]string{"INFERENCE_MODEL": "m"})
				assert.NoError(t, servercheck.ValidateStrict(string(d.Version), d.Base, getenv))
			})
		}
	}
}

func TestResolveNamesAndVersions(t *testing.T) {
	for _, tc := range []struct {
		reason  string
		spec    v1alpha2.DistributionSpec
		opts    distribution.Options
		image   string
		version distribution.Version
		base    string
	}{
		{reason: "a name without a version is the newest supported server", spec: v1alpha2.DistributionSpec{Name: "starter"}, opts: distribution.Options{},
			image: "docker.io/ogxai/distribution-starter:1.3.0", version: "1.3", base: "embedded starter/1.3.yaml"},
		{reason: "remote-vllm runs the starter image on the starter base", spec: v1alpha2.DistributionSpec{Name: "remote-vllm"}, opts: distribution.Options{},
			image: "docker.io/ogxai/distribution-starter:1.3.0", version: "1.3", base: "embedded starter/1.3.yaml"},
		{reason: "serverVersion pins llama-stack 0.7", spec: v1alpha2.DistributionSpec{Name: "starter", ServerVersion: "0.7"}, opts: distribution.Options{},
			image: "docker.io/llamastack/distribution-starter:0.7.1", version: "0.7", base: "embedded starter/0.7.yaml"},
		{reason: "OGX 1.0 images are in docker.io/ogx", spec: v1alpha2.DistributionSpec{Name: "postgres-demo", ServerVersion: "1.0"}, opts: distribution.Options{},
			image: "docker.io/ogx/distribution-postgres-demo:1.0.0", version: "1.0", base: "embedded postgres-demo/1.0.yaml"},
		{reason: "OGX 1.2 pins 1.2.1, whose entrypoint passes --insecure", spec: v1alpha2.DistributionSpec{Name: "starter", ServerVersion: "1.2"}, opts: distribution.Options{},
			image: "docker.io/ogxai/distribution-starter:1.2.1", version: "1.2", base: "embedded starter/1.2.yaml"},
		{reason: "a 1.1 image of either repository", spec: v1alpha2.DistributionSpec{Image: "docker.io/ogx/distribution-starter:1.1.3"}, opts: distribution.Options{},
			image: "docker.io/ogx/distribution-starter:1.1.3", version: "1.1", base: "embedded starter/1.1.yaml"},
		{reason: "a 1.x image newer than the newest profile gets the newest 1.x base", spec: v1alpha2.DistributionSpec{Image: "docker.io/ogxai/distribution-starter:1.4.0"},
			opts: distribution.Options{}, image: "docker.io/ogxai/distribution-starter:1.4.0", version: "1.4", base: "embedded starter/1.3.yaml"},
		{reason: "an override's tag selects the version", spec: v1alpha2.DistributionSpec{Name: "postgres-demo"},
			opts:  distribution.Options{ImageOverrides: map[string]string{"postgres-demo": "mirror.local:5000/pg-demo:v0.6.1-custom"}},
			image: "mirror.local:5000/pg-demo:v0.6.1-custom", version: "0.6", base: "embedded postgres-demo/0.6.yaml"},
		{reason: "serverVersion picks the catalog image of that version: OGX 0.8", spec: v1alpha2.DistributionSpec{Name: "starter", ServerVersion: "0.8"},
			opts: distribution.Options{}, image: "docker.io/ogxai/distribution-starter:0.8.0", version: "0.8", base: "embedded starter/0.8.yaml"},
		{reason: "... and of 0.6", spec: v1alpha2.DistributionSpec{Name: "postgres-demo", ServerVersion: "0.6"},
			opts: distribution.Options{}, image: "docker.io/llamastack/distribution-postgres-demo:0.6.0", version: "0.6", base: "embedded postgres-demo/0.6.yaml"},
		{reason: "an OGX image is official", spec: v1alpha2.DistributionSpec{Image: "docker.io/ogxai/distribution-postgres-demo:0.8.0"},
			opts: distribution.Options{}, image: "docker.io/ogxai/distribution-postgres-demo:0.8.0", version: "0.8", base: "embedded postgres-demo/0.8.yaml"},
		{reason: "... under OGX's other organisation too", spec: v1alpha2.DistributionSpec{Image: "ghcr.io/ogx/distribution-starter:v0.8.2"},
			opts: distribution.Options{}, image: "ghcr.io/ogx/distribution-starter:v0.8.2", version: "0.8", base: "embedded starter/0.8.yaml"},
		{reason: "an official image in another registry is still official",
			spec: v1alpha2.DistributionSpec{Image: "quay.io/llamastack/distribution-starter:0.6.1"}, opts: distribution.Options{},
			image: "quay.io/llamastack/distribution-starter:0.6.1", version: "0.6", base: "embedded starter/0.6.yaml"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			d, err := distribution.Resolve(tc.spec, tc.opts)
			require.Nil(t, err)
			assert.Equal(t, tc.image, d.Image)
			assert.Equal(t, tc.version, d.Version)
			assert.Equal(t, tc.base, d.BaseSource)
		})
	}
}

func TestResolveReturnsPrivateCopies(t *testing.T) {
	a, err := distribution.Resolve(v1alpha2.DistributionSpec{Name: "starter"}, distribution.Options{})
	require.Nil(t, err)
	a.Base["providers"] = nil
	b, err := distribution.Resolve(v1alpha2.DistributionSpec{Name: "starter"}, distribution.Options{})
	require.Nil(t, err)
	assert.NotNil(t, b.Base["providers"], "a caller's change leaked into the cached base")
}

func TestVersionFromTag(t *testing.T) {
	for tag, want := range map[string]distribution.Version{
		"0.7.1": "0.7", "v0.6.0": "0.6", "0.7": "0.7", "0.7.1-rhoai.2": "0.7", "1.0.0+build": "1.0", "0.10.3": "0.10",
		"latest": "", "": "", "main": "", "0.7.x": "", "07.1": "",
	} {
		got, ok := distribution.VersionFromTag(tag)
		assert.Equal(t, want, got, tag)
		assert.Equal(t, want != "", ok, tag)
	}
	for image, tag := range map[string]string{
		"docker.io/llamastack/distribution-starter:0.7.1":       "0.7.1",
		"localhost:5000/starter":                                "",
		"localhost:5000/starter:0.6.0@sha256:abc":               "0.6.0",
		"registry/starter@sha256:abc":                           "",
		"registry.example.com:443/team/distribution-starter:v1": "v1",
	} {
		assert.Equal(t, tag, distribution.ImageTag(image), image)
	}
}

// The structural fingerprint tells every upstream config's version (or its era) by what one
// version has: 0.4.5's config has the APIs 0.6 and older have (0.4 had no structure of its own:
// a config without distro_name may be of any later version, OGX 1.x's rh-dev among them).
func TestFingerprintOfUpstreamConfigs(t *testing.T) {
	for file, want := range map[string]distribution.Version{
		"v0.2.14/remote-vllm_run":           "0.2",
		"v0.4.5/meta-reference-gpu_config":  "0.6",
		"v0.6.0/starter_config":             "0.6",
		"v0.6.0/postgres-demo_config":       "0.6",
		"v0.7.1/starter_config":             "0.7",
		"v0.7.1/postgres-demo_config":       "0.7",
		"v0.8.0/starter_config":             "0.8",
		"main-d1b6632/postgres-demo_config": "0.8",
	} {
		got, evidence, ok := distribution.Fingerprint(upstream(t, file))
		assert.True(t, ok, file)
		assert.Equal(t, want, got, "%s (%s)", file, evidence)
	}
	// Every config OGX ships: its own version for the starter and ci-tests configs, which use
	// what each release added; at most its own 1.x version for the others, whose config
	// loads on every later 1.x.
	for dir, want := range map[string]distribution.Version{"v0.8.0": "0.8", "v1.0.0": "1.0", "v1.1.0": "1.1", "v1.2.1": "1.2", "v1.3.0": "1.3"} {
		names, err := servercheck.UpstreamConfigs(dir)
		require.NoError(t, err)
		require.NotEmpty(t, names)
		for _, name := range names {
			got, evidence, ok := distribution.Fingerprint(upstream(t, name))
			require.True(t, ok, name)
			if file := path.Base(name); strings.HasPrefix(file, "starter_") || strings.HasPrefix(file, "ci-tests_") || want == "0.8" {
				assert.Equal(t, want, got, "%s (%s)", name, evidence)
			} else {
				assert.True(t, strings.HasPrefix(string(got), "1.") && got <= want, "%s: %s (%s)", name, got, evidence)
			}
		}
	}
	_, _, ok := distribution.Fingerprint(map[string]any{"distro_name": "x", "providers": map[string]any{
		"inference": []any{map[string]any{"provider_id": "vllm", "provider_type": "remote::vllm"}}}})
	assert.False(t, ok, "a minimal config looks the same in 0.6 and 0.7: the fingerprint must not guess")
	_, _, ok = distribution.Fingerprint(map[string]any{"image_name": "rh", "providers": map[string]any{
		"inference": []any{map[string]any{"provider_id": "vllm", "provider_type": "remote::vllm"}}}})
	assert.False(t, ok, "image_name without distro_name is every version's (OpenShift AI 3.5's rh-dev): no guess of 0.4")
	v, _, bound, ok := distribution.FingerprintRange(map[string]any{"image_name": "own", "providers": map[string]any{
		"messages": []any{map[string]any{"provider_id": "builtin", "provider_type": "inline::builtin"}}}})
	assert.True(t, ok)
	assert.Equal(t, distribution.Version("0.8"), v)
	assert.Equal(t, distribution.AtLeast, bound, "the messages API came with 0.8 and 1.x keeps it: 0.8 or later")

	// OpenShift AI 3.3/3.4's dashboard config keeps a top-level metadata_store beside newer
	// marks: the leftover does not make it a config of 0.2 (#56)
	for reason, cfg := range map[string]map[string]any{
		"beside storage.backends": {"metadata_store": map[string]any{"type": "sqlite"}, "storage": map[string]any{"backends": map[string]any{}}},
		"beside distro_name":      {"metadata_store": map[string]any{"type": "sqlite"}, "distro_name": "rh"},
		"beside the responses API": {"metadata_store": map[string]any{"type": "sqlite"}, "providers": map[string]any{
			"responses": []any{map[string]any{"provider_id": "builtin", "provider_type": "inline::builtin"}}}},
	} {
		v, _, _, _ := distribution.FingerprintRange(cfg)
		assert.NotEqual(t, distribution.Version("0.2"), v, reason)
	}
	v, _, _, ok = distribution.FingerprintRange(map[string]any{"metadata_store": map[string]any{"type": "sqlite"}, "image_name": "old"})
	assert.True(t, ok)
	assert.Equal(t, distribution.Version("0.2"), v, "alone, it is 0.2's")
}

// Every supported version has marks, and each structure a profile's marks name, alone in a
// config, tells that version: the fingerprint table is the profiles'.
func TestEveryProfileHasMarksThatTellIt(t *testing.T) {
	for _, p := range profile.All() {
		marks := p.Marks
		assert.NotEmpty(t, marks.Evidence, "%s has no marks", p)
		for _, m := range []profile.Mark{marks.First, marks.Last} {
			var configs []map[string]any
			provider := func(api string, entry map[string]any) map[string]any {
				return map[string]any{"distro_name": "x", "providers": map[string]any{api: []any{entry}}}
			}
			for _, api := range m.APIs {
				configs = append(configs, provider(api, map[string]any{"provider_id": "p", "provider_type": "inline::x"}))
			}
			for _, typ := range m.ProviderTypes {
				configs = append(configs, provider("inference", map[string]any{"provider_id": "p", "provider_type": typ}))
			}
			for _, k := range m.ProviderKeys {
				api, key, _ := strings.Cut(k, ".")
				configs = append(configs, provider(api, map[string]any{"provider_id": "p", "provider_type": "inline::x", "config": map[string]any{key: 1}}))
			}
			for _, k := range m.ServerKeys {
				configs = append(configs, map[string]any{"distro_name": "x", "server": map[string]any{k: true}})
			}
			for _, path := range m.Stores {
				store, key, _ := strings.Cut(path, ".")
				value := any(map[string]any{"backend": "b"})
				if key != "" {
					value = map[string]any{key: "t"}
				}
				configs = append(configs, map[string]any{"distro_name": "x", "storage": map[string]any{"stores": map[string]any{store: value}}})
			}
			for _, cfg := range configs {
				got, evidence, ok := distribution.Fingerprint(cfg)
				assert.True(t, ok, "%s: %v", p, cfg)
				assert.Equal(t, p.Version, got, "%s: %v tells %s (%s)", p, cfg, got, evidence)
			}
		}
	}
}

// A distribution upstream retired (the operator's early names: ollama, tgi, vllm-gpu, ...) is
// refused with the one to use instead, which llsd deploys.
func TestRetiredNamesSayWhatToUse(t *testing.T) {
	entries, err := distribution.Catalog()
	require.NoError(t, err)
	use := regexp.MustCompile(`use distribution\.name: ([a-z-]+)`)
	retired := 0
	for name, e := range entries {
		if e.Removed == "" {
			continue
		}
		retired++
		t.Run(name, func(t *testing.T) {
			_, ferr := distribution.Resolve(v1alpha2.DistributionSpec{Name: name}, distribution.Options{})
			require.NotNil(t, ferr)
			assert.Equal(t, "spec.distribution.name", ferr.Field)
			m := use.FindStringSubmatch(ferr.Detail)
			require.NotNil(t, m, "%s: the error names no distribution to use: %s", name, ferr.Detail)
			assert.Contains(t, distribution.Names(), m[1])
		})
	}
	assert.GreaterOrEqual(t, retired, 12)
}
