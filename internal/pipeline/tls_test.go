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

// With egress limited, the endpoints no NetworkPolicy rule can name are listed in a warning,
// the database of a connection string in a Secret among them.
func TestEgressNamesWhatItCannotAdmit(t *testing.T) {
	obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference: [{provider: openai, endpoint: "https://api.openai.com/v1"}]
  storage:
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
  networking:
    egress: {}
`))
	require.Empty(t, errs)
	res, errs := pipeline.Render(obj, pipeline.Options{})
	require.Empty(t, errs)
	var said []string
	for _, w := range res.Warnings {
		said = append(said, w.String())
	}
	assert.Contains(t, said, "spec.networking.egress: the NetworkPolicy lets the server reach in-cluster services, literal "+
		"addresses and cidrs, and no host name outside the cluster: api.openai.com (spec.providers.inference[0].endpoint), "+
		"the database of spec.storage.sql.connectionString (its address is in a Secret): add their networks to "+
		"networking.egress.cidrs (or write in-cluster services as <service>.<namespace>.svc)")
}
