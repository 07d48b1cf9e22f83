// SPDX-License-Identifier: Apache-2.0

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// Client-side apply (kubectl apply, Argo CD's default) stores the whole CRD as compact JSON in
// an annotation, and annotations hold at most 256 KiB: the CRD must fit, with room to grow.
func TestCRDFitsClientSideApply(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "crds", "llamastack.io_llamastackdistributions.yaml"))
	require.NoError(t, err)
	var crd map[string]any
	require.NoError(t, yaml.Unmarshal(data, &crd))
	compact, err := json.Marshal(crd)
	require.NoError(t, err)
	assert.Less(t, len(compact), 200<<10, "the CRD is %d bytes as JSON, near the 256 KiB annotation limit: trim descriptions (embeddedTypes)", len(compact))
}
