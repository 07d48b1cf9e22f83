// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// The review workflow of examples/ci, its Review step run as GitHub runs it (bash, the runner's
// variables, llsd on PATH) on a git repository with two commits: the pull request turns the
// server's authentication off and removes a model. The step renders the base commit and the
// change, writes the Markdown the next step comments, and says the change is breaking.
func TestReviewWorkflowExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "ci", "llsd-review.yaml"))
	require.NoError(t, err)
	var workflow struct {
		Jobs map[string]struct {
			Env   map[string]string `json:"env"`
			Steps []struct {
				Name string `json:"name"`
				Run  string `json:"run"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	require.NoError(t, yaml.Unmarshal(data, &workflow))
	job := workflow.Jobs["review"]
	script := ""
	for _, step := range job.Steps {
		if step.Name == "Review" {
			script = step.Run
		}
	}
	require.NotEmpty(t, script, "the example has a Review step")

	repo, runner := t.TempDir(), t.TempDir()
	git := func(args ...string) string {
		return strings.TrimSpace(string(run(t, repo, "git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)))
	}
	stack := func(spec string) map[string]string {
		return map[string]string{"llsd.yaml": "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\n" +
			"metadata: {name: chat, namespace: ai}\nspec:\n  distribution: {name: starter}\n" +
			"  providers:\n    inference: {provider: vllm, endpoint: 'http://vllm.models:8000/v1'}\n" + spec}
	}
	git("init", "-q")
	dir := filepath.Join(repo, job.Env["STACKS"])
	require.NoError(t, os.MkdirAll(dir, 0o755))
	writeFiles(t, dir, stack("  resources:\n    models: [granite, llama]\n  authentication: {kubernetes: {}}\n"))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	writeFiles(t, dir, stack("  resources:\n    models: [granite]\n"))
	git("commit", "-q", "-a", "-m", "the change")

	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = repo
	output := filepath.Join(runner, "output")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(llsdBinary)+":"+os.Getenv("PATH"), "RUNNER_TEMP="+runner,
		"GITHUB_OUTPUT="+output, "BASE="+base, "STACKS="+job.Env["STACKS"])
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	status, err := os.ReadFile(output)
	require.NoError(t, err)
	assert.Equal(t, "status=3\n", string(status), "a breaking finding: the last step fails the check")
	review, err := os.ReadFile(filepath.Join(runner, "review.md"))
	require.NoError(t, err)
	for _, want := range []string{"**ai/chat**", "| breaking | `spec.resources.models` | models are removed: llama",
		"| security | `spec.authentication` | authentication is off (it was kubernetes)"} {
		assert.Contains(t, string(review), want)
	}
}
