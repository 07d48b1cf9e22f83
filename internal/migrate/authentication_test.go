// SPDX-License-Identifier: Apache-2.0

package migrate_test

import (
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
)

// An OGXServer has no field for authentication: migrating an LLSD that authenticates its
// callers says that the OGXServer's server would answer everyone, at the field, and how to
// keep it; it never drops it in silence.
func TestMigrationSaysAuthenticationIsLost(t *testing.T) {
	items, err := fn.ParseKubeObjects([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s, namespace: ai}
spec:
  distribution: {name: starter}
  authentication:
    kubernetes: {}
    accessPolicy: {owners: true}
`))
	require.NoError(t, err)
	migrated, results := migrate.Items(items, pipeline.Options{RendererVersion: "test"})
	require.False(t, hasErrors(results), "%v", results)
	require.Len(t, migrated, 1)
	var said *fn.Result
	for _, r := range results {
		if r.Field != nil && r.Field.Path == "spec.authentication" {
			said = r
		}
	}
	require.NotNil(t, said, "no warning at spec.authentication: %v", results)
	assert.Equal(t, fn.Warning, said.Severity)
	assert.Contains(t, said.Message, "answers every caller")
	assert.Contains(t, said.Message, "overrideConfig")
}
