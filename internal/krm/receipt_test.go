// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/pkg/api"
)

// An llsd upgrade that renders the same objects leaves a kpt package as it was: the receipt
// keeps the version that rendered them, and takes the new one only when the render changes
// (#56: before, every upgrade rewrote every package's receipt).
func TestTheReceiptChangesOnlyWithTheRender(t *testing.T) {
	const source = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata:
    name: chat
    namespace: ai
    annotations: {config.kubernetes.io/path: llsd.yaml, internal.config.kubernetes.io/path: llsd.yaml}
  spec:
    distribution: {name: starter}
`
	render := func(version string, input []byte) []byte {
		out, err := fn.Run(krm.Processor{Version: version}, input)
		require.NoError(t, err)
		return out
	}
	rendererVersion := func(out []byte) string {
		rl, err := fn.ParseResourceList(out)
		require.NoError(t, err)
		for _, item := range rl.Items {
			if item.GetKind() == "LlamaStackDistribution" {
				return item.GetAnnotation(api.AnnotationRendererVersion)
			}
		}
		return ""
	}
	first := render("v1.0.0", []byte(source))
	require.Equal(t, "v1.0.0", rendererVersion(first))

	again := render("v1.1.0", first)
	assert.Equal(t, "v1.0.0", rendererVersion(again), "the same objects: the receipt of their first render")
	assert.Equal(t, string(first), string(again), "the package is as it was")

	edited := strings.Replace(string(again), "distribution: {name: starter}", `distribution: {name: starter, serverVersion: "1.2"}`, 1)
	require.NotEqual(t, string(again), edited)
	assert.Equal(t, "v1.1.0", rendererVersion(render("v1.1.0", []byte(edited))), "another render: the version that made it")
}
