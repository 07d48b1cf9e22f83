// SPDX-License-Identifier: Apache-2.0

// Package e2e runs llsd under the real tools users run it with. Each tool's path comes
// from an environment variable that `make test` sets (KUSTOMIZE, ...); without it the test
// skips locally and fails in CI.
package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
)

var llsdBinary, controllerBinary, identityBinary, rsswrapBinary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "llsd-e2e")
	if err != nil {
		panic(err)
	}
	llsdBinary = filepath.Join(dir, "llsd")
	controllerBinary = filepath.Join(dir, "llsd-controller")
	identityBinary = filepath.Join(dir, "identityfn")
	rsswrapBinary = filepath.Join(dir, "rsswrap")
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	if _, set := os.LookupEnv("CONTAINERS_CONF"); !set {
		// podman's settings for a sandbox without CAP_SYS_RESOURCE, as make test sets them, so
		// that go test ./... runs the container-mode tests as make test does (CONTAINERS_CONF=
		// set to nothing keeps podman's own)
		_ = os.Setenv("CONTAINERS_CONF", filepath.Join(root, "hack", "image", "containers.conf"))
	}
	for binary, pkg := range map[string]string{llsdBinary: "./cmd/llsd", controllerBinary: "./cmd/llsd-controller",
		identityBinary: "./internal/e2e/identityfn", rsswrapBinary: "./internal/e2e/rsswrap"} {
		// The version the examples' expected output records in its receipts.
		build := exec.Command("go", "build", "-trimpath", "-ldflags=-X github.com/llamastack/llsd/internal/version.version=devel", "-o", binary, pkg)
		build.Dir, build.Stderr, build.Env = root, os.Stderr, append(os.Environ(), "CGO_ENABLED=0")
		if err := build.Run(); err != nil {
			panic("building " + pkg + ": " + err.Error())
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// tool returns the path of a tool from its environment variable, or skips (fails in CI).
func tool(t *testing.T, env, how string) string {
	path := os.Getenv(env)
	if path == "" {
		testenv.Need(t, env+" is not set: "+how)
	}
	return path
}

// toolOnPath is the tool named by env, else the binary on PATH, else it skips (fails in CI).
func toolOnPath(t *testing.T, env, binary, how string) string {
	if p := os.Getenv(env); p != "" {
		return p
	}
	if p, err := exec.LookPath(binary); err == nil {
		return p
	}
	return tool(t, env, how)
}

func run(t *testing.T, dir string, name string, args ...string) []byte {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "%s %s: %s", name, strings.Join(args, " "), stderr.String())
	return out
}

// runFailing runs a command that must fail, with nothing on stdout, and returns its stderr.
func runFailing(t *testing.T, dir string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.Error(t, err, "%s %s succeeded", name, strings.Join(args, " "))
	assert.Empty(t, string(out), "nothing on stdout on error")
	return stderr.String()
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
}

// objects parses a YAML stream into objects keyed by kind/name, without the annotations
// orchestrators add for their own bookkeeping.
func objects(t *testing.T, stream []byte) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, doc := range bytes.Split(stream, []byte("\n---")) {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var o map[string]any
		require.NoError(t, yaml.Unmarshal(doc, &o))
		md, _ := o["metadata"].(map[string]any)
		if a, ok := md["annotations"].(map[string]any); ok {
			for k := range a {
				if strings.HasPrefix(k, "config.kubernetes.io/") || strings.HasPrefix(k, "internal.config.kubernetes.io/") ||
					strings.HasPrefix(k, "config.k8s.io/") || strings.HasPrefix(k, "kustomize.config.k8s.io/") {
					delete(a, k)
				}
			}
			if len(a) == 0 {
				delete(md, "annotations")
			}
		}
		out[o["kind"].(string)+"/"+md["name"].(string)] = o
	}
	return out
}

// assertSameObjects compares two renders object by object, so a difference names the object.
func assertSameObjects(t *testing.T, want, got map[string]map[string]any) {
	t.Helper()
	require.Equal(t, keys(want), keys(got))
	for k := range want {
		assert.Equal(t, want[k], got[k], k)
	}
}

// assertSameRender compares kpt's output with llsd render's: kpt keeps each LLSD as its file
// has it (only the receipt is added), llsd render writes the canonical form; their receipts
// and every generated object are the same.
func assertSameRender(t *testing.T, render, kpt map[string]map[string]any) {
	t.Helper()
	assertSameObjects(t, receiptsOnly(render), receiptsOnly(kpt))
}

// receiptsOnly keeps of each LLSD its name and its receipt annotations.
func receiptsOnly(objs map[string]map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for k, o := range objs {
		if !strings.HasPrefix(k, "LlamaStackDistribution/") {
			out[k] = o
			continue
		}
		md := o["metadata"].(map[string]any)
		receipt := map[string]any{}
		for key, v := range md["annotations"].(map[string]any) {
			if slices.Contains(api.ReceiptKeys, key) {
				receipt[key] = v
			}
		}
		out[k] = map[string]any{"name": md["name"], "namespace": md["namespace"], "receipt": receipt}
	}
	return out
}

func keys(m map[string]map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}
