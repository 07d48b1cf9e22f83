// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/testsupport/golden"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// goldenCase is one directory of testdata/: llsd.yaml (the LlamaStackDistribution; its first
// line is "# reason: ..."), optional options.yaml (distribution.Options), and either
// config.yaml + result.yaml (the generated config; env, launcher, counts, warnings) or
// error.txt (the expected errors, one per line).
type goldenCase struct {
	name, dir string
}

// result.yaml: what the pod gets besides config.yaml.
type goldenResult struct {
	Version   string          `json:"version"`
	Providers int             `json:"providers"`
	Resources int             `json:"resources"`
	Launcher  bool            `json:"launcher"`
	Env       []corev1.EnvVar `json:"env,omitempty"`
	Warnings  []string        `json:"warnings,omitempty"`
}

func goldenCases(t *testing.T) []goldenCase {
	dirs, err := filepath.Glob(filepath.Join("testdata", "*", "llsd.yaml"))
	require.NoError(t, err)
	var cases []goldenCase
	for _, f := range dirs {
		dir := filepath.Dir(f)
		cases = append(cases, goldenCase{name: filepath.Base(dir), dir: dir})
	}
	return cases
}

// generate runs the whole path a render takes: decode (defaults, validation), resolve the
// distribution, generate.
func generate(t testing.TB, dir string) (*config.Result, []string) {
	data, err := os.ReadFile(filepath.Join(dir, "llsd.yaml"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "# reason: "), "%s/llsd.yaml must start with '# reason: '", dir)
	obj, errs := api.Decode(data)
	if len(errs) == 0 {
		errs = v1alpha2.Validate(obj)
	}
	if len(errs) > 0 {
		return nil, errorLines(errs)
	}
	var opts distribution.Options
	if raw, err := os.ReadFile(filepath.Join(dir, "options.yaml")); err == nil {
		require.NoError(t, yaml.UnmarshalStrict(raw, &opts))
	}
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, opts)
	if ferr != nil {
		return nil, []string{wording.Plain(ferr.Error())}
	}
	res, errs := config.Generate(obj, dist)
	if len(errs) > 0 {
		return nil, errorLines(errs)
	}
	res.Warnings = append(res.Warnings, dist.Warnings...) // the pipeline reports them with the config's
	return res, nil
}

func errorLines(errs field.ErrorList) []string {
	lines := make([]string, len(errs))
	for i, e := range errs {
		lines[i] = wording.Plain(e.Error())
	}
	return lines
}

func warningLines(warnings []config.Warning) []string {
	lines := make([]string, len(warnings))
	for i, w := range warnings {
		lines[i] = wording.Plain(w.String())
	}
	return lines
}

func TestGolden(t *testing.T) {
	cases := goldenCases(t)
	require.GreaterOrEqual(t, len(cases), 40, "the golden suite covers every requirement with at least 40 cases")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res, errs := generate(t, c.dir)
			if errs != nil {
				checkGoldenError(t, c, errs)
				return
			}
			checkGoldenOutput(t, c, res)
			again, _ := generate(t, c.dir)
			assert.Equal(t, string(res.Config), string(again.Config), "the same input must give the same bytes")
			checkAgainstServer(t, c, res)
		})
	}
}

func checkGoldenError(t *testing.T, c goldenCase, errs []string) {
	got := strings.Join(errs, "\n") + "\n"
	if _, err := os.Stat(filepath.Join(c.dir, "error.txt")); err != nil && !golden.Updating() {
		t.Fatalf("generation failed unexpectedly:\n%s", got)
	}
	golden.Check(t, filepath.Join(c.dir, "error.txt"), []byte(got), filepath.Join(c.dir, "config.yaml"), filepath.Join(c.dir, "result.yaml"))
}

func checkGoldenOutput(t *testing.T, c goldenCase, res *config.Result) {
	summary := goldenResult{
		Version: string(res.Version), Providers: res.ProviderCount, Resources: res.ResourceCount,
		Launcher: res.Launcher != nil, Env: res.Env, Warnings: warningLines(res.Warnings),
	}
	summaryYAML, err := yaml.Marshal(summary)
	require.NoError(t, err)
	if _, err := os.Stat(filepath.Join(c.dir, "error.txt")); err == nil && !golden.Updating() {
		t.Fatalf("generation succeeded but the case expects an error (error.txt)")
	}
	golden.Check(t, filepath.Join(c.dir, "config.yaml"), res.Config, filepath.Join(c.dir, "error.txt"))
	golden.Check(t, filepath.Join(c.dir, "result.yaml"), summaryYAML)
	assert.NotContains(t, string(res.Config), "secretKeyRef", "a secret reference leaked into the config")
}

// checkAgainstServer reads the config as the server does (PyYAML when present, env
// substitution) and validates it with the strict schema of its server version.
func checkAgainstServer(t *testing.T, c goldenCase, res *config.Result) {
	tree, err := configyaml.Unmarshal(res.Config)
	require.NoError(t, err)
	testenv.Need(t, servercheck.MissingPyYAML())
	read, err := servercheck.PyYAMLRead(res.Config)
	require.NoError(t, err)
	assert.Equal(t, servercheck.Tagged(tree), read, "PyYAML (the server's parser) reads a different config")
	env := podEnv(t, c)
	if _, ok := env["INFERENCE_MODEL"]; !ok {
		env["INFERENCE_MODEL"] = "fixture-model" // postgres-demo requires it; generation warns when unset
	}
	version := string(res.Version)
	if _, known := servercheck.Releases[version]; !known && strings.HasPrefix(version, "1.") {
		version = "1.3" // a newer 1.x loads what 1.3 loads: the server's stability policy
	}
	err = servercheck.ValidateStrict(version, tree, servercheck.FixtureEnv(env))
	assert.NoError(t, err, "the %s server would reject the generated config", res.Version)
}

// podEnv are the plain env values the LLSD sets in workload.overrides.env.
func podEnv(t *testing.T, c goldenCase) map[string]string {
	data, err := os.ReadFile(filepath.Join(c.dir, "llsd.yaml"))
	require.NoError(t, err)
	obj, _ := api.Decode(data)
	env := map[string]string{}
	if w := obj.Spec.Workload; w != nil && w.Overrides != nil {
		for _, e := range w.Overrides.Env {
			env[e.Name] = e.Value
		}
	}
	return env
}
