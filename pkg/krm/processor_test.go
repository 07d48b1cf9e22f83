// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/kptdev/krm-functions-sdk/go/fn/testhelpers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/pkg/krm"
)

// Each directory of testdata/ is a ResourceList: its *.yaml files are the items,
// _fnconfig.yaml the function config, _expected.yaml the output with results.
// WRITE_GOLDEN_OUTPUT=1 rewrites the expected files (review the diff).
func TestGolden(t *testing.T) {
	testhelpers.RunGoldenTests(t, "testdata", krm.Processor{Version: "test"})
}

// Running the function on its own output changes nothing.
func TestIdempotent(t *testing.T) {
	input := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata: {name: demo, namespace: ai}
  spec:
    distribution: {name: starter}
    storage: {sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}}
    networking: {expose: {hostname: llama.example.com}, allowedFrom: {namespaces: [apps]}}
    workload: {autoscaling: {maxReplicas: 3}, storage: {size: 1Gi}}
`)
	first, err := fn.Run(krm.Processor{Version: "test"}, input)
	require.NoError(t, err)
	second, err := fn.Run(krm.Processor{Version: "test"}, first)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second))
}
