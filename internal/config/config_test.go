// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// US1.3: a spec with only a distribution yields its base config unchanged, byte for byte
// in llsd's canonical form, where the base starts in a pod as it is (postgres-demo does not:
// see the name-only-postgres-demo case).
func TestDistributionOnlyYieldsTheBase(t *testing.T) {
	for _, image := range []string{
		"docker.io/llamastack/distribution-starter:0.6.0", "docker.io/llamastack/distribution-starter:0.7.1",
	} {
		t.Run(image, func(t *testing.T) {
			obj := &v1alpha2.LlamaStackDistribution{}
			obj.Spec.Distribution.Image = image
			dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
			require.Nil(t, ferr)
			want, err := configyaml.Marshal(dist.Base)
			require.NoError(t, err)
			res, errs := config.Generate(obj, dist)
			require.Empty(t, errs)
			assert.Equal(t, string(want), string(res.Config))
			assert.Empty(t, res.Env)
			assert.Nil(t, res.Launcher)
		})
	}
}

// Generate never changes the resolved distribution it was given.
// Generating edits the resolved copy of the base, never the cached base config: the next
// render starts from the distribution's config again.
func TestGenerateLeavesTheCachedBaseAlone(t *testing.T) {
	fresh, ferr := distribution.Resolve(v1alpha2.DistributionSpec{Name: "starter"}, distribution.Options{})
	require.Nil(t, ferr)
	before, err := configyaml.Marshal(fresh.Base)
	require.NoError(t, err)
	res, _ := generateFile(t, filepath.Join("testdata", "seed-spec-example-corrected", "llsd.yaml"))
	require.NotEqual(t, string(before), string(res.Config))
	again, ferr := distribution.Resolve(v1alpha2.DistributionSpec{Name: "starter"}, distribution.Options{})
	require.Nil(t, ferr)
	after, err := configyaml.Marshal(again.Base)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after))
}

func generateFile(t testing.TB, path string) (*config.Result, *distribution.Resolved) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	obj, errs := api.Decode(data)
	require.Empty(t, errs)
	require.Empty(t, v1alpha2.Validate(obj))
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
	require.Nil(t, ferr)
	res, errs := config.Generate(obj, dist)
	require.Empty(t, errs)
	return res, dist
}

// Random input never panics; every error names a field of the object.
func FuzzGenerate(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*", "llsd.yaml"))
	for _, s := range seeds {
		data, err := os.ReadFile(s)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, errs := api.Decode(data)
		if len(errs) > 0 {
			return
		}
		dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
		if ferr != nil {
			require.True(t, strings.HasPrefix(ferr.Field, "spec.distribution"), ferr.Error())
			return
		}
		res, errs := config.Generate(obj, dist)
		for _, e := range errs {
			require.True(t, strings.HasPrefix(e.Field, "spec"), "error without a spec field path: %v", e)
		}
		if len(errs) > 0 {
			return
		}
		_, err := configyaml.UnmarshalMap(res.Config)
		require.NoError(t, err)
		require.NotContains(t, string(res.Config), "secretKeyRef")
	})
}

// BenchmarkGenerate measures one render's config generation: resolving the distribution
// (a copy of the cached base) and generating the seed spec's full example.
func BenchmarkGenerate(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "seed-spec-example-corrected", "llsd.yaml"))
	require.NoError(b, err)
	obj, errs := api.Decode(data)
	require.Empty(b, errs)
	b.ReportAllocs()
	for b.Loop() {
		dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
		if ferr != nil {
			b.Fatal(ferr)
		}
		if _, errs := config.Generate(obj, dist); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
