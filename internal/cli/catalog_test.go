// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/testsupport/golden"
)

// catalogMetadata are the fields of a function's metadata.yaml in the kpt function catalog.
type catalogMetadata struct {
	Image              string   `json:"image"`
	Description        string   `json:"description"`
	Tags               []string `json:"tags"`
	SourceURL          string   `json:"sourceURL"`
	ExamplePackageURLs []string `json:"examplePackageURLs"`
	Emails             []string `json:"emails,omitempty"`
	License            string   `json:"license"`
	Hidden             bool     `json:"hidden,omitempty"`
}

const repositoryURL = "https://github.com/llamastack/llsd/tree/main/"

// The catalog entry describes the function as it is: its image, a source and example kpt
// packages that exist here, and README.md is the documentation kpt fn doc prints, in the
// catalog's sections (make golden rewrites it from the function's help).
func TestCatalogEntry(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "catalog", "llsd", "metadata.yaml"))
	require.NoError(t, err)
	var m catalogMetadata
	require.NoError(t, yaml.UnmarshalStrict(data, &m), "only the catalog's fields")
	assert.Equal(t, "ghcr.io/llamastack/llsd", m.Image, "the function image the docs and the release name")
	assert.Contains(t, functionDoc, "--image "+m.Image+":")
	assert.NotEmpty(t, m.Description)
	assert.Equal(t, []string{"mutator"}, m.Tags)
	assert.Equal(t, "Apache-2.0", m.License)
	for _, url := range append([]string{m.SourceURL}, m.ExamplePackageURLs...) {
		path, ok := strings.CutPrefix(url, repositoryURL)
		require.True(t, ok, "%s is not in the repository", url)
		_, err := os.Stat(filepath.Join(root, path))
		assert.NoError(t, err, "%s names no directory of the repository", url)
	}
	for _, url := range m.ExamplePackageURLs {
		_, err := os.Stat(filepath.Join(root, strings.TrimPrefix(url, repositoryURL), "Kptfile"))
		assert.NoError(t, err, "%s is no kpt package", url)
	}
	golden.Check(t, filepath.Join(root, "catalog", "llsd", "README.md"), []byte(catalogReadme(functionDoc)))
}

// catalogReadme is the function's documentation as Markdown: its sections as headings, its
// indented examples as code blocks.
func catalogReadme(doc string) string {
	lines := strings.Split(strings.TrimRight(doc, "\n"), "\n")
	title, summary, _ := strings.Cut(lines[0], ": ")
	out := []string{"# " + title, "", strings.ToUpper(summary[:1]) + summary[1:] + "."}
	inCode := false
	for _, line := range lines[1:] {
		indented := strings.HasPrefix(line, "  ")
		switch {
		case indented && !inCode:
			out, inCode = append(out, "```"), true
		case !indented && line != "" && inCode:
			out, inCode = append(out, "```", ""), false
		}
		if line == "" && inCode {
			continue // a blank line inside an example ends nothing; the next unindented line does
		}
		if !inCode && (line == "Overview" || line == "Usage" || line == "FunctionConfig" || line == "Examples") {
			line = "## " + line
		}
		out = append(out, line)
	}
	if inCode {
		out = append(out, "```")
	}
	return strings.Join(out, "\n") + "\n"
}
