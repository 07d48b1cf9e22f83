// SPDX-License-Identifier: Apache-2.0

// Package openshift holds what tests check of a pod that runs on OpenShift: what its default
// security context constraint for workloads, restricted-v2, admits.
package openshift

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// RestrictedV2 lists why OpenShift's restricted-v2 SCC would not admit a pod of template as
// the namespace assigns it, none when it would: the Pod Security Standard restricted; the
// user, group and fsGroup left to the namespace's range (MustRunAsRange and MustRunAs refuse a
// fixed one outside it, and no manifest knows the range); no SELinux options of its own
// (MustRunAs assigns the level); and only the volume types the SCC lists.
func RestrictedV2(template corev1.PodTemplateSpec) []string {
	var problems []string
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks())
	if err != nil {
		return []string{err.Error()}
	}
	for _, r := range evaluator.EvaluatePod(psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()}, &template.ObjectMeta, &template.Spec) {
		if !r.Allowed {
			problems = append(problems, fmt.Sprintf("Pod Security Standard restricted: %s: %s", r.ForbiddenReason, r.ForbiddenDetail))
		}
	}
	pod := template.Spec
	if sc := pod.SecurityContext; sc != nil {
		problems = append(problems, fixed("the pod", sc.RunAsUser, sc.RunAsGroup, sc.SELinuxOptions)...)
		if sc.FSGroup != nil {
			problems = append(problems, "the pod: fsGroup is fixed: restricted-v2 assigns it from the namespace's range")
		}
	}
	for _, c := range slices.Concat(pod.InitContainers, pod.Containers) {
		if sc := c.SecurityContext; sc != nil {
			problems = append(problems, fixed("container "+c.Name, sc.RunAsUser, sc.RunAsGroup, sc.SELinuxOptions)...)
		}
	}
	for _, v := range pod.Volumes {
		s := v.VolumeSource
		if s.ConfigMap == nil && s.DownwardAPI == nil && s.EmptyDir == nil && s.PersistentVolumeClaim == nil &&
			s.Projected == nil && s.Secret == nil && s.Ephemeral == nil && s.CSI == nil {
			problems = append(problems, fmt.Sprintf("volume %s: a type restricted-v2 does not list", v.Name))
		}
	}
	return problems
}

func fixed(who string, user, group *int64, selinux *corev1.SELinuxOptions) []string {
	var problems []string
	if user != nil {
		problems = append(problems, who+": runAsUser is fixed: restricted-v2 assigns the user from the namespace's range")
	}
	if group != nil {
		problems = append(problems, who+": runAsGroup is fixed: restricted-v2 assigns the group")
	}
	if selinux != nil {
		problems = append(problems, who+": seLinuxOptions are its own: restricted-v2 assigns the level")
	}
	return problems
}
