// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pre-commit hook of .pre-commit-hooks.yaml, as a GitOps repository takes it: pre-commit
// (the real one) builds llsd from this repository and runs it when a YAML file changes; a valid
// stack passes, one that the server would refuse fails the commit with the field and the fix,
// and a RenderOptions beside the stacks (a platform's pinned options) is applied.
func TestPreCommitHook(t *testing.T) {
	preCommit := toolOnPath(t, "PRE_COMMIT", "pre-commit", "install pre-commit (apt-get install pre-commit; .ci/run does)")
	llsdRepo, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	repo := t.TempDir()
	git := func(args ...string) {
		run(t, repo, "git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	}
	git("init", "-q")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "stacks", "chat"), 0o755))
	stack := func(spec string) map[string]string {
		return map[string]string{"llsd.yaml": "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\n" +
			"metadata: {name: chat, namespace: team-a}\nspec:\n  distribution: {name: starter}\n" + spec}
	}
	const vllm = "  providers:\n    inference: {provider: vllm, endpoint: 'http://vllm.team-a.svc:8000/v1'}\n"
	writeFiles(t, filepath.Join(repo, "stacks", "chat"), stack(vllm+"  resources:\n    models: [llama3]\n"))
	writeFiles(t, repo, map[string]string{"README.md": "# stacks\n"})
	git("add", "-A")

	home := t.TempDir() // pre-commit's cache of hook environments: built once for both runs
	hook := func() (string, error) {
		cmd := exec.Command(preCommit, "try-repo", llsdRepo, "llsd-validate", "--all-files")
		cmd.Dir = repo
		// the Go that runs the tests builds the hook, with the module cache it already has
		cmd.Env = append(os.Environ(), "PRE_COMMIT_HOME="+home, "GOTOOLCHAIN=local", "GOMODCACHE="+goEnv(t, "GOMODCACHE"), "GOFLAGS=")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.String(), err
	}
	out, err := hook()
	require.NoError(t, err, "%s", out)
	assert.Contains(t, out, "llsd validate")
	assert.Contains(t, out, "Passed")

	// a model no provider serves: the server refuses it at start-up
	writeFiles(t, filepath.Join(repo, "stacks", "chat"), stack(vllm+"  resources:\n    models: [{name: llama3, provider: ollama}]\n"))
	git("add", "-A")
	out, err = hook()
	require.Error(t, err, "%s", out)
	assert.Contains(t, out, "Failed")
	assert.Contains(t, out, "spec.resources.models[0].provider")

	// the platform's options beside the stacks: a Pod Security Standard the overrides break
	writeFiles(t, filepath.Join(repo, "stacks", "chat"), stack("  workload:\n    overrides:\n      volumes: [{name: root, hostPath: {path: /}}]\n"))
	writeFiles(t, filepath.Join(repo, "stacks"), map[string]string{"options.yaml": `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: platform}
spec: {podSecurity: restricted}
`})
	git("add", "-A")
	out, err = hook()
	require.Error(t, err, "%s", out)
	assert.Contains(t, out, "spec.workload.overrides.volumes")
	assert.True(t, strings.Contains(out, "restricted"), "%s", out)
}

func goEnv(t *testing.T, name string) string {
	out, err := exec.Command("go", "env", name).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}
