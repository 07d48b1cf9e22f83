// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
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
			assert.Contains(c, cond.Message, "GET /v1/version: answered HTTP 502")
		}
		assert.Nil(c, meta.FindStatusCondition(st.Conditions, v1alpha2.ConditionProvidersHealthy),
			"a server that does not answer says nothing of its providers' health")
		assert.Nil(c, meta.FindStatusCondition(st.Conditions, v1alpha2.ConditionServerVersionMatched),
			"nor of its version")
	})
}

// F3: servers that answer /v1/providers with a million bytes of empty providers cost the
// controller a bounded amount of memory per answer, and their status keeps 64 providers and a
// count of the rest (before: about 350,000 entries and a 33 MB patch per object).
func TestHostileServersKeepTheControllerBounded(t *testing.T) {
	requireAPIServer(t)
	hostile := []byte(`{"data": [` + strings.Repeat("{},", 349_000) + `{}]}`)
	var answers atomic.Int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/version" {
			_, _ = w.Write([]byte(`{"version": "1.3.0"}`))
			return
		}
		answers.Add(1)
		_, _ = w.Write(hostile)
	}))
	t.Cleanup(server.Close)
	ns := namespace(t)
	const objects = 4
	for i := range objects {
		llsd, objs := rendered(t, ns, strings.Replace(stackYAML, "name: chat", fmt.Sprintf("name: chat-%d", i), 1))
		create(t, append([]client.Object{llsd}, objs...)...)
		var d appsv1.Deployment
		require.NoError(t, k8sClient.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: llsd.Name}, &d))
		d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
		require.NoError(t, k8sClient.Status().Update(context.Background(), &d))
	}
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	startControllerAs(t, cfg, controller.Options{ServerURL: onlyIn(ns, server.URL), ProbeTimeout: 5 * time.Second, ProbeInterval: time.Hour})
	for i := range objects {
		st := eventually(t, ns, fmt.Sprintf("chat-%d", i), func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
			hasCondition(c, st, v1alpha2.ConditionServerReady, metav1.ConditionFalse, v1alpha2.ReasonServerUnreachable)
		})
		assert.Empty(t, st.DistributionConfig.Providers, "an answer beyond the bounds is not the server's: nothing of it is kept")
		cond := meta.FindStatusCondition(st.Conditions, v1alpha2.ConditionServerReady)
		assert.Equal(t, "the server does not answer as it should through its Service: GET /v1/providers: not the server's answer", cond.Message)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	perAnswer := (after.TotalAlloc - before.TotalAlloc) / uint64(max(answers.Load(), 1))
	t.Logf("%d hostile answers, %d MB allocated per answer (the controller's test process, its API clients included)", answers.Load(), perAnswer>>20)
	assert.Less(t, perAnswer, uint64(48<<20), "a hostile answer costs a bounded amount of memory")
}

// F4: the controller asks only the ClusterIP Service llsd generated for the object: a Service
// of that name that points elsewhere (an ExternalName) is never asked, and the status says why.
func TestOnlyTheGeneratedServiceIsAsked(t *testing.T) {
	requireAPIServer(t)
	var asked atomic.Int32
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		_, _ = w.Write([]byte(`{"version": "1.3.0"}`))
	}))
	t.Cleanup(server.Close)
	ns := namespace(t)
	startControllerAs(t, cfg, controller.Options{ServerURL: onlyIn(ns, server.URL), ProbeTimeout: time.Second, ProbeInterval: 50 * time.Millisecond})
	llsd, objs := rendered(t, ns, stackYAML)
	for _, o := range objs {
		if svc, ok := o.(*corev1.Service); ok {
			svc.Spec = corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "metadata.internal.example"}
		}
	}
	create(t, append([]client.Object{llsd}, objs...)...)
	var d appsv1.Deployment
	require.NoError(t, k8sClient.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: "chat"}, &d))
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1}
	require.NoError(t, k8sClient.Status().Update(context.Background(), &d))
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		cond := hasCondition(c, st, v1alpha2.ConditionServerReady, metav1.ConditionFalse, v1alpha2.ReasonServerUnreachable)
		if cond != nil {
			assert.Contains(c, cond.Message, "the Service chat-service is of type ExternalName: llsd asks only the ClusterIP Service it generates")
		}
	})
	assert.Zero(t, asked.Load())
}

// onlyIn points the controller at url for the objects of namespace ns, and at a closed port for
// the objects other tests left in theirs.
func onlyIn(ns, url string) func(*v1alpha2.LlamaStackDistribution) string {
	return func(obj *v1alpha2.LlamaStackDistribution) string {
		if obj.Namespace == ns {
			return url
		}
		return "http://127.0.0.1:1"
	}
}
