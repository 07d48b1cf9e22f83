// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
)

// renderSpec renders a LlamaStackDistribution "chat" in namespace ai with the given spec
// (YAML, indented by two spaces), with no render options: its result (nil on error), errors and
// warnings as lines.
func renderSpec(t *testing.T, spec string) (*pipeline.Result, field.ErrorList, []string) {
	t.Helper()
	obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
` + spec))
	require.Empty(t, errs)
	res, errs := pipeline.Render(obj, pipeline.Options{})
	var warnings []string
	if res != nil {
		for _, w := range res.Warnings {
			warnings = append(warnings, w.String())
		}
	}
	return res, errs, warnings
}

// An Ingress terminates TLS with its Secret's tls.crt and tls.key: a server identity under
// other keys cannot serve it, and the render says what would.
func TestTLSIdentityKeysAndTheIngress(t *testing.T) {
	_, errs, _ := renderSpec(t, `  distribution: {name: starter}
  networking:
    tls: {enabled: true, secretName: identity, certificateKey: fullchain.pem}
    expose: {hostname: chat.example.com}
`)
	require.Len(t, errs, 1)
	assert.Equal(t, "spec.networking.tls.secretName", errs[0].Field)
	assert.Contains(t, errs[0].Detail, "use a kubernetes.io/tls Secret")
}

// Only OpenShift fills a ConfigMap with the cluster's trusted CAs: elsewhere the render says
// what to do instead.
func TestClusterTrustedCAsNeedOpenShift(t *testing.T) {
	_, errs, _ := renderSpec(t, `  distribution: {name: starter}
  networking:
    tls: {clusterTrustedCAs: true}
`)
	require.Len(t, errs, 1)
	assert.Equal(t, "spec.networking.tls.clusterTrustedCAs", errs[0].Field)
	assert.Contains(t, errs[0].Detail, "list a ConfigMap of your cluster's CAs")
}
