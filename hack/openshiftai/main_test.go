// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// The rh-dev base configs in distributions/rh-dev are what the tool writes from the images'
// configs beside the clone, byte for byte: nobody edited them by hand, and a changed snapshot
// shows up here.
func TestBaseConfigsAreCurrent(t *testing.T) {
	from := testenv.Shared(t, "openshift-ai")
	out := t.TempDir()
	written := 0
	for _, r := range distribution.Releases {
		if r.BaseConfigFile() == "" {
			continue
		}
		require.NoError(t, write(from, out, r), r.Name)
		file := r.BaseConfigFile()
		want, err := os.ReadFile(filepath.Join(out, file))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join("..", "..", "distributions", file))
		require.NoError(t, err, "run go run ./hack/openshiftai")
		assert.Equal(t, string(want), string(got), "%s is stale: run go run ./hack/openshiftai", file)
		written++
	}
	assert.Positive(t, written)
}

func TestDeadKeysAreDropped(t *testing.T) {
	tree := map[string]any{"telemetry": map[string]any{"enabled": true}, "providers": map[string]any{
		"vector_io": []any{map[string]any{"provider_id": "m", "notes": "x"}, map[string]any{"provider_id": "n"}}}}
	assert.True(t, drop(tree, []string{"telemetry"}))
	assert.True(t, drop(tree, []string{"providers", "*", "notes"}))
	assert.False(t, drop(tree, []string{"registered_resources", "vector_dbs"}))
	assert.Equal(t, map[string]any{"providers": map[string]any{"vector_io": []any{map[string]any{"provider_id": "m"}, map[string]any{"provider_id": "n"}}}}, tree)
}
