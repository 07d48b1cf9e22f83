// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

const stackYAML = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat}
spec:
  distribution: {name: starter}
  providers:
    inference:
      provider: vllm
      endpoint: "http://vllm:8000/v1"
      apiKey: {secretKeyRef: {name: vllm-creds, key: token}}
      settings: {tls_verify: false, max_tokens: 4096}
  resources:
    models: [llama3]
  storage:
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
`

// rendered is what llsd renders for yaml in namespace ns: the canonical LLSD with its
// receipt, and its objects.
func rendered(t *testing.T, ns, yaml string) (*v1alpha2.LlamaStackDistribution, []client.Object) {
	t.Helper()
	obj, errs := api.Decode([]byte(yaml))
	require.Empty(t, errs)
	obj.Namespace = ns
	res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
	require.Empty(t, errs)
	objs := make([]client.Object, len(res.Objects))
	for i, o := range res.Objects {
		objs[i] = o
	}
	return res.LLSD, objs
}

func create(t *testing.T, objs ...client.Object) {
	t.Helper()
	for _, o := range objs {
		require.NoError(t, k8sClient.Create(context.Background(), o), "%T %s", o, o.GetName())
	}
}

// eventually waits until the LLSD's status satisfies check, and returns it.
func eventually(t *testing.T, ns, name string, check func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus)) v1alpha2.LlamaStackDistributionStatus {
	t.Helper()
	var obj v1alpha2.LlamaStackDistribution
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		require.NoError(c, k8sClient.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: name}, &obj))
		require.Equal(c, obj.Generation, obj.Status.ObservedGeneration)
		check(c, obj.Status)
	}, 20*time.Second, 50*time.Millisecond)
	return obj.Status
}

// hasCondition checks one condition's status and reason.
func hasCondition(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus, typ string, status metav1.ConditionStatus, reason string) *metav1.Condition {
	cond := meta.FindStatusCondition(st.Conditions, typ)
	if !assert.NotNil(c, cond, typ) {
		return nil
	}
	assert.Equal(c, status, cond.Status, "%s: %s", typ, cond.Message)
	assert.Equal(c, reason, cond.Reason, "%s: %s", typ, cond.Message)
	return cond
}

func secret(ns, name string, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

// An LLSD applied as written, not rendered, says so.
func TestStatusNotRendered(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	obj, errs := api.Decode([]byte(stackYAML))
	require.Empty(t, errs)
	obj.Namespace = ns
	create(t, obj)
	st := eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionFalse, v1alpha2.ReasonNotRendered)
		if cond != nil {
			assert.Contains(c, cond.Message, "apply the output of kustomize build, kpt fn render or llsd render")
		}
		hasCondition(c, st, v1alpha2.ConditionDeploymentUpdated, metav1.ConditionFalse, v1alpha2.ReasonDeploymentMissing)
	})
	assert.Equal(t, v1alpha2.PhasePending, st.Phase)
	assert.Nil(t, st.ConfigGeneration)
}

// The life of a rendered LLSD: secrets missing, then a wrong key, then right; the
// Deployment rolling out, then available.
func TestStatusLifecycle(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	llsd, objs := rendered(t, ns, stackYAML)
	create(t, append([]client.Object{llsd}, objs...)...)

	st := eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionTrue, v1alpha2.ReasonConfigGenerationSucceeded)
		cond := hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionFalse, v1alpha2.ReasonSecretNotFound)
		if cond != nil {
			assert.Contains(c, cond.Message, `spec.providers.inference[0].apiKey: Secret "vllm-creds" not found in namespace `+ns)
			assert.Contains(c, cond.Message, `spec.storage.sql.connectionString: Secret "pg" not found`)
		}
		hasCondition(c, st, v1alpha2.ConditionDeploymentUpdated, metav1.ConditionFalse, v1alpha2.ReasonRolloutInProgress)
		hasCondition(c, st, v1alpha2.ConditionAvailable, metav1.ConditionFalse, v1alpha2.ReasonDeploymentUnavailable)
	})
	assert.Equal(t, v1alpha2.PhaseFailed, st.Phase)
	require.NotNil(t, st.ConfigGeneration)
	assert.Equal(t, llsd.Annotations[api.AnnotationConfigMap], st.ConfigGeneration.ConfigMapName)
	assert.Equal(t, string(profile.Default), st.ConfigGeneration.ConfigVersion, "the newest supported server, the default")
	assert.Positive(t, st.ConfigGeneration.ProviderCount)
	assert.Equal(t, "embedded", st.ResolvedDistribution.ConfigSource)
	assert.Equal(t, "http://chat-service."+ns+".svc.cluster.local:8321", st.ServiceURL)
	assert.Equal(t, "test", st.Version.OperatorVersion)

	// Secrets created later: one with a wrong key, then corrected. Nothing is watched; the
	// recheck finds them.
	create(t, secret(ns, "vllm-creds", map[string]string{"token": "s3cret-value"}), secret(ns, "pg", map[string]string{"uri": "postgresql://x"}))
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionFalse, v1alpha2.ReasonSecretKeyNotFound)
		if cond != nil {
			assert.Equal(c, `spec.storage.sql.connectionString: Secret "pg" has no key "url"`, cond.Message)
		}
	})
	require.NoError(t, k8sClient.Update(context.Background(), secret(ns, "pg", map[string]string{"url": "postgresql://x"})))
	// An API key of digits: the server would read it as a number, which vLLM's api_token refuses.
	require.NoError(t, k8sClient.Update(context.Background(), secret(ns, "vllm-creds", map[string]string{"token": "20261127"})))
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionFalse, v1alpha2.ReasonSecretValueConverted)
		if cond != nil {
			assert.Contains(c, cond.Message, `spec.providers.inference[0].apiKey: the value of key "token" of Secret "vllm-creds" reads as a number or boolean`)
			assert.NotContains(c, cond.Message, "20261127")
		}
	})
	require.NoError(t, k8sClient.Update(context.Background(), secret(ns, "vllm-creds", map[string]string{"token": "s3cret-value"})))
	st = eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionTrue, v1alpha2.ReasonAllSecretsFound)
	})
	assert.Equal(t, v1alpha2.PhaseInitializing, st.Phase)
	for _, cond := range st.Conditions {
		assert.NotContains(t, cond.Message, "s3cret-value", "secret values never reach status")
	}

	// The Deployment becomes ready (envtest has no kube-controller-manager: the test writes
	// the status the Deployment controller would).
	var d appsv1.Deployment
	require.NoError(t, k8sClient.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "chat"}, &d))
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
	require.NoError(t, k8sClient.Status().Update(context.Background(), &d))
	st = eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionDeploymentUpdated, metav1.ConditionTrue, v1alpha2.ReasonDeploymentUpToDate)
		hasCondition(c, st, v1alpha2.ConditionAvailable, metav1.ConditionTrue, v1alpha2.ReasonMinimumReplicasAvailable)
		assert.Equal(c, v1alpha2.PhaseReady, st.Phase)
	})
	assert.Equal(t, int32(1), st.AvailableReplicas)

	// An edit in the cluster is not in the generated config: the receipt's spec hash tells.
	require.NoError(t, retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var obj v1alpha2.LlamaStackDistribution
		if err := k8sClient.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "chat"}, &obj); err != nil {
			return err
		}
		obj.Spec.Resources.Models[0].Name = "llama4"
		return k8sClient.Update(context.Background(), &obj)
	}))
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionFalse, v1alpha2.ReasonRenderStale)
		assert.Equal(c, v1alpha2.PhaseFailed, st.Phase)
	})

	// A Deployment that does not run the receipt's config is reported.
	d.Spec.Template.Annotations["llamastack.io/config-hash"] = "0000000000aaaa"
	require.NoError(t, k8sClient.Update(context.Background(), &d))
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionDeploymentUpdated, metav1.ConditionFalse, v1alpha2.ReasonDeploymentOutdated)
		if cond != nil {
			assert.Contains(c, cond.Message, "runs config 0000000000, the render receipt says")
		}
	})
}

// Only the LLSD was applied: the ConfigMap the receipt names is missing.
func TestStatusConfigMapMissing(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	llsd, _ := rendered(t, ns, stackYAML)
	create(t, llsd)
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionFalse, v1alpha2.ReasonConfigMapMissing)
		if cond != nil {
			assert.Contains(c, cond.Message, "apply every object llsd rendered")
		}
		assert.Equal(c, v1alpha2.PhaseFailed, st.Phase)
	})
}

// overrideConfig: the user's ConfigMap, created after the LLSD, is found.
func TestStatusOverrideConfig(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	llsd, objs := rendered(t, ns, `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own}
spec:
  distribution: {image: registry.example.com/acme/llama:1.0}
  overrideConfig: {configMapName: own-config}
`)
	create(t, append([]client.Object{llsd}, objs...)...)
	eventually(t, ns, "own", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionFalse, v1alpha2.ReasonOverrideConfigMapMissing)
		if cond != nil {
			assert.Contains(c, cond.Message, `spec.overrideConfig.configMapName: ConfigMap "own-config" not found in namespace `+ns)
		}
	})
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "own-config"}, Data: map[string]string{"run.yml": "version: 2\n"}}
	create(t, cm)
	eventually(t, ns, "own", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionFalse, v1alpha2.ReasonOverrideConfigKeyMissing)
		if cond != nil {
			assert.Contains(c, cond.Message, `spec.overrideConfig: ConfigMap "own-config" has no key config.yaml (it has run.yml), and the pod cannot start`)
		}
	})
	cm.Data = map[string]string{"config.yaml": "version: 2\n"}
	require.NoError(t, k8sClient.Update(context.Background(), cm))
	st := eventually(t, ns, "own", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionTrue, v1alpha2.ReasonOverrideConfigFound)
		hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionTrue, v1alpha2.ReasonAllSecretsFound)
	})
	assert.Equal(t, "override", st.ResolvedDistribution.ConfigSource)
	assert.Equal(t, "custom", st.DistributionConfig.ActiveDistribution)
}

// A custom image that runs the config it ships: no ConfigMap to find, and the condition says so.
func TestStatusImageConfig(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	llsd, objs := rendered(t, ns, `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own}
spec:
  distribution: {image: registry.example.com/acme/llama:1.0}
`)
	create(t, append([]client.Object{llsd}, objs...)...)
	eventually(t, ns, "own", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionTrue, v1alpha2.ReasonImageConfig)
		if cond != nil {
			assert.Contains(c, cond.Message, "The image registry.example.com/acme/llama:1.0 runs the config it ships")
		}
		if assert.NotNil(c, st.ResolvedDistribution) {
			assert.Equal(c, "image", st.ResolvedDistribution.ConfigSource)
		}
	})
}

// The CA bundle ConfigMap the pod mounts: missing, then without a key, then complete.
func TestStatusCABundle(t *testing.T) {
	requireAPIServer(t)
	startController(t)
	ns := namespace(t)
	llsd, objs := rendered(t, ns, `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: ca}
spec:
  distribution: {name: starter}
  networking: {tls: {caBundle: {configMapName: corp-ca, configMapKeys: [root.pem, sub.pem]}, caBundles: [{configMapName: trusted-ca}]}}
`)
	create(t, append([]client.Object{llsd}, objs...)...)
	eventually(t, ns, "ca", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionFalse, v1alpha2.ReasonCABundleNotFound)
		if cond != nil {
			assert.Contains(c, cond.Message, `spec.networking.tls.caBundle: ConfigMap "corp-ca" not found in namespace `+ns)
			assert.Contains(c, cond.Message, `spec.networking.tls.caBundles[0]: ConfigMap "trusted-ca" not found in namespace `+ns)
		}
		assert.Equal(c, v1alpha2.PhaseFailed, st.Phase)
	})
	ca := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "corp-ca"}, Data: map[string]string{"root.pem": "PEM"}}
	create(t, ca, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "trusted-ca"}, Data: map[string]string{"ca-bundle.crt": "PEM"}})
	eventually(t, ns, "ca", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionFalse, v1alpha2.ReasonCABundleKeyNotFound)
		if cond != nil {
			assert.Contains(c, cond.Message, `ConfigMap "corp-ca" has no key "sub.pem"`)
		}
	})
	ca.Data["sub.pem"] = "PEM"
	require.NoError(t, k8sClient.Update(context.Background(), ca))
	eventually(t, ns, "ca", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionTrue, v1alpha2.ReasonAllSecretsFound)
	})
}
