// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/render"
)

// Privilege only when asked, and then visibly: what the Pod Security Standard "restricted"
// forbids is refused unless the platform allows more in RenderOptions spec.podSecurity (then
// a warning names it), and what the API server rejects on a pod is refused before it is applied.
func TestPrivilegeOnlyWhenAllowed(t *testing.T) {
	overrides := func(o string) string { return "  distribution: {name: starter}\n  workload: {overrides: " + o + "}\n" }
	pod := func(p string) string { return "  distribution: {name: starter}\n  workload: {pod: " + p + "}\n" }
	hostPath := overrides("{volumes: [{name: root, hostPath: {path: /}}], volumeMounts: [{name: root, mountPath: /host}]}")
	for _, tc := range []struct {
		reason, spec, allowed string
		want                  string
	}{
		{reason: "a hostPath volume", spec: hostPath, allowed: "",
			want: `spec.workload.overrides.volumes: Forbidden: the pods would not meet the Pod Security Standard "restricted" that the platform allows (restricted volume types: volume "root" uses restricted volume type "hostPath")`},
		{reason: "a hostPath volume, which baseline forbids too", spec: hostPath, allowed: render.PodSecurityBaseline,
			want: `the pods would not meet the Pod Security Standard "baseline"`},
		{reason: "a hostPath volume the platform allows", spec: hostPath, allowed: render.PodSecurityPrivileged,
			want: `warning: spec.workload.overrides.volumes: the pods are not restricted (restricted volume types: volume "root" uses restricted volume type "hostPath"), which RenderOptions spec.podSecurity: privileged allows`},
		{reason: "an unconfined AppArmor profile", spec: pod(`{annotations: {container.apparmor.security.beta.kubernetes.io/llama-stack: unconfined}}`), allowed: "",
			want: `spec.workload.pod.annotations: Forbidden: the pods would not meet the Pod Security Standard "restricted" that the platform allows (forbidden AppArmor profile`},
		{reason: "a legacy seccomp annotation, which the API server rejects", spec: pod(`{annotations: {seccomp.security.alpha.kubernetes.io/pod: unconfined}}`), allowed: "",
			want: `spec.workload.pod.annotations[seccomp.security.alpha.kubernetes.io/pod]: Forbidden: seccomp profiles are a field of the pod now`},
		{reason: "a token for the API server, which automountServiceAccountToken: false keeps from the pod",
			spec: overrides("{volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: token}}]}}], volumeMounts: [{name: t, mountPath: /var/run/t}]}"), allowed: "",
			want: `spec.workload.overrides.volumes[0].projected.sources[0].serviceAccountToken.audience: Forbidden: a service account token for the API server`},
		{reason: "a token for the API server's own audience (F16)",
			spec: overrides("{volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: token, audience: 'https://kubernetes.default.svc.cluster.local'}}]}}], volumeMounts: [{name: t, mountPath: /var/run/t}]}"), allowed: "",
			want: `spec.workload.overrides.volumes[0].projected.sources[0].serviceAccountToken.audience: Forbidden: a service account token for the API server (no audience, or the API server's own)`},
		{reason: "the same, written as OpenShift's",
			spec: overrides("{volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: token, audience: 'https://kubernetes.default.svc'}}]}}], volumeMounts: [{name: t, mountPath: /var/run/t}]}"), allowed: "",
			want: `serviceAccountToken.audience: Forbidden: a service account token for the API server`},
		{reason: "a token for another audience",
			spec: overrides("{volumes: [{name: t, projected: {sources: [{serviceAccountToken: {path: token, audience: sts.amazonaws.com}}]}}], volumeMounts: [{name: t, mountPath: /var/run/t}]}"), allowed: "",
			want: `warning: spec.workload.overrides.volumes[0].projected: mounts a token of the pod's service account for audience "sts.amazonaws.com"`},
		{reason: "Bidirectional mount propagation, privileged containers only",
			spec: overrides("{volumes: [{name: d, emptyDir: {}}], volumeMounts: [{name: d, mountPath: /d, mountPropagation: Bidirectional}]}"), allowed: "",
			want: `spec.workload.overrides.volumeMounts[0].mountPropagation: Forbidden: Bidirectional propagation is only for privileged containers`},
		{reason: "a service account name the API server rejects", spec: overrides("{serviceAccountName: 'Admin_SA'}"), allowed: "",
			want: `spec.workload.overrides.serviceAccountName: Invalid value: "Admin_SA"`},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, problems := renderSpecWith(t, "s", tc.spec, nil, render.Options{PodSecurity: tc.allowed})
			assert.Contains(t, strings.Join(problems, "\n"), tc.want)
			if strings.HasPrefix(tc.want, "warning:") {
				assert.Empty(t, filterErrors(problems), "allowed, with a warning")
			}
		})
	}
}
