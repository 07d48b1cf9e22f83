// SPDX-License-Identifier: Apache-2.0

// Package golden compares what a test made with its expected file, for every golden suite of
// llsd (the config cases, the rendered objects, the KRM function's cases, the examples).
//
// One switch rewrites them all: WRITE_GOLDEN_OUTPUT=1 (the KRM functions SDK's own switch,
// which its golden runner reads too), as `make golden` sets it. Review the diff before committing.
package golden

import (
	"errors"
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/pkg/api/wording"
)

// Updating reports whether the golden files are being rewritten.
func Updating() bool { return os.Getenv("WRITE_GOLDEN_OUTPUT") != "" }

// Check holds got equal to the file at path, or writes it there when Updating; the files of
// stale lists expected files of another outcome, removed when Updating (a case whose expected
// error became a config loses its error file).
//
// Output with a reference no edge worded (wording.Marked) fails either way: llsd's messages
// are said in their reader's words before anyone sees them.
func Check(t testing.TB, path string, got []byte, stale ...string) {
	t.Helper()
	require.False(t, wording.Marked(string(got)), "%s: a message still holds a wording reference: the edge that shows it must word it (wording.Format)", path)
	if Updating() {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		for _, s := range stale {
			if err := os.Remove(s); err != nil && !errors.Is(err, fs.ErrNotExist) {
				require.NoError(t, err)
			}
		}
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "%s: no expected file (WRITE_GOLDEN_OUTPUT=1 writes it; review it before committing)", path)
	assert.Equal(t, string(want), string(got), "%s differs (make golden rewrites it; review the diff)", path)
}
