// SPDX-License-Identifier: Apache-2.0

package render

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// podSecurityContext runs the server non-root with the RuntimeDefault seccomp profile. On
// Kubernetes it is the image's user, 1001 in group 0 (which owns the image's writable
// directories); on OpenShift the namespace's security context constraints assign the user,
// its group 0 and the fsGroup, and restricted-v2 refuses fixed ones.
func podSecurityContext(opts Options) *corev1.PodSecurityContext {
	sc := &corev1.PodSecurityContext{
		RunAsNonRoot:   boolPtr(true),
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
	if opts.Platform != PlatformOpenShift {
		sc.RunAsUser, sc.RunAsGroup, sc.FSGroup = int64Ptr(runAsUser), int64Ptr(0), int64Ptr(fsGroup)
	}
	return sc
}

// applyPodSettings puts workload.pod into the pod template: labels and annotations next to
// llsd's (which the API's rules keep them from replacing), scheduling and pull secrets.
func applyPodSettings(pod *corev1.PodTemplateSpec, w *v1alpha2.WorkloadSpec) {
	if w == nil || w.Pod == nil {
		return
	}
	p := w.Pod
	if len(p.Labels) > 0 {
		labels := maps.Clone(p.Labels)
		maps.Copy(labels, pod.Labels)
		pod.Labels = labels
	}
	if len(p.Annotations) > 0 {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		for k, v := range p.Annotations {
			if _, llsd := pod.Annotations[k]; !llsd {
				pod.Annotations[k] = v
			}
		}
	}
	pod.Spec.ImagePullSecrets = p.ImagePullSecrets
	pod.Spec.NodeSelector = p.NodeSelector
	pod.Spec.Tolerations = p.Tolerations
	pod.Spec.Affinity = p.Affinity
	pod.Spec.PriorityClassName = p.PriorityClassName
	for _, rc := range p.ResourceClaims {
		claim := corev1.PodResourceClaim{Name: rc.Name}
		if rc.ResourceClaimName != "" {
			claim.ResourceClaimName = &rc.ResourceClaimName
		} else {
			claim.ResourceClaimTemplateName = &rc.ResourceClaimTemplateName
		}
		pod.Spec.ResourceClaims = append(pod.Spec.ResourceClaims, claim)
		server := &pod.Spec.Containers[0]
		if !slices.ContainsFunc(server.Resources.Claims, func(c corev1.ResourceClaim) bool { return c.Name == rc.Name }) {
			server.Resources.Claims = append(server.Resources.Claims, corev1.ResourceClaim{Name: rc.Name})
		}
	}
}
