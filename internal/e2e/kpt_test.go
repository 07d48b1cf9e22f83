// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kpt is on the CI machine; locally it skips when absent.
func kptPath(t *testing.T) string {
	return toolOnPath(t, "KPT", "kpt", "install kpt 1.0.0-beta.56 or set KPT")
}

func kptPackage(t *testing.T) string { return kptPackageOf(t, fmt.Sprintf(stackLLSD, "")) }

// kptPackageOf is a kpt package whose pipeline runs llsd on llsd.yaml.
func kptPackageOf(t *testing.T, llsd string) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Kptfile": fmt.Sprintf(`apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: stack
pipeline:
  mutators:
    - exec: %s
`, llsdBinary),
		"llsd.yaml": llsd,
	})
	return dir
}

// packageFiles reads every file of a package, by relative path.
func packageFiles(t *testing.T, dir string) map[string]string {
	files := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = string(data)
		return err
	}))
	return files
}

// kpt fn render writes an LLSD's objects into one file beside it; rendering again changes
// nothing, and after an edit the file holds the new objects only (no stale ConfigMap).
func TestKptRenderTwice(t *testing.T) {
	kpt := kptPath(t)
	dir := kptPackage(t)
	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	first := packageFiles(t, dir)
	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	assert.Equal(t, first, packageFiles(t, dir))

	var names []string
	for name := range first {
		names = append(names, name)
	}
	sort.Strings(names)
	assert.Equal(t, []string{"Kptfile", "demo.generated.yaml", "llsd.yaml"}, names)
	generated := first["demo.generated.yaml"]
	assert.Equal(t, 1, strings.Count(generated, "\nkind: Deployment"))
	assert.Contains(t, first["llsd.yaml"], "llamastack.io/config-map: demo-config-", "the LLSD carries its render receipt")

	edited := strings.Replace(first["llsd.yaml"], "llama3", "llama4", 1)
	writeFiles(t, dir, map[string]string{"llsd.yaml": edited})
	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	after := packageFiles(t, dir)
	assert.Len(t, after, 3)
	assert.Equal(t, 1, strings.Count(after["demo.generated.yaml"], "\nkind: ConfigMap"), "the old ConfigMap is gone")
	assert.NotEqual(t, generated, after["demo.generated.yaml"])
	assert.Contains(t, after["demo.generated.yaml"], "llama4")
}

// kpt fn eval --exec gives the same objects as llsd render.
func TestKptEvalMatchesRender(t *testing.T) {
	kpt := kptPath(t)
	dir := kptPackage(t)
	out := run(t, dir, kpt, "fn", "eval", ".", "--exec", llsdBinary, "-o", "unwrap")
	got := objects(t, out)
	delete(got, "Kptfile/stack") // -o unwrap includes local-config objects
	rendered := objects(t, run(t, dir, llsdBinary, "render", filepath.Join(dir, "llsd.yaml")))
	assertSameRender(t, rendered, got)
}

// kpt keeps the user's file as it is written: comments, shorthand and apiVersion (a v1alpha1
// object stays v1alpha1); only the receipt annotations are added, and a second render
// changes nothing.
func TestKptKeepsTheSource(t *testing.T) {
	kpt := kptPath(t)
	source := `# The chat server of the team.
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: chat # the Service becomes chat-service
  namespace: ai
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000/v1"} # shorthand: one provider
  resources:
    models: [llama3]
---
# An object of the upstream operator.
apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata:
  name: legacy
  namespace: ai
spec:
  replicas: 1
  server:
    distribution: {name: starter}
`
	dir := kptPackageOf(t, source)
	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	after := packageFiles(t, dir)["llsd.yaml"]
	for _, kept := range []string{"# The chat server of the team.", "name: chat # the Service becomes chat-service",
		`inference: {provider: vllm, endpoint: "http://vllm:8000/v1"} # shorthand: one provider`, "models: [llama3]",
		"# An object of the upstream operator.", "apiVersion: llamastack.io/v1alpha1", "  server:\n    distribution: {name: starter}"} {
		assert.Contains(t, after, kept)
	}
	assert.Equal(t, 2, strings.Count(after, "llamastack.io/config-map: "), "both carry their receipt")
	withoutReceipts := regexp.MustCompile(`(?m)^ *(annotations:|llamastack\.io/[a-z-]+: .*)\n`).ReplaceAllString(after, "")
	assert.Equal(t, source, withoutReceipts, "only the receipt annotations were added")

	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	assert.Equal(t, after, packageFiles(t, dir)["llsd.yaml"])
}

// kpt shows a function's results itself: each warning is said once, not again on stderr (#44).
func TestKptSaysEachWarningOnce(t *testing.T) {
	kpt := kptPath(t)
	llsd := strings.Replace(fmt.Sprintf(stackLLSD, ""), "spec:\n", "spec:\n  networking: {expose: {hostname: llama.example.com}}\n", 1)
	dir := kptPackageOf(t, llsd)
	cmd := exec.Command(kpt, "fn", "render", "--allow-exec", ".")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Equal(t, 1, strings.Count(string(out), "authenticates nobody"), string(out))
	assert.NotContains(t, string(out), `""`, "no empty line of stderr")
}

// A kpt root package whose subpackage has render options of its own (its configPath file):
// the root's pipeline sees the subpackage's files too, and renders each with the options of
// its directory, as the subpackage's own pipeline and `llsd render` of the root do — the
// subpackage's options (OpenShift: a Route) do not become the root's (an Ingress).
func TestKptSubpackageOptionsStayInTheSubpackage(t *testing.T) {
	kpt := kptPath(t)
	t.Setenv("PATH", filepath.Dir(llsdBinary)+":"+os.Getenv("PATH"))
	root := t.TempDir()
	sub := filepath.Join(root, "team")
	require.NoError(t, os.Mkdir(sub, 0o755))
	stack := func(name string) string {
		return "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: " + name + ", namespace: ai}\n" +
			"spec:\n  distribution: {name: starter}\n  networking: {expose: {hostname: " + name + ".apps.example.com}}\n"
	}
	kptfile := func(name, config string) string {
		return "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: " + name + "\n  annotations: {config.kubernetes.io/local-config: \"true\"}\n" +
			"pipeline:\n  mutators:\n  - exec: llsd\n" + config
	}
	writeFiles(t, root, map[string]string{"Kptfile": kptfile("root", ""), "stack.yaml": stack("platform")})
	writeFiles(t, sub, map[string]string{"Kptfile": kptfile("team", "    configPath: options.yaml\n"), "stack.yaml": stack("team"),
		"options.yaml": "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata:\n  name: team\n" +
			"  annotations: {config.kubernetes.io/local-config: \"true\"}\nspec: {platform: openshift}\n"})

	got := objects(t, run(t, root, kpt, "fn", "render", "--allow-exec", "-o", "unwrap", "."))
	assert.Contains(t, got, "Ingress/platform-ingress", "the root's stack, with the root's (no) options")
	assert.Contains(t, got, "Route/team-route", "the subpackage's stack, with its own options")
	assert.NotContains(t, got, "Route/platform-route")
	for k := range got {
		if strings.HasPrefix(k, "Kptfile/") || strings.HasPrefix(k, "RenderOptions/") {
			delete(got, k) // local configuration: -o unwrap includes it, llsd render drops it
		}
	}
	assertSameRender(t, objects(t, run(t, root, llsdBinary, "render", root)), got)
}
