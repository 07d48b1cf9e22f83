// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/llamastack/llsd/internal/controller"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The status says what the running server says: once a replica is available the controller
// asks the server (here a stand-in that answers as the server does) for its version and
// providers; an unhealthy provider is named, a server that runs another version than the one
// rendered for is a condition, and a server that stops answering is one too.
func TestStatusFromTheRunningServer(t *testing.T) {
	requireAPIServer(t)
	var answer atomic.Value // what the stand-in answers: "healthy", "unhealthy", "other-version", "down"
	answer.Store("healthy")
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mode := answer.Load().(string)
		switch {
		case mode == "down":
			w.WriteHeader(http.StatusBadGateway)
		case r.URL.Path == "/v1/version" && mode == "other-version":
			_, _ = w.Write([]byte(`{"version": "1.1.0"}`))
		case r.URL.Path == "/v1/version":
			_, _ = w.Write([]byte(`{"version": "1.3.0"}`))
		case r.URL.Path == "/v1/providers" && mode == "unhealthy":
			_, _ = w.Write([]byte(`{"data": [{"api": "inference", "provider_id": "vllm", "provider_type": "remote::vllm", "config": {},
				"health": {"status": "Error", "message": "connection refused to http://vllm:8000/v1"}}]}`))
		case r.URL.Path == "/v1/providers":
			_, _ = w.Write([]byte(`{"data": [{"api": "inference", "provider_id": "vllm", "provider_type": "remote::vllm", "config": {"api_token": "********"}, "health": {"status": "OK"}}]}`))
		}
	}))
	t.Cleanup(server.Close)
	startControllerAs(t, cfg, controller.Options{ServerURL: func(*v1alpha2.LlamaStackDistribution) string { return server.URL },
		ProbeTimeout: time.Second, ProbeInterval: 50 * time.Millisecond})

	ns := namespace(t)
	llsd, objs := rendered(t, ns, stackYAML)
	create(t, append([]client.Object{llsd}, objs...)...)
	var d appsv1.Deployment
	require.NoError(t, k8sClient.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "chat"}, &d))
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
	require.NoError(t, k8sClient.Status().Update(context.Background(), &d))

	st := eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionServerReady, metav1.ConditionTrue, v1alpha2.ReasonServerAnswered)
		hasCondition(c, st, v1alpha2.ConditionProvidersHealthy, metav1.ConditionTrue, v1alpha2.ReasonAllProvidersHealthy)
		hasCondition(c, st, v1alpha2.ConditionServerVersionMatched, metav1.ConditionTrue, v1alpha2.ReasonVersionMatched)
	})
	assert.Equal(t, "1.3.0", st.Version.LlamaStackServerVersion, "the running server's version")
	require.Len(t, st.DistributionConfig.Providers, 1)
	assert.Equal(t, "vllm", st.DistributionConfig.Providers[0].ProviderID)
	assert.JSONEq(t, `{}`, string(st.DistributionConfig.Providers[0].Config.Raw), "no provider config in the status")

	answer.Store("unhealthy")
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionProvidersHealthy, metav1.ConditionFalse, v1alpha2.ReasonProviderUnhealthy)
		if cond != nil {
			assert.Equal(c, "inference provider vllm (remote::vllm): Error connection refused to http://vllm:8000/v1", cond.Message)
		}
	})
	answer.Store("other-version")
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionServerVersionMatched, metav1.ConditionFalse, v1alpha2.ReasonVersionMismatch)
		if cond != nil {
			assert.Contains(c, cond.Message, "the server runs 1.1.0, and llsd rendered its config for 1.3")
		}
	})
	answer.Store("down")
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionServerReady, metav1.ConditionFalse, v1alpha2.ReasonServerUnreachable)
		if cond != nil {
			assert.Contains(c, cond.Message, "GET /v1/version: 502 Bad Gateway")
		}
		assert.Nil(c, meta.FindStatusCondition(st.Conditions, v1alpha2.ConditionProvidersHealthy),
			"a server that does not answer says nothing of its providers' health")
		assert.Nil(c, meta.FindStatusCondition(st.Conditions, v1alpha2.ConditionServerVersionMatched),
			"nor of its version")
	})
}
