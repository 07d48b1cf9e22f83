// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// The README's quick start runs as written, as a new user runs it: its shell blocks, in order,
// in a fresh copy of the repository with a home of its own (so make install puts the tools in
// ~/.local/bin), against a real API server that has nothing of llsd's installed, as a fresh
// cluster; then every command of its examples table, with those tools on PATH. The README
// cannot promise a command that does not work.
func TestReadmeQuickStart(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	kpt := kptPath(t)
	kubectl := toolOnPath(t, "KUBECTL", "kubectl", "install kubectl")
	testenv.Need(t, testenv.MissingAssets())
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	quickStart := section(string(readme), "## Quick start")
	blocks := shellBlocks(quickStart)
	require.NotEmpty(t, blocks, "the quick start has shell blocks")
	examples := exampleCommands(section(string(readme), "## Examples"))
	require.GreaterOrEqual(t, len(examples), 5, "the examples table names its commands")

	_, kubeconfig := apiServerAsAdminWith(t, testenv.StartBare)
	scratch := t.TempDir()
	clone := filepath.Join(scratch, "llsd")
	copyRepository(t, root, clone)
	home := filepath.Join(scratch, "home")
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(scratch, "kubeconfig"), kubeconfig, 0o600))
	shellEnv := readmeEnv(t, home, kustomize, filepath.Join(scratch, "kubeconfig"), kpt, kubectl)

	out := bash(t, clone, shellEnv, strings.Join(blocks, "\n"))
	assert.Contains(t, out, "serverside-applied", "kubectl applied the rendered objects")
	manifests, err := os.ReadFile(filepath.Join(clone, "manifests.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(manifests), "kind: Deployment")
	for _, command := range examples {
		t.Run(command, func(t *testing.T) {
			bash(t, clone, append(shellEnv, "PATH="+filepath.Join(home, ".local", "bin")+":"+envValue(shellEnv, "PATH")), command)
		})
	}
}

// section is the text of a markdown section: from its heading to the next of its level.
func section(markdown, heading string) string {
	_, rest, found := strings.Cut(markdown, "\n"+heading+"\n")
	if !found {
		return ""
	}
	if end := strings.Index(rest, "\n## "); end >= 0 {
		rest = rest[:end]
	}
	return rest
}

var shellBlock = regexp.MustCompile("(?s)```sh\n(.*?)```")

func shellBlocks(text string) []string {
	var out []string
	for _, m := range shellBlock.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// exampleCommands are the kustomize and kpt commands of the examples table.
func exampleCommands(table string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`((?:kustomize|kpt) [^`]+)`").FindAllStringSubmatch(table, -1) {
		out = append(out, m[1])
	}
	return out
}

// copyRepository copies what a clone holds (the tracked files and new ones not ignored).
func copyRepository(t *testing.T, root, to string) {
	list := exec.Command("git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	list.Dir = root
	files, err := list.Output()
	require.NoError(t, err)
	for _, name := range strings.Split(strings.TrimRight(string(files), "\x00"), "\x00") {
		from := filepath.Join(root, name)
		info, err := os.Lstat(from)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		data, err := os.ReadFile(from)
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(to, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(to, name), data, info.Mode().Perm()|fs.FileMode(0o200)))
	}
}

// readmeEnv is a new user's environment: a home of its own, the Go caches and llsd's tool
// cache of this machine (so nothing is downloaded or built twice), the test API server, and
// kpt and kubectl on PATH. make's variables of the surrounding run are left out.
func readmeEnv(t *testing.T, home, kustomize, kubeconfig string, tools ...string) []string {
	goEnv := map[string]string{}
	for _, name := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		out, err := exec.Command("go", "env", name).Output()
		require.NoError(t, err)
		goEnv[name] = strings.TrimSpace(string(out))
	}
	path := os.Getenv("PATH")
	for _, tool := range tools {
		path = filepath.Dir(tool) + ":" + path
	}
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "HOME", "PATH", "KUBECONFIG", "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "GOCACHE", "GOMODCACHE", "GOPATH", "LLSD_CACHE":
			continue
		}
		env = append(env, kv)
	}
	// make test's kustomize is <LLSD_CACHE>/tools/kustomize-<key>/kustomize.
	llsdCache := filepath.Dir(filepath.Dir(filepath.Dir(kustomize)))
	return append(env, "HOME="+home, "PATH="+path, "KUBECONFIG="+kubeconfig, "LLSD_CACHE="+llsdCache,
		"GOCACHE="+goEnv["GOCACHE"], "GOMODCACHE="+goEnv["GOMODCACHE"], "GOPATH="+goEnv["GOPATH"])
}

func envValue(env []string, name string) string {
	for _, kv := range env {
		if value, ok := strings.CutPrefix(kv, name+"="); ok {
			return value
		}
	}
	return ""
}

// bash runs a script as a user's shell would, failing on the first command that fails.
func bash(t *testing.T, dir string, env []string, script string) string {
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", script)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), "%s\n%s", script, out.String())
	return out.String()
}
