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

// Every link between the documents reaches a file that exists and, with an anchor, a heading
// of that file: moving a section cannot leave a reader at a dead link.
func TestDocumentLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	docs = append(docs, filepath.Join(root, "README.md"), filepath.Join(root, "SECURITY.md"), filepath.Join(root, "CONTRIBUTING.md"))
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	checked := 0
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		require.NoError(t, err)
		prose := codeSpan.ReplaceAllString(string(data), "")
		for _, m := range link.FindAllStringSubmatch(prose, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := doc
			if file != "" {
				path = filepath.Join(filepath.Dir(doc), file)
			}
			checked++
			content, err := os.ReadFile(path)
			if info, statErr := os.Stat(path); statErr == nil && info.IsDir() {
				continue // a directory of the repository
			}
			if !assert.NoError(t, err, "%s links %s, which does not exist", filepath.Base(doc), target) || anchor == "" {
				continue
			}
			assert.Contains(t, headingAnchors(string(content)), anchor, "%s links %s: no such heading", filepath.Base(doc), target)
		}
	}
	assert.Greater(t, checked, 20, "the documents link each other")
}

// codeSpan is inline code, which holds no links.
var codeSpan = regexp.MustCompile("`[^`\n]*`")

// headingAnchors are the anchors GitHub gives a markdown file's headings.
func headingAnchors(markdown string) []string {
	var out []string
	fenced := false
	for _, line := range strings.Split(markdown, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
		var b strings.Builder
		for _, r := range title {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
				b.WriteRune(r)
			}
		}
		out = append(out, b.String())
	}
	return out
}

// The server's TLS and the addresses the spec names are decided in one place (the v1alpha2
// resolver: ServerTLS, Endpoints, ParseEndpoint): no other product package re-reads
// networking.tls or parses a URL of the spec.
func TestTLSAndEndpointsAreResolvedOnce(t *testing.T) {
	root := filepath.Join("..", "..")
	reread := regexp.MustCompile(`url\.Parse\(|\.Networking\.TLS\b|GetTLS\(`)
	for _, dir := range []string{"internal/config", "internal/render", "internal/controller", "internal/migrate", "internal/pipeline", "internal/krm", "internal/cli", "pkg/api"} {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		require.NoError(t, err)
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			for _, m := range reread.FindAllString(string(data), -1) {
				t.Errorf("%s: %s: read the resolved view (v1alpha2 ServerTLS, Endpoints, ParseEndpoint) instead", f, m)
			}
		}
	}
}

// Each file of the render package has its tests beside it (<file>_test.go, or
// <file>_internal_test.go for unexported helpers): a reader finds what a file promises next to it.
func TestRenderFilesHaveTestsBesideThem(t *testing.T) {
	dir := filepath.Join("..", "..", "internal", "render")
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	require.NoError(t, err)
	for _, f := range files {
		stem := strings.TrimSuffix(filepath.Base(f), ".go")
		if strings.HasSuffix(stem, "_test") || stem == "doc" {
			continue
		}
		_, errExternal := os.Stat(filepath.Join(dir, stem+"_test.go"))
		_, errInternal := os.Stat(filepath.Join(dir, stem+"_internal_test.go"))
		assert.True(t, errExternal == nil || errInternal == nil, "internal/render/%s.go has no %s_test.go beside it", stem, stem)
	}
}

// The guides in docs/ are for the people who run llsd: they say what it does, not which test
// proves it. Those proofs are listed once, in CONTRIBUTING.md ("What proves the guides"); the
// contributors' documents (architecture, benchmarks) may name tests where they explain them.
func TestGuidesNameNoTests(t *testing.T) {
	root := filepath.Join("..", "..")
	guides := []string{"configuring", "controller", "getting-started", "kserve", "ogxserver", "openshift-ai", "platform", "troubleshooting", "upgrading", "api-reference"}
	named := regexp.MustCompile("`(?:Test|Fuzz|Benchmark)[A-Z][A-Za-z0-9_]*`")
	for _, guide := range guides {
		data, err := os.ReadFile(filepath.Join(root, "docs", guide+".md"))
		require.NoError(t, err)
		assert.Empty(t, named.FindAllString(string(data), -1), "docs/%s.md names tests; list them in CONTRIBUTING.md's \"What proves the guides\"", guide)
	}
}
