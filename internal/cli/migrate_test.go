// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// llsd migrate renders each package with its RenderOptions, as llsd render does: a name the
// options map to an image migrates; without them, it is the render's error, and nothing is
// printed.
func TestMigrateTakesThePackagesOptions(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "stack.yaml", `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: team, namespace: ai}
`+
		`spec:
  distribution: {name: team-starter}
  providers: {inference: {provider: ollama, endpoint: 'http://ollama:11434/v1'}}
`)
	code, out, stderr := run(t, "migrate", dir)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, `spec.distribution.name: Invalid value: "team-starter": unknown distribution`)

	writeFile(t, dir, "options.yaml", `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: llsd}
`+
		"spec: {distributions: {team-starter: docker.io/llamastack/distribution-starter:0.7.1}}\n")
	code, out, stderr = run(t, "migrate", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "kind: OGXServer")
	assert.Contains(t, out, "image: docker.io/llamastack/distribution-starter:0.7.1")
	assert.NotContains(t, out, "RenderOptions")
}
