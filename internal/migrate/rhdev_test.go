// SPDX-License-Identifier: Apache-2.0

package migrate_test

import (
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
)

// rh-dev stands for a platform release's image, and the two APIs default to different releases
// (3.4 for an LLSD, 3.5 for an OGXServer): a migration keeps the image the object ran, and says
// so; an OGXServer's rh, Open Data Hub's other name, becomes rh-dev.
func TestMigratingRHDevKeepsTheRelease(t *testing.T) {
	t.Run("an LLSD's rh-dev becomes the image of the release it rendered for", func(t *testing.T) {
		items, err := fn.ParseKubeObjects([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: rh-dev}
  storage: {sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: dsn}}}}
`))
		require.NoError(t, err)
		out, results := migrate.Items(items, pipeline.Options{RendererVersion: "test"})
		require.False(t, hasErrors(results), "%v", results)
		release, _ := distribution.ReleaseNamed(distribution.DefaultRelease)
		image, _, err := out[0].NestedString("spec", "distribution", "image")
		require.NoError(t, err)
		assert.Equal(t, release.Image, image)
		assert.True(t, mentionsAll(results, "an OGXServer's rh-dev stands for the image of the release its render names "+
			"(without the render option openshiftAI.release, 3.5)"), "%v", results)
	})
	t.Run("an OGXServer's rh becomes rh-dev", func(t *testing.T) {
		items, err := fn.ParseKubeObjects([]byte(`apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: rh}
`))
		require.NoError(t, err)
		out, results := migrate.Items(items, pipeline.Options{RendererVersion: "test"})
		require.False(t, hasErrors(results), "%v", results)
		name, _, err := out[0].NestedString("spec", "distribution", "name")
		require.NoError(t, err)
		assert.Equal(t, distribution.RHDev, name)
		assert.True(t, mentionsAll(results, "llsd reads rh as rh-dev"), "%v", results)
		assert.True(t, mentionsAll(results, `render the LlamaStackDistribution with openshiftAI.release: "3.5" to keep the release`), "%v", results)
	})
}
