// SPDX-License-Identifier: Apache-2.0

package distribution_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The release table is the one gathered from the platforms' build repositories
// (versions.tsv beside the clone): each release's image (its digest, or its tag) and server
// release are the row's.
func TestReleasesMatchTheReleaseTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.Shared(t, "openshift-ai"), "versions.tsv"))
	require.NoError(t, err)
	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		cols := strings.Split(line, "\t")
		rows[cols[0]] = cols
	}
	for _, r := range distribution.Releases {
		t.Run(r.Name, func(t *testing.T) {
			row, ok := rows[r.Row]
			require.True(t, ok, "versions.tsv has no row %q", r.Row)
			pin := r.Image[strings.LastIndexAny(r.Image, ":@")+1:]
			if _, digest, ok := strings.Cut(r.Image, "@sha256:"); ok {
				pin = digest
			}
			assert.Contains(t, row[1], pin, "the image of %s", r.Row)
			if r.Server == "" {
				assert.Contains(t, row[3], "unknown")
				return
			}
			_, release, _ := strings.Cut(r.Server, " ")
			assert.Contains(t, strings.ReplaceAll(row[3], "v", ""), release, "the server of %s", r.Row)
		})
	}
}

// Each release llsd generates configs for has the image's config as its base, and that base
// starts on its server version (strict schema and start-up rules) in the release's layout,
// given the Postgres its 3.2+ configs keep their state in.
func TestRHDevBasesStart(t *testing.T) {
	env := servercheck.FixtureEnv(map[string]string{"POSTGRES_HOST": "postgres.db.svc", "POSTGRES_DB": "rh", "POSTGRES_USER": "rh",
		"POSTGRES_PASSWORD": "secret"})
	generated := 0
	for _, r := range distribution.Releases {
		if r.BaseConfigFile() == "" {
			continue
		}
		generated++
		t.Run(r.Name, func(t *testing.T) {
			res, ferr := distribution.Resolve(v1alpha2.DistributionSpec{Name: distribution.RHDev}, distribution.Options{OpenShiftAIRelease: r.Name})
			require.Nil(t, ferr)
			assert.Equal(t, r.Image, res.Image)
			assert.Equal(t, r.Version(), res.Version)
			assert.Equal(t, api.ConfigSourceEmbedded, res.ConfigSource)
			assert.Equal(t, "embedded rh-dev/"+r.Name+".yaml", res.BaseSource)
			assert.Equal(t, r.Layout, res.Layout)
			require.NoError(t, servercheck.ValidateStrict(string(res.Version), res.Base, env))
			pod := servercheck.Pod{Getenv: env, Home: r.Layout.Home, Writable: []string{r.Layout.StateDir, r.Layout.CacheDir}, Insecure: true}
			assert.Empty(t, servercheck.Startup(string(res.Version), res.Base, pod))
		})
	}
	assert.Equal(t, 7, generated, "3.4.0, 3.4, 3.5-ea.1, 3.5-ea.2, 3.5, 3.6-ea, odh-3.5")
}

func TestRHDevResolution(t *testing.T) {
	rhDev := v1alpha2.DistributionSpec{Name: distribution.RHDev}
	for _, tc := range []struct {
		reason  string
		opts    distribution.Options
		release string
		version distribution.Version
		says    []string
	}{
		{reason: "without the option: the default release, with a warning that names the option",
			release: distribution.DefaultRelease, version: "0.7",
			says: []string{"llsd renders it for OpenShift AI 3.4 (llama-stack 0.7.1, image registry.redhat.io/rhoai/odh-llama-stack-core-rhel9@sha256:be82f455",
				"the newest release whose operator reconciles LlamaStackDistributions", "render option openshiftAI.release (LLSD_OPENSHIFT_AI_RELEASE"}},
		{reason: "an OGXServer's, without the option: the newest release whose operator reconciles OGXServers",
			opts: distribution.Options{OGXServer: true}, release: distribution.DefaultOGXServerRelease, version: "1.2",
			says: []string{"llsd renders it for OpenShift AI 3.5 (OGX 1.2.4", "the newest release whose operator reconciles OGXServers"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			res, ferr := distribution.Resolve(rhDev, tc.opts)
			require.Nil(t, ferr)
			r, _ := distribution.ReleaseNamed(tc.release)
			assert.Equal(t, r.Image, res.Image)
			assert.Equal(t, tc.version, res.Version)
			require.NotEmpty(t, res.Warnings)
			for _, want := range tc.says {
				assert.Contains(t, res.Warnings[0].Message, want)
			}
		})
	}
	t.Run("a release the option names: no warning", func(t *testing.T) {
		res, ferr := distribution.Resolve(rhDev, distribution.Options{OpenShiftAIRelease: "3.5"})
		require.Nil(t, ferr)
		assert.Equal(t, distribution.Version("1.2"), res.Version)
		assert.Empty(t, res.Warnings)
		assert.Equal(t, "/opt/app-root/src/.ogx/distributions/rh", res.Layout.StateDir)
	})
	t.Run("an unknown release", func(t *testing.T) {
		_, ferr := distribution.Resolve(rhDev, distribution.Options{OpenShiftAIRelease: "3.44"})
		require.NotNil(t, ferr)
		assert.Contains(t, ferr.Error(), `the render option openshiftAI.release names "3.44", which llsd does not know (did you mean 3.4?)`)
	})
	t.Run("a release whose server llsd has no facts of runs its image's config, with a warning", func(t *testing.T) {
		res, ferr := distribution.Resolve(rhDev, distribution.Options{OpenShiftAIRelease: "2.25", ImageOwnConfig: true})
		require.Nil(t, ferr)
		assert.Nil(t, res.Base)
		assert.Equal(t, api.ConfigSourceImage, res.ConfigSource)
		assert.Contains(t, res.Warnings[0].Message, "OpenShift AI 2.25 (llama-stack 0.2.22, image registry.redhat.io/rhoai/odh-llama-stack-core-rhel9@sha256:c72da1b9")
		assert.Contains(t, res.Warnings[0].Message, "runs the config of its image (/opt/app-root/run.yaml), which llsd cannot check")
	})
	t.Run("a spec that asks for a generated config on such a release", func(t *testing.T) {
		_, ferr := distribution.Resolve(rhDev, distribution.Options{OpenShiftAIRelease: "3.3"})
		require.NotNil(t, ferr)
		assert.Contains(t, ferr.Error(), "llsd generates configs for the releases whose server it knows (3.4.0, 3.4, 3.5-ea.1, 3.5-ea.2, 3.5, 3.6-ea, odh-3.5), "+
			"and OpenShift AI 3.3 runs llama-stack 0.4.1: render for one of them")
	})
	t.Run("serverVersion that contradicts the release", func(t *testing.T) {
		_, ferr := distribution.Resolve(v1alpha2.DistributionSpec{Name: distribution.RHDev, ServerVersion: "1.3"}, distribution.Options{})
		require.NotNil(t, ferr)
		assert.Contains(t, ferr.Error(), "OpenShift AI 3.4 runs llama-stack 0.7.1: remove serverVersion")
	})
	t.Run("the render option distributions still maps rh-dev to an image of one's own", func(t *testing.T) {
		res, ferr := distribution.ResolveRuntime(rhDev, distribution.Options{Distributions: map[string]string{distribution.RHDev: "quay.io/team/stack:0.7.1"}})
		require.Nil(t, ferr)
		assert.Equal(t, "quay.io/team/stack:0.7.1", res.Image)
	})
	t.Run("the image of a release, named: that release's layout, without the default's warning", func(t *testing.T) {
		res, ferr := distribution.ResolveRuntime(v1alpha2.DistributionSpec{Image: "quay.io/opendatahub/llama-stack:odh"}, distribution.Options{})
		require.Nil(t, ferr)
		assert.Empty(t, res.Warnings)
		assert.Equal(t, "OpenShift AI 2.22", res.Release)
		assert.Equal(t, []string{"python", "-m", "llama_stack.distribution.server.server", "--config", "{config}"}, res.Layout.Start,
			"the image's entrypoint runs its own config: llsd starts the server on the user's")
	})
	t.Run("a config of the user's own: the release's image and layout", func(t *testing.T) {
		res, ferr := distribution.ResolveRuntime(rhDev, distribution.Options{OpenShiftAIRelease: "3.4"})
		require.Nil(t, ferr)
		assert.Equal(t, "/opt/app-root/src/.llama/distributions/rh", res.Layout.StateDir)
		assert.True(t, res.Layout.RunConfigPath)
		assert.Equal(t, "OpenShift AI 3.4", res.VersionSource)
	})
}
