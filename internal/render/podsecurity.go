// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/lazyre"
)

// Pod security levels of the Pod Security Standards, for RenderOptions spec.podSecurity: the
// most a platform lets the pods of an LLSD have. llsd's own pod settings are restricted; a
// spec's overrides (a hostPath volume, an AppArmor annotation) may need more, and get it only
// where the platform allows it, with a warning.
const (
	PodSecurityRestricted = "restricted"
	PodSecurityBaseline   = "baseline"
	PodSecurityPrivileged = "privileged"
)

var podSecurityEvaluator = sync.OnceValues(func() (policy.Evaluator, error) {
	return policy.NewEvaluator(policy.DefaultChecks())
})

// checkPod refuses a rendered pod that asks for more privilege than the platform allows, or
// that the API server would reject for what the spec's overrides added: Bidirectional mount
// propagation (privileged containers only), a legacy seccomp annotation, an invalid service account name. What the platform
// allows beyond restricted is a warning naming the field, as is a service account token for
// another audience than the API server.
func checkPod(in Input, pod *corev1.PodTemplateSpec) (field.ErrorList, []config.Warning) {
	errs, warnings := checkPodSecurity(in, pod)
	o := overrides(in.Object)
	if o == nil {
		return append(errs, checkPodAnnotations(pod)...), warnings
	}
	if name := o.ServiceAccountName; name != "" {
		for _, msg := range k8svalidation.IsDNS1123Subdomain(name) {
			errs = append(errs, field.Invalid(overridesPath.Child("serviceAccountName"), name, msg))
		}
	}
	errs = append(errs, checkPodAnnotations(pod)...)
	errs = append(errs, missingFiles(in, &pod.Spec, o)...)
	for i, v := range o.Volumes {
		p := overridesPath.Child("volumes").Index(i)
		if pr := v.Projected; pr != nil {
			for k, source := range pr.Sources {
				token := source.ServiceAccountToken
				switch {
				case token == nil:
				case forAPIServer(token.Audience) && tokenOf(in).keep: // the pod has the API server's token anyway
				case forAPIServer(token.Audience):
					errs = append(errs, field.Forbidden(p.Child("projected", "sources").Index(k).Child("serviceAccountToken", "audience"),
						"a service account token for the API server (no audience, or the API server's own) gives the server the API access "+
							"that automountServiceAccountToken: false keeps from it: set the audience of the service that takes the token "+
							"(sts.amazonaws.com, ...), or set workload.pod.automountServiceAccountToken: true if the server needs the API"))
				default:
					warnings = append(warnings, config.Warning{Field: p.Child("projected").String(), Message: fmt.Sprintf(
						"mounts a token of the pod's service account for audience %q: whatever accepts that audience trusts the server as that account",
						token.Audience)})
				}
			}
		}
	}
	for i, m := range o.VolumeMounts {
		p := overridesPath.Child("volumeMounts").Index(i)
		if m.MountPropagation != nil && *m.MountPropagation == corev1.MountPropagationBidirectional {
			errs = append(errs, field.Forbidden(p.Child("mountPropagation"),
				"Bidirectional propagation is only for privileged containers, and the server's is not: use HostToContainer or None"))
		}
	}
	return errs, warnings
}

// checkPodSecurity evaluates the pod against the Pod Security Standards: what restricted
// forbids is an error unless the platform's level allows it, then a warning.
func checkPodSecurity(in Input, pod *corev1.PodTemplateSpec) (field.ErrorList, []config.Warning) {
	evaluator, err := podSecurityEvaluator()
	if err != nil {
		return field.ErrorList{field.InternalError(workloadPath, err)}, nil
	}
	allowed := in.Options.PodSecurity
	if allowed == "" {
		allowed = PodSecurityRestricted
	}
	// A volume without a source is an error of its own (sourcelessVolumes); the standards
	// would call its type "unknown".
	spec := pod.Spec
	spec.Volumes = slices.DeleteFunc(slices.Clone(spec.Volumes), func(v corev1.Volume) bool { return !hasSource(v) })
	allowedResults := evaluator.EvaluatePod(psaapi.LevelVersion{Level: psaapi.Level(allowed), Version: psaapi.LatestVersion()}, &pod.ObjectMeta, &spec)
	var errs field.ErrorList
	for _, r := range allowedResults {
		if !r.Allowed {
			errs = append(errs, field.Forbidden(podSecurityField(r.ForbiddenReason), fmt.Sprintf(
				"the pods would not meet the Pod Security Standard %q that the platform allows (%s: %s): remove it, or have the "+
					"platform allow more with RenderOptions spec.podSecurity", allowed, r.ForbiddenReason, r.ForbiddenDetail)))
		}
	}
	if len(errs) > 0 || allowed == PodSecurityRestricted {
		return errs, nil
	}
	var warnings []config.Warning
	for _, r := range evaluator.EvaluatePod(psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()}, &pod.ObjectMeta, &spec) {
		if !r.Allowed {
			warnings = append(warnings, config.Warning{Field: podSecurityField(r.ForbiddenReason).String(), Message: fmt.Sprintf(
				"the pods are not restricted (%s: %s), which RenderOptions spec.podSecurity: %s allows", r.ForbiddenReason, r.ForbiddenDetail, allowed)})
		}
	}
	return nil, warnings
}

// podSecurityField is the spec field behind a Pod Security Standards violation: llsd's own
// settings are restricted, so it is a volume or an annotation the spec added.
func podSecurityField(reason string) *field.Path {
	switch {
	case strings.Contains(reason, "volume"):
		return workloadPath.Child("overrides", "volumes")
	case strings.Contains(reason, "AppArmor"), strings.Contains(reason, "seccomp"), strings.Contains(reason, "sysctl"):
		return workloadPath.Child("pod", "annotations")
	}
	return workloadPath
}

// checkPodAnnotations refuses the legacy seccomp annotations, which the API server rejects
// on pods now that the profile is a field (llsd sets RuntimeDefault).
func checkPodAnnotations(pod *corev1.PodTemplateSpec) field.ErrorList {
	var errs field.ErrorList
	for _, key := range slices.Sorted(maps.Keys(pod.Annotations)) {
		if strings.HasPrefix(key, "seccomp.security.alpha.kubernetes.io/") || strings.HasPrefix(key, "container.seccomp.security.alpha.kubernetes.io/") {
			errs = append(errs, field.Forbidden(workloadPath.Child("pod", "annotations").Key(key),
				"seccomp profiles are a field of the pod now, not an annotation, and llsd sets RuntimeDefault: remove the annotation"))
		}
	}
	return errs
}

// apiServerAudience matches the audiences API servers accept by default (their --api-audiences,
// the service account issuer): kubernetes.default.svc in its spellings, with or without a
// scheme, and GKE's cluster URLs.
var apiServerAudience = lazyre.New(`(?i)^(https?://)?(kubernetes(\.default(\.svc(\.cluster\.local)?)?)?|container\.googleapis\.com/v1/projects/.*)/?$`)

// forAPIServer: a projected token of this audience is one the API server takes.
func forAPIServer(audience string) bool {
	return audience == "" || apiServerAudience().MatchString(strings.TrimSpace(audience))
}
