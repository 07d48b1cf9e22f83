// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/profile"
)

// The checked-in catalogs are what the generator writes from the servers' field lists.
func TestCatalogsAreGenerated(t *testing.T) {
	for _, p := range profile.All() {
		want, err := generate(p)
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join("..", "..", "internal", "profile", "providers", string(p.Version)+".json"))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "internal/profile/providers/%s.json is stale: run go run ./hack/providerfields", p.Version)
	}
}
