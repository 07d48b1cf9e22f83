// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// 300 LlamaStackDistributions, half created as v1alpha1 (not rendered: the upstream
// operator's objects), half rendered as v1alpha2 with their objects; the controller is
// restarted half-way. Every object converges: status for its generation and the phase its
// inputs call for. Times are logged (go test -v) and kept in docs/benchmarks.md.
func TestLoad300(t *testing.T) {
	requireAPIServer(t)
	if testing.Short() {
		t.Skip("load test: run without -short")
	}
	ctx := context.Background()
	ns := namespace(t)
	const n = 300
	create := func(i int) {
		if i%2 == 0 {
			u := v1alpha1Object(t, ns)
			u.SetName(fmt.Sprintf("legacy-%03d", i))
			require.NoError(t, k8sClient.Create(ctx, u))
			return
		}
		llsd, objs := rendered(t, ns, strings.Replace(stackYAML, "name: chat", fmt.Sprintf("name: chat-%03d", i), 1))
		for _, o := range append([]client.Object{llsd}, objs...) {
			require.NoError(t, k8sClient.Create(ctx, o))
		}
	}

	start := time.Now()
	stop := startController(t)
	for i := range n / 2 {
		create(i)
	}
	stop()
	restarted := time.Now()
	startController(t)
	for i := n / 2; i < n; i++ {
		create(i)
	}
	created := time.Now()

	require.EventuallyWithT(t, func(c *assert.CollectT) {
		var list v1alpha2.LlamaStackDistributionList
		require.NoError(c, k8sClient.List(ctx, &list, client.InNamespace(ns)))
		require.Len(c, list.Items, n)
		converged := 0
		for _, o := range list.Items {
			want := v1alpha2.PhaseFailed // rendered, secrets missing
			if strings.HasPrefix(o.Name, "legacy-") {
				want = v1alpha2.PhasePending // not rendered
			}
			if o.Status.ObservedGeneration == o.Generation && o.Status.Phase == want {
				converged++
			}
		}
		assert.Equal(c, n, converged)
	}, 2*time.Minute, 200*time.Millisecond)
	done := time.Now()
	t.Logf("300 LLSDs (150 v1alpha1, 150 rendered v1alpha2 with ConfigMap, ServiceAccount, Deployment and Service each): first half created in %v with the controller running, "+
		"restart, second half created in %v, all converged %v after the last create (%v in total)",
		restarted.Sub(start).Round(time.Millisecond), created.Sub(restarted).Round(time.Millisecond),
		done.Sub(created).Round(time.Millisecond), done.Sub(start).Round(time.Millisecond))
}
