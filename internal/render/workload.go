// SPDX-License-Identifier: Apache-2.0

package render

import (
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// pvc is the server's state volume (workload.storage): ReadWriteOnce, 10Gi by default.
func pvc(m meta, obj *v1alpha2.LlamaStackDistribution) *corev1.PersistentVolumeClaim {
	w := obj.Spec.Workload
	if w == nil || w.Storage == nil {
		return nil
	}
	size := resource.MustParse(v1alpha2.DefaultStorageSize)
	if w.Storage.Size != nil {
		size = *w.Storage.Size
	}
	modes := []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}
	if len(w.Storage.AccessModes) > 0 {
		modes = nil
		for _, mode := range w.Storage.AccessModes {
			modes = append(modes, corev1.PersistentVolumeAccessMode(mode))
		}
	}
	return &corev1.PersistentVolumeClaim{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "PersistentVolumeClaim"},
		ObjectMeta: m.object(m.names.PVC()),
		Spec: corev1.PersistentVolumeClaimSpec{
			AccessModes:      modes,
			StorageClassName: w.Storage.StorageClassName,
			Resources:        corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: size}},
		},
	}
}

// hpa scales the Deployment (workload.autoscaling); without a target it scales on 80% CPU.
func hpa(m meta, obj *v1alpha2.LlamaStackDistribution) *autoscalingv2.HorizontalPodAutoscaler {
	w := obj.Spec.Workload
	if w == nil || w.Autoscaling == nil {
		return nil
	}
	a := w.Autoscaling
	metric := func(name corev1.ResourceName, percent int32) autoscalingv2.MetricSpec {
		return autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
			Name: name, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: &percent},
		}}
	}
	var metrics []autoscalingv2.MetricSpec
	if a.TargetCPUUtilizationPercentage != nil {
		metrics = append(metrics, metric(corev1.ResourceCPU, *a.TargetCPUUtilizationPercentage))
	}
	if a.TargetMemoryUtilizationPercentage != nil {
		metrics = append(metrics, metric(corev1.ResourceMemory, *a.TargetMemoryUtilizationPercentage))
	}
	if len(metrics) == 0 {
		metrics = append(metrics, metric(corev1.ResourceCPU, 80))
	}
	return &autoscalingv2.HorizontalPodAutoscaler{
		TypeMeta:   metav1.TypeMeta{APIVersion: "autoscaling/v2", Kind: "HorizontalPodAutoscaler"},
		ObjectMeta: m.object(m.names.HPA()),
		Spec: autoscalingv2.HorizontalPodAutoscalerSpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: m.names.Deployment()},
			MinReplicas:    a.MinReplicas,
			MaxReplicas:    a.MaxReplicas,
			Metrics:        metrics,
		},
	}
}

// pdb keeps pods through voluntary disruptions: as the spec says, else maxUnavailable 1
// when there is more than one replica (minAvailable 1 would block every drain of one pod).
func pdb(m meta, obj *v1alpha2.LlamaStackDistribution) *policyv1.PodDisruptionBudget {
	w := obj.Spec.Workload
	spec := policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: m.names.Selector()}}
	switch {
	case w != nil && w.PodDisruptionBudget != nil:
		spec.MinAvailable = w.PodDisruptionBudget.MinAvailable
		spec.MaxUnavailable = w.PodDisruptionBudget.MaxUnavailable
	case w != nil && (w.Autoscaling != nil || (w.Replicas != nil && *w.Replicas > 1)):
		one := intstr.FromInt32(1)
		spec.MaxUnavailable = &one
	default:
		return nil
	}
	return &policyv1.PodDisruptionBudget{
		TypeMeta:   metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: m.object(m.names.PDB()),
		Spec:       spec,
	}
}
