// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"os"
	"path/filepath"
	"testing"

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
		{"kustomize/transformer", kustomizeBuild},
		{"kustomize/generator", kustomizeBuild},
		{"kpt", kptRender},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			src := filepath.Join(examples, tc.dir)
			dir := t.TempDir()
			entries, err := os.ReadDir(src)
			require.NoError(t, err)
			for _, e := range entries {
				if e.Name() == "expected.yaml" {
					continue
				}
				data, err := os.ReadFile(filepath.Join(src, e.Name()))
				require.NoError(t, err)
				writeFiles(t, dir, map[string]string{e.Name(): string(data)})
			}
			got := tc.render(t, dir)
			expected := filepath.Join(src, "expected.yaml")
			if *update {
				require.NoError(t, os.WriteFile(expected, got, 0o644))
			}
			want, err := os.ReadFile(expected)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
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
