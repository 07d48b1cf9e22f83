// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/llamastack/llsd/internal/testsupport/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every example renders to the expected.yaml checked in next to it, through the tool it is
// written for, with llsd on PATH as the examples assume.
func TestExamples(t *testing.T) {
	t.Setenv("PATH", filepath.Dir(llsdBinary)+":"+os.Getenv("PATH"))
	examples := filepath.Join("..", "..", "examples")
	for _, tc := range []struct {
		dir    string
		render func(t *testing.T, dir string) []byte
	}{
		{dir: "kustomize/transformer", render: kustomizeBuild},
		{dir: "kustomize/generator", render: kustomizeBuild},
		{dir: "kpt", render: kptRender},
		{dir: "openshift", render: kustomizeBuild},
		{dir: "ogxserver/kustomize", render: kustomizeBuild},
		{dir: "ogxserver/kpt", render: kptRender},
		{dir: "kserve/kustomize", render: kustomizeBuild},
		{dir: "kserve/kpt", render: kptRender},
		{dir: "llm-d/kustomize", render: kustomizeBuild},
		{dir: "llm-d/kpt", render: kptRender},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			src := filepath.Join(examples, tc.dir)
			dir := t.TempDir()
			entries, err := os.ReadDir(src)
			require.NoError(t, err)
			var inputs []string
			for _, e := range entries {
				if e.Name() != "expected.yaml" {
					inputs = append(inputs, e.Name())
				}
			}
			copyTree(t, src, dir, inputs...)
			got := tc.render(t, dir)
			golden.Check(t, filepath.Join(src, "expected.yaml"), got)
		})
	}
}

func kustomizeBuild(t *testing.T, dir string) []byte {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	return run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", ".")
}

func kptRender(t *testing.T, dir string) []byte {
	return run(t, dir, kptPath(t), "fn", "render", "--allow-exec", "-o", "unwrap", ".")
}

// exampleLLSDs are the LlamaStackDistribution and OGXServer files under examples/.
var exampleLLSDs = []string{"kustomize/transformer/llsd.yaml", "kustomize/generator/llsd.yaml", "kpt/llsd.yaml", "argocd/app/llsd.yaml",
	"ogxserver/kustomize/ogxserver.yaml", "ogxserver/kpt/ogxserver.yaml", "kserve/kpt/llsd.yaml", "llm-d/kpt/llsd.yaml"}

// exampleInputs are the other inputs of the example LLSDs: what a provider is derived from.
var exampleInputs = []string{"kserve/kpt/servingruntime.yaml", "kserve/kpt/inferenceservice.yaml",
	"llm-d/kpt/llminferenceservice.yaml", "llm-d/kpt/options.yaml"}

// The repository root is a kpt package of the examples: it renders every example LLSD and
// nothing else, and rendering it in place twice leaves the same files.
func TestRootKptPackage(t *testing.T) {
	kpt := kptPath(t)
	t.Setenv("PATH", filepath.Dir(llsdBinary)+":"+os.Getenv("PATH"))
	root := filepath.Join("..", "..")
	dir := t.TempDir()
	copyTree(t, root, dir, "Kptfile", ".krmignore", "examples")

	got := objects(t, run(t, dir, kpt, "fn", "render", "--allow-exec", "-o", "unwrap", "."))
	for k := range got {
		if strings.HasPrefix(k, "Kptfile/") || strings.HasPrefix(k, "RenderOptions/") || strings.HasPrefix(k, "OGXServer/") {
			delete(got, k) // local configuration: -o unwrap includes it, llsd render drops it
		}
	}
	args := []string{"render"}
	for _, f := range append(slices.Clone(exampleLLSDs), exampleInputs...) {
		args = append(args, filepath.Join(dir, "examples", f))
	}
	assertSameRender(t, objects(t, run(t, dir, llsdBinary, args...)), got)

	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	first := packageFiles(t, dir)
	for _, f := range exampleLLSDs {
		assert.Contains(t, first, filepath.Join("examples", filepath.Dir(f), llsdName(t, first[filepath.Join("examples", f)])+".generated.yaml"))
	}
	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	assert.Equal(t, first, packageFiles(t, dir))
}

// copyTree copies the named files and directories of src into dst, without generated files.
func copyTree(t *testing.T, src, dst string, names ...string) {
	for _, name := range names {
		require.NoError(t, filepath.WalkDir(filepath.Join(src, name), func(path string, d os.DirEntry, err error) error {
			if err != nil || strings.HasSuffix(path, ".generated.yaml") {
				return err
			}
			rel, _ := filepath.Rel(src, path)
			if d.IsDir() {
				return os.MkdirAll(filepath.Join(dst, rel), 0o755)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
		}))
	}
}

// llsdName is the name of the first LlamaStackDistribution or OGXServer in a file.
func llsdName(t *testing.T, content string) string {
	for k := range objects(t, []byte(content)) {
		for _, kind := range []string{"LlamaStackDistribution/", "OGXServer/"} {
			if name, ok := strings.CutPrefix(k, kind); ok {
				return name
			}
		}
	}
	t.Fatalf("no LlamaStackDistribution or OGXServer in %q", content)
	return ""
}

// make demo renders every example package: each directory of examples/ holding a
// LlamaStackDistribution or an OGXServer is one of the Makefile's DEMO_PACKAGES (#56: the
// KServe, llm-d and OGXServer examples were left out).
func TestMakeDemoRendersEveryExample(t *testing.T) {
	root := filepath.Join("..", "..")
	makefile, err := os.ReadFile(filepath.Join(root, "Makefile"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^DEMO_PACKAGES := ((?:.*\\\n)*.*)$`).FindSubmatch(makefile)
	require.NotNil(t, m, "the Makefile lists DEMO_PACKAGES")
	listed := strings.Fields(strings.ReplaceAll(string(m[1]), "\\", ""))
	var packages []string
	require.NoError(t, filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") || filepath.Base(path) == "expected.yaml" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if regexp.MustCompile(`(?m)^kind: (LlamaStackDistribution|OGXServer)$`).Match(data) {
			dir, _ := filepath.Rel(root, filepath.Dir(path))
			if !slices.Contains(packages, dir) {
				packages = append(packages, dir)
			}
		}
		return nil
	}))
	assert.ElementsMatch(t, packages, listed)
}
