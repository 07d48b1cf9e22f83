// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// make install puts the binaries into $(PREFIX)/bin when that path has a space in it (a home
// like /Users/Jane Doe), not into the working directory (round four's F11). The binaries are
// stand-ins: the recipe is what is under test, so build and controller are taken as made.
func TestMakeInstallKeepsAPathWithSpaces(t *testing.T) {
	makeBinary := toolOnPath(t, "MAKE", "make", "install make")
	scratch := t.TempDir()
	bin := filepath.Join(scratch, "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	for _, name := range []string{"llsd", "llsd-controller", "kustomize"} {
		require.NoError(t, os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755))
	}
	prefix := filepath.Join(scratch, "Jane Doe", ".local")
	run(t, filepath.Join("..", ".."), makeBinary, "-o", "build", "-o", "controller", "install",
		"PREFIX="+prefix, "BIN="+bin, "KUSTOMIZE="+filepath.Join(bin, "kustomize"))
	for _, name := range []string{"llsd", "llsd-controller", "kustomize"} {
		assert.FileExists(t, filepath.Join(prefix, "bin", name))
	}
	assert.NoDirExists(t, filepath.Join("..", "..", "Doe"), "nothing is installed into the working directory")
}
