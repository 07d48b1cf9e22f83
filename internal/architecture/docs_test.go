// SPDX-License-Identifier: Apache-2.0

package architecture

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every test, fuzz target and benchmark the documents name as the proof of a claim exists: a
// renamed or removed test cannot leave a promise without its proof.
func TestDocumentsNameRealTests(t *testing.T) {
	root := filepath.Join("..", "..")
	defined := map[string]bool{}
	definition := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Za-z0-9_]+)\(`)
	require.NoError(t, filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		data, err := os.ReadFile(path)
		for _, m := range definition.FindAllStringSubmatch(string(data), -1) {
			defined[m[1]] = true
		}
		return err
	}))
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "SECURITY.md"), filepath.Join(root, "CONTRIBUTING.md"))
	named := regexp.MustCompile("`((?:Test|Fuzz|Benchmark)[A-Z][A-Za-z0-9_]*)")
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		for _, m := range named.FindAllStringSubmatch(string(data), -1) {
			checked++
			assert.True(t, defined[m[1]], "%s names %s, which no test file defines", filepath.Base(doc), m[1])
		}
	}
	assert.Greater(t, checked, 20, "the documents name their proofs")
}
