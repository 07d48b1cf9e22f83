// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
)

// An Ingress terminates TLS with its Secret's tls.crt and tls.key: a server identity under
// other keys cannot serve it, and the render says what would.
func TestTLSIdentityKeysAndTheIngress(t *testing.T) {
	obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  networking:
    tls: {enabled: true, secretName: identity, certificateKey: fullchain.pem}
    expose: {hostname: chat.example.com}
`))
	require.Empty(t, errs)
	_, errs = pipeline.Render(obj, pipeline.Options{})
	require.Len(t, errs, 1)
	assert.Equal(t, "spec.networking.tls.secretName", errs[0].Field)
	assert.Contains(t, errs[0].Detail, "use a kubernetes.io/tls Secret")
}
