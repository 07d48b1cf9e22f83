// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// The workload's objects: a PVC only with workload.storage (10Gi unless set), an autoscaler
// scaling on 80% CPU unless told otherwise, and a disruption budget that lets a drain move
// one pod of several.
func TestWorkloadObjects(t *testing.T) {
	shared := `  storage:
    kv: {type: redis, endpoint: 'redis:6379'}
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
`
	for _, tc := range []struct {
		reason, spec string
		check        func(t *testing.T, pvcs []*corev1.PersistentVolumeClaim, hpas []*autoscalingv2.HorizontalPodAutoscaler, pdbs []*policyv1.PodDisruptionBudget)
	}{
		{reason: "one replica, no volume", spec: "  distribution: {name: starter}\n",
			check: func(t *testing.T, pvcs []*corev1.PersistentVolumeClaim, hpas []*autoscalingv2.HorizontalPodAutoscaler, pdbs []*policyv1.PodDisruptionBudget) {
				assert.Empty(t, pvcs)
				assert.Empty(t, hpas)
				assert.Empty(t, pdbs, "nothing to keep through a drain of one pod")
			}},
		{reason: "a volume of the default size", spec: `  distribution: {name: starter}
  workload: {storage: {}}
`,
			check: func(t *testing.T, pvcs []*corev1.PersistentVolumeClaim, _ []*autoscalingv2.HorizontalPodAutoscaler, _ []*policyv1.PodDisruptionBudget) {
				require.Len(t, pvcs, 1)
				assert.Equal(t, "10Gi", pvcs[0].Spec.Resources.Requests.Storage().String())
				assert.Equal(t, []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}, pvcs[0].Spec.AccessModes)
			}},
		{reason: "an autoscaler without a target, three replicas at least", spec: "  distribution: {name: starter}\n" + shared +
			"  workload: {autoscaling: {minReplicas: 3, maxReplicas: 5}, resources: {requests: {cpu: '1'}}}\n",
			check: func(t *testing.T, _ []*corev1.PersistentVolumeClaim, hpas []*autoscalingv2.HorizontalPodAutoscaler, pdbs []*policyv1.PodDisruptionBudget) {
				require.Len(t, hpas, 1)
				assert.Equal(t, int32(5), hpas[0].Spec.MaxReplicas)
				require.Len(t, hpas[0].Spec.Metrics, 1)
				assert.Equal(t, corev1.ResourceCPU, hpas[0].Spec.Metrics[0].Resource.Name)
				assert.Equal(t, int32(80), *hpas[0].Spec.Metrics[0].Resource.Target.AverageUtilization)
				require.Len(t, pdbs, 1)
				assert.Equal(t, 1, pdbs[0].Spec.MaxUnavailable.IntValue(), "a drain moves one pod at a time")
			}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			out, problems := renderSpec(t, "wl", tc.spec, nil)
			for _, p := range problems {
				require.Contains(t, p, "warning:", "only warnings: %v", problems)
			}
			tc.check(t, objectsOf[*corev1.PersistentVolumeClaim](out), objectsOf[*autoscalingv2.HorizontalPodAutoscaler](out), objectsOf[*policyv1.PodDisruptionBudget](out))
		})
	}
}
