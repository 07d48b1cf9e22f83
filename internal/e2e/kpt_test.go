// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kpt is on the CI machine; locally it skips when absent.
func kptPath(t *testing.T) string {
	if p := os.Getenv("KPT"); p != "" {
		return p
	}
	if p, err := exec.LookPath("kpt"); err == nil {
		return p
	}
	return tool(t, "KPT", "install kpt 1.0.0-beta.56 or set KPT")
}

func kptPackage(t *testing.T) string {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"Kptfile":   fmt.Sprintf("apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: stack\npipeline:\n  mutators:\n    - exec: %s\n", llsdBinary),
		"llsd.yaml": fmt.Sprintf(stackLLSD, ""),
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

// kpt fn render writes the objects into the package; rendering again changes nothing (the
// previous objects are replaced, not duplicated).
func TestKptRenderTwice(t *testing.T) {
	kpt := kptPath(t)
	dir := kptPackage(t)
	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	first := packageFiles(t, dir)
	run(t, dir, kpt, "fn", "render", "--allow-exec", ".")
	second := packageFiles(t, dir)
	assert.Equal(t, first, second)

	var names []string
	for name := range first {
		names = append(names, name)
	}
	sort.Strings(names)
	all := strings.Join(names, " ")
	assert.Contains(t, all, "ai/deployment_demo.yaml")
	assert.Contains(t, all, "ai/service_demo-service.yaml")
	deployments := 0
	for _, content := range first {
		deployments += strings.Count(content, "kind: Deployment")
	}
	assert.Equal(t, 1, deployments)
	assert.Contains(t, first["llsd.yaml"], "llamastack.io/config-map: demo-config-", "the LLSD carries its render receipt")
}

// kpt fn eval --exec gives the same objects as llsd render.
func TestKptEvalMatchesRender(t *testing.T) {
	kpt := kptPath(t)
	dir := kptPackage(t)
	out := run(t, dir, kpt, "fn", "eval", ".", "--exec", llsdBinary, "-o", "unwrap")
	got := objects(t, out)
	delete(got, "Kptfile/stack") // -o unwrap includes local-config objects
	rendered := objects(t, run(t, dir, llsdBinary, "render", filepath.Join(dir, "llsd.yaml")))
	require.Equal(t, keys(rendered), keys(got))
	for k := range rendered {
		assert.Equal(t, rendered[k], got[k], k)
	}
}
