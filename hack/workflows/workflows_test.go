// SPDX-License-Identifier: Apache-2.0

// Package workflows tests the repository's GitHub workflows, which run nowhere but GitHub: they
// pass actionlint (with shellcheck over their scripts), and the tag workflow drives the make
// targets that make release-snapshot runs in CI, so the snapshot proves what the tag publishes.
package workflows

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var root = filepath.Join("..", "..")

// shellcheck is the shellcheck actionlint runs over every run: script; CI installs it.
func shellcheck(t *testing.T) string {
	path, err := exec.LookPath("shellcheck")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("shellcheck is not installed: .ci/run installs it (apt-get install shellcheck)")
		}
		t.Log("shellcheck is not installed: the workflows' scripts are not checked (apt-get install shellcheck)")
		return ""
	}
	return path
}

// Every workflow, ours and the examples users copy, passes actionlint: its syntax, expressions, contexts, permissions, the inputs of
// the actions it uses, and shellcheck over its scripts.
func TestWorkflowsPassActionlint(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(root, ".github", "workflows", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	examples, err := filepath.Glob(filepath.Join(root, "examples", "ci", "*.yaml")) // the workflows users copy
	require.NoError(t, err)
	require.NotEmpty(t, examples)
	files = append(files, examples...)
	linter, err := actionlint.NewLinter(io.Discard, &actionlint.LinterOptions{Shellcheck: shellcheck(t)})
	require.NoError(t, err)
	problems, err := linter.LintFiles(files, nil)
	require.NoError(t, err)
	for _, p := range problems {
		assert.Fail(t, "actionlint", "%s:%d:%d: %s [%s]", p.Filepath, p.Line, p.Column, p.Message, p.Kind)
	}
}

// The release scripts the workflow and make run pass shellcheck.
func TestReleaseScriptsPassShellcheck(t *testing.T) {
	path := shellcheck(t)
	if path == "" {
		t.Skip("shellcheck is not installed")
	}
	scripts, err := filepath.Glob(filepath.Join(root, "hack", "release", "*.sh"))
	require.NoError(t, err)
	require.NotEmpty(t, scripts)
	out, err := exec.Command(path, scripts...).CombinedOutput()
	assert.NoError(t, err, "%s", out)
}

// workflow is what these tests read of a workflow, as actionlint parses it (YAML 1.1 would
// take its "on" key for a boolean).
type workflow struct {
	events      map[string][]string // event: its tag filters
	permissions bool                // permissions at the top
	jobs        map[string]job
}

type job struct {
	permissions map[string]string
	runs        []string
}

func read(t *testing.T, name string) workflow {
	data, err := os.ReadFile(filepath.Join(root, ".github", "workflows", name))
	require.NoError(t, err)
	parsed, problems := actionlint.Parse(data)
	require.Empty(t, problems)
	w := workflow{events: map[string][]string{}, jobs: map[string]job{},
		permissions: parsed.Permissions != nil && (parsed.Permissions.All != nil || len(parsed.Permissions.Scopes) > 0)}
	for _, e := range parsed.On {
		if hook, ok := e.(*actionlint.WebhookEvent); ok {
			var tags []string
			if hook.Tags != nil {
				for _, tag := range hook.Tags.Values {
					tags = append(tags, tag.Value)
				}
			}
			w.events[hook.Hook.Value] = tags
		}
	}
	for id, j := range parsed.Jobs {
		got := job{permissions: map[string]string{}}
		if j.Permissions != nil {
			for scope, p := range j.Permissions.Scopes {
				got.permissions[scope] = p.Value.Value
			}
		}
		for _, step := range j.Steps {
			if run, ok := step.Exec.(*actionlint.ExecRun); ok {
				got.runs = append(got.runs, run.Run.Value)
			}
		}
		w.jobs[id] = got
	}
	return w
}

// makeTargets are the make targets a job's steps run, in order.
func makeTargets(w workflow, job string) []string {
	var targets []string
	for _, run := range w.jobs[job].runs {
		for _, field := range strings.Fields(run) {
			if slices.Contains([]string{"release-snapshot", "release-publish", "release-sign-keyless"}, field) {
				targets = append(targets, field)
			}
		}
	}
	return targets
}

// A tag vX.Y.Z runs make release-snapshot (what CI runs on every change, with its push to a
// registry in the process), then pushes the same dist to ghcr.io and signs it keyless, with no
// permission beyond the job that needs it; the Kyverno example trusts exactly this workflow's
// identity.
func TestReleaseWorkflow(t *testing.T) {
	w := read(t, "release.yaml")
	assert.Equal(t, map[string][]string{"push": {"v*.*.*"}}, w.events, "a release tag publishes, nothing else")
	assert.False(t, w.permissions, "no permission at the top: the job names its own")
	release := w.jobs["release"]
	assert.Equal(t, "write", release.permissions["id-token"], "keyless signing needs the workflow's OIDC token")
	assert.Equal(t, "write", release.permissions["packages"], "pushing to ghcr.io")
	assert.Equal(t, []string{"release-snapshot", "release-publish", "release-sign-keyless"}, makeTargets(w, "release"))

	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	require.NoError(t, err)
	for _, target := range makeTargets(w, "release") {
		assert.Regexp(t, "(?m)^"+target+":", string(makefile), "the Makefile has %s", target)
	}
	snapshot := regexp.MustCompile(`(?ms)^release-snapshot:.*?\n\n`).Find(makefile)
	assert.Contains(t, string(snapshot), "./hack/publish dist ", "the snapshot pushes as release-publish does")
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	require.NoError(t, err)
	assert.Contains(t, string(ci), "make release-reproducible", "CI runs the snapshot")

	policy, err := os.ReadFile(filepath.Join(root, "examples", "admission", "kyverno-llsd-images.yaml"))
	require.NoError(t, err)
	subjects := regexp.MustCompile(`subjectRegExp: "([^"]+)"`).FindAllStringSubmatch(string(policy), -1)
	require.NotEmpty(t, subjects)
	for _, s := range subjects {
		assert.Regexp(t, s[1], "https://github.com/llamastack/llsd/.github/workflows/release.yaml@refs/tags/v0.1.0",
			"the policy trusts the signatures this workflow makes")
	}
}

// Pull requests and main run .ci/run, which runs the README's test command.
func TestCIWorkflowRunsTheTests(t *testing.T) {
	w := read(t, "ci.yaml")
	assert.Contains(t, w.events, "pull_request")
	assert.Contains(t, strings.Join(w.jobs["test"].runs, "\n"), ".ci/run")
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	require.NoError(t, err)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	assert.Contains(t, string(readme), "make test")
	assert.Contains(t, string(ci), "\nmake test ")
}
