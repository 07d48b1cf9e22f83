// SPDX-License-Identifier: Apache-2.0

package openshift_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/internal/testsupport/openshift"
)

func TestRestrictedV2(t *testing.T) {
	admitted := func() corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true), SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault}},
			Containers: []corev1.Container{{Name: "c", Image: "i", SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: ptr.To(false),
				Capabilities: &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}}}}},
			Volumes: []corev1.Volume{{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		}}
	}
	for _, tc := range []struct {
		reason string
		change func(*corev1.PodTemplateSpec)
		want   string
	}{
		{reason: "a pod as llsd renders it for OpenShift", change: func(*corev1.PodTemplateSpec) {}},
		{reason: "a fixed user outside any namespace's range", change: func(p *corev1.PodTemplateSpec) { p.Spec.SecurityContext.RunAsUser = ptr.To(int64(65534)) },
			want: "the pod: runAsUser is fixed"},
		{reason: "a container's fixed group", change: func(p *corev1.PodTemplateSpec) { p.Spec.Containers[0].SecurityContext.RunAsGroup = ptr.To(int64(0)) },
			want: "container c: runAsGroup is fixed"},
		{reason: "a fixed fsGroup", change: func(p *corev1.PodTemplateSpec) { p.Spec.SecurityContext.FSGroup = ptr.To(int64(1000)) },
			want: "the pod: fsGroup is fixed"},
		{reason: "a hostPath volume", change: func(p *corev1.PodTemplateSpec) {
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "root", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}}})
		}, want: "volume root: a type restricted-v2 does not list"},
		{reason: "privilege escalation", change: func(p *corev1.PodTemplateSpec) {
			p.Spec.Containers[0].SecurityContext.AllowPrivilegeEscalation = ptr.To(true)
		}, want: "Pod Security Standard restricted: allowPrivilegeEscalation"},
	} {
		pod := admitted()
		tc.change(&pod)
		problems := openshift.RestrictedV2(pod)
		if tc.want == "" {
			assert.Empty(t, problems, tc.reason)
			continue
		}
		assert.True(t, slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, tc.want) }), "%s: %v", tc.reason, problems)
	}
}
