// SPDX-License-Identifier: Apache-2.0

package fastcodec_test

import (
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"os"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/fastcodec"
)

// The emitter writes every base config and every generated config of the golden cases byte
// for byte as yaml.v3 does.
func TestEmitterMatchesYAMLv3(t *testing.T) {
	var trees []map[string]any
	require.NoError(t, fs.WalkDir(distributions.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := distributions.FS.ReadFile(path)
		require.NoError(t, err)
		tree, err := configyaml.UnmarshalMap(data)
		require.NoError(t, err, path)
		trees = append(trees, tree)
		return nil
	}))
	goldens, err := filepath.Glob(filepath.Join("..", "config", "testdata", "*", "config.yaml"))
	require.NoError(t, err)
	for _, f := range goldens {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		tree, err := configyaml.UnmarshalMap(data)
		require.NoError(t, err, f)
		trees = append(trees, tree)
	}
	require.Greater(t, len(trees), 50)
	for i, tree := range trees {
		want, err := fastcodec.EncodeTree(tree)
		require.NoError(t, err)
		got, err := fastcodec.Emit(tree)
		require.NoError(t, err, "tree %d is one the emitter writes", i)
		assert.Equal(t, string(want), string(got), "tree %d", i)
	}
}

// Whatever the tree, TreeYAML's output is yaml.v3's.
func FuzzEmitterMatchesYAMLv3(f *testing.F) {
	for _, seed := range []string{
		`a: 1
b: [x, 'y z', "on"]
c: {d: null, e: 1.5}
`,
		`s: |
  line one
    indented

  after a blank
`,
		`list:
  - k: v
    m: {n: [1, 2]}
  - plain
  - ''
`,
		"t: ' leading space'\nu: 'trailing '\nv: \"tab\\there\"\nw: '#x'\nx: a #b\ny: 'key: value'\n",
		"z: \"multi\\nline with trailing space \\nend\"\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		tree, err := configyaml.UnmarshalMap([]byte(doc))
		if err != nil {
			return
		}
		want, err := fastcodec.EncodeTree(tree)
		if err != nil {
			return
		}
		got, err := fastcodec.TreeYAML(tree)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	})
}

// TreeJSON's JSON reads back as the same tree, number types included.
func TestTreeJSONRoundTrip(t *testing.T) {
	tree := map[string]any{"int": int64(60), "float": 60.0, "small": 0.5, "big": 1e21, "neg": int64(-3), "s": "60",
		"list": []any{int64(1), 1.5, "x", nil, true, map[string]any{}}, "nested": map[string]any{"k": "v\n\"q\""}}
	data, err := fastcodec.TreeJSON(tree)
	require.NoError(t, err)
	back, err := fastcodec.TreeFromJSON(data)
	require.NoError(t, err)
	assert.Equal(t, tree, back)
}
