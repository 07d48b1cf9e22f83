// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// observed is what the reconciler read for one LlamaStackDistribution.
type observed struct {
	// ConfigMapFound: the receipt's ConfigMap, or the overrideConfig ConfigMap, exists;
	// ConfigMapKeys are its keys.
	ConfigMapFound bool
	ConfigMapKeys  []string
	Deployment     *appsv1.Deployment
	Service        *corev1.Service
	Ingress        *networkingv1.Ingress
	// Route is the Route an exposed object has instead of an Ingress (OpenShift).
	Route *unstructured.Unstructured
	// SecretProblems are "field: problem" lines; MissingSecret is true when one is a
	// missing Secret rather than a missing key.
	SecretProblems []string
	MissingSecret  bool
	// MissingSecretKey is true when a problem is a missing key; the others are values the
	// server would misread.
	MissingSecretKey bool
	SecretCount      int
	// CABundleProblems are the same for the CA bundle ConfigMap (networking.tls.caBundle),
	// which the pod mounts: a missing one keeps it from starting.
	CABundleProblems []string
	MissingCABundle  bool
	// Live is what the running server said, nil when it was not asked (no available replica);
	// liveAfter is when it is asked again.
	Live      *liveServer
	liveAfter time.Duration
	Now       metav1.Time
}

// computeStatus derives the status from the render receipt on obj and what was observed.
// Conditions keep their lastTransitionTime while their status does not change.
func computeStatus(obj *v1alpha2.LlamaStackDistribution, o observed) v1alpha2.LlamaStackDistributionStatus {
	receipt, rendered := api.ReadReceipt(obj.Annotations)
	st := v1alpha2.LlamaStackDistributionStatus{
		ObservedGeneration: obj.Generation,
		Conditions:         append([]metav1.Condition(nil), obj.Status.Conditions...),
	}
	set := func(t string, v verdict) {
		status := metav1.ConditionFalse
		switch {
		case unknowable[v.reason]:
			status = metav1.ConditionUnknown
		case v.ok:
			status = metav1.ConditionTrue
		}
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: t, Status: status, Reason: v.reason,
			Message: v.message, ObservedGeneration: obj.Generation, LastTransitionTime: o.Now})
	}
	set(v1alpha2.ConditionConfigGenerated, configCondition(obj, receipt, rendered, o))
	set(v1alpha2.ConditionSecretsResolved, secretsCondition(o))
	set(v1alpha2.ConditionDeploymentUpdated, deploymentCondition(obj, o))
	set(v1alpha2.ConditionAvailable, availableCondition(obj, o))
	liveConditions(&st, receipt, o, set)

	st.Phase = phase(obj, rendered, st.Conditions)
	if rendered {
		st.ConfigGeneration = configGeneration(obj, receipt, o)
		st.ResolvedDistribution = &v1alpha2.ResolvedDistributionStatus{Image: receipt.Image,
			ConfigSource: string(receipt.ConfigSource), ConfigHash: receipt.ConfigHash}
	}
	st.Version = v1alpha2.VersionInfo{
		OperatorVersion:         receipt.RendererVersion,
		LlamaStackServerVersion: receipt.ServerVersion,
		LastUpdated:             obj.Status.Version.LastUpdated,
	}
	if st.Version.OperatorVersion != obj.Status.Version.OperatorVersion || st.Version.LlamaStackServerVersion != obj.Status.Version.LlamaStackServerVersion {
		st.Version.LastUpdated = o.Now
	}
	if o.Live != nil && o.Live.Version != "" {
		st.Version.LlamaStackServerVersion = o.Live.Version
	}
	st.DistributionConfig = v1alpha2.DistributionConfig{ActiveDistribution: obj.Spec.Distribution.Name, AvailableDistributions: distribution.Images()}
	if o.Live != nil {
		st.DistributionConfig.Providers = o.Live.Providers
	}
	if st.DistributionConfig.ActiveDistribution == "" {
		st.DistributionConfig.ActiveDistribution = "custom"
	}
	if o.Deployment != nil {
		st.AvailableReplicas = o.Deployment.Status.AvailableReplicas
	}
	st.ServiceURL = serviceURL(obj, o.Service)
	st.RouteURL = routeURL(o.Ingress)
	if st.RouteURL == nil {
		st.RouteURL = routeURLOf(o.Route)
	}
	return st
}

// liveConditions say what the running server answered: whether it answers, whether its
// providers are healthy (naming the ones that are not) and whether it is the version llsd
// rendered for. A condition the answer does not tell is left out, not kept from an earlier
// answer: all three without an available replica, the providers' health when the server
// did not list them, the version match when it named no version.
func liveConditions(st *v1alpha2.LlamaStackDistributionStatus, receipt api.Receipt, o observed, set func(string, verdict)) {
	live := o.Live
	if live == nil {
		for _, t := range []string{v1alpha2.ConditionServerReady, v1alpha2.ConditionProvidersHealthy, v1alpha2.ConditionServerVersionMatched} {
			meta.RemoveStatusCondition(&st.Conditions, t)
		}
		return
	}
	if live.Err != nil {
		set(v1alpha2.ConditionServerReady, verdict{false, v1alpha2.ReasonServerUnreachable,
			fmt.Sprintf("the server does not answer as it should through its Service: %v", live.Err)})
		meta.RemoveStatusCondition(&st.Conditions, v1alpha2.ConditionProvidersHealthy)
	} else {
		set(v1alpha2.ConditionServerReady, verdict{true, v1alpha2.ReasonServerAnswered, "the server answers, version " + live.Version})
		if live.ProvidersWithheld {
			set(v1alpha2.ConditionProvidersHealthy, verdict{false, v1alpha2.ReasonProvidersNeedAuthentication, "the server " +
				"authenticates its callers and answers GET /v1/providers only to them; llsd-controller sends no credential, so it " +
				"does not read the providers' health (the server's version and health routes stay open)"})
			return
		}
		var unhealthy []string
		for _, p := range live.Providers {
			if p.Health.Status != "" && p.Health.Status != "OK" && p.Health.Status != "Not Implemented" {
				unhealthy = append(unhealthy, fmt.Sprintf("%s provider %s (%s): %s %s", p.API, p.ProviderID, p.ProviderType, p.Health.Status, p.Health.Message))
			}
		}
		omitted := ""
		if live.Omitted > 0 {
			omitted = fmt.Sprintf(" (the server listed %d more, which the status leaves out)", live.Omitted)
		}
		if len(unhealthy) > 0 {
			set(v1alpha2.ConditionProvidersHealthy, verdict{false, v1alpha2.ReasonProviderUnhealthy, strings.Join(unhealthy, "; ") + omitted})
		} else {
			set(v1alpha2.ConditionProvidersHealthy, verdict{true, v1alpha2.ReasonAllProvidersHealthy,
				fmt.Sprintf("%d providers report no problem", len(live.Providers)) + omitted})
		}
	}
	rendered := receipt.ServerVersion
	switch {
	case rendered == "" || live.Version == "":
		meta.RemoveStatusCondition(&st.Conditions, v1alpha2.ConditionServerVersionMatched)
	case live.Version == rendered || strings.HasPrefix(live.Version, rendered+"."):
		set(v1alpha2.ConditionServerVersionMatched, verdict{true, v1alpha2.ReasonVersionMatched, "the server runs " + live.Version})
	default:
		set(v1alpha2.ConditionServerVersionMatched, verdict{false, v1alpha2.ReasonVersionMismatch, fmt.Sprintf(
			"the server runs %s, and llsd rendered its config for %s: render again with spec.distribution.serverVersion "+
				"or the image that runs, so that the config is the one that version reads", live.Version, rendered)})
	}
}

// verdict is a condition's outcome.
type verdict struct {
	ok              bool
	reason, message string
}

// unknowable are the reasons of a condition llsd cannot judge either way: Unknown, not False.
var unknowable = map[string]bool{v1alpha2.ReasonProvidersNeedAuthentication: true}

func configCondition(obj *v1alpha2.LlamaStackDistribution, receipt api.Receipt, rendered bool, o observed) verdict {
	name := receipt.ConfigMap
	specHash, err := api.SpecHash(&obj.Spec)
	switch {
	case !rendered:
		return verdict{false, v1alpha2.ReasonNotRendered, "this LlamaStackDistribution was applied without being rendered by llsd (it has no " +
			api.AnnotationConfigMap + " annotation): apply the output of kustomize build, kpt fn render or llsd render"}
	case err != nil || receipt.SpecHash != "" && receipt.SpecHash != specHash:
		return verdict{false, v1alpha2.ReasonRenderStale, "the spec changed after llsd rendered it (an edit made in the cluster, or a patch " +
			"applied after llsd in the kustomization): the generated config does not have it; change the source and render again"}
	case obj.Spec.OverrideConfig != nil && !o.ConfigMapFound:
		return verdict{false, v1alpha2.ReasonOverrideConfigMapMissing, fmt.Sprintf("spec.overrideConfig.configMapName: ConfigMap %q not found in namespace %s: create it with a config.yaml key",
			obj.Spec.OverrideConfig.ConfigMapName, obj.Namespace)}
	case overrideKeyMissing(obj, o):
		return verdict{false, v1alpha2.ReasonOverrideConfigKeyMissing, fmt.Sprintf("spec.overrideConfig: ConfigMap %q has no key %s (it has %s), and the pod cannot start: "+
			"add the key, or set spec.overrideConfig.key to the key that holds the server's config and render again",
			obj.Spec.OverrideConfig.ConfigMapName, mountedConfigKey(obj, o.Deployment), strings.Join(o.ConfigMapKeys, ", "))}
	case receipt.ConfigSource == api.ConfigSourceImage:
		return verdict{true, v1alpha2.ReasonImageConfig, fmt.Sprintf("The image %s runs the config it ships: llsd generated none, and cannot check it", receipt.Image)}
	case obj.Spec.OverrideConfig != nil:
		return verdict{true, v1alpha2.ReasonOverrideConfigFound, fmt.Sprintf("Using %s from ConfigMap %s", mountedConfigKey(obj, o.Deployment), name)}
	case !o.ConfigMapFound:
		return verdict{false, v1alpha2.ReasonConfigMapMissing, fmt.Sprintf("ConfigMap %s from the render receipt does not exist in namespace %s: apply every object llsd rendered, not only the LlamaStackDistribution",
			name, obj.Namespace)}
	}
	server := "server " + receipt.ServerVersion
	if p, ok := profile.For(profile.Version(receipt.ServerVersion)); ok {
		server = p.String()
	}
	return verdict{true, v1alpha2.ReasonConfigGenerationSucceeded, fmt.Sprintf("Generated config.yaml with %d providers and %d resources (ConfigMap %s, %s)",
		receipt.ProviderCount, receipt.ResourceCount, name, server)}
}

// secretsCondition: the Secrets, and the CA bundle ConfigMap, the pod reads.
func secretsCondition(o observed) verdict {
	problems := strings.Join(append(append([]string(nil), o.SecretProblems...), o.CABundleProblems...), "; ")
	switch {
	case len(o.SecretProblems) > 0 && o.MissingSecret:
		return verdict{false, v1alpha2.ReasonSecretNotFound, problems}
	case len(o.SecretProblems) > 0 && o.MissingSecretKey:
		return verdict{false, v1alpha2.ReasonSecretKeyNotFound, problems}
	case len(o.SecretProblems) > 0:
		return verdict{false, v1alpha2.ReasonSecretValueConverted, problems}
	case o.MissingCABundle:
		return verdict{false, v1alpha2.ReasonCABundleNotFound, problems}
	case len(o.CABundleProblems) > 0:
		return verdict{false, v1alpha2.ReasonCABundleKeyNotFound, problems}
	}
	return verdict{true, v1alpha2.ReasonAllSecretsFound, fmt.Sprintf("Resolved %d secret references", o.SecretCount)}
}

func deploymentCondition(obj *v1alpha2.LlamaStackDistribution, o observed) verdict {
	d := o.Deployment
	if d == nil {
		return verdict{false, v1alpha2.ReasonDeploymentMissing, fmt.Sprintf("Deployment %s not found in namespace %s: apply the rendered objects", obj.Name, obj.Namespace)}
	}
	want := obj.GetAnnotations()[api.AnnotationConfigHash]
	got := d.Spec.Template.Annotations[api.AnnotationConfigHash]
	if want != "" && got != want {
		return verdict{false, v1alpha2.ReasonDeploymentOutdated, fmt.Sprintf("Deployment %s runs config %s, the render receipt says %s: apply the rendered Deployment",
			d.Name, short(got), short(want))}
	}
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	if d.Status.ObservedGeneration < d.Generation || d.Status.UpdatedReplicas < replicas {
		return verdict{false, v1alpha2.ReasonRolloutInProgress, fmt.Sprintf("Deployment %s: %d of %d pods run the current template", d.Name, d.Status.UpdatedReplicas, replicas)}
	}
	return verdict{true, v1alpha2.ReasonDeploymentUpToDate, fmt.Sprintf("Deployment %s runs config %s", d.Name, short(got))}
}

func availableCondition(obj *v1alpha2.LlamaStackDistribution, o observed) verdict {
	d := o.Deployment
	if d == nil {
		return verdict{false, v1alpha2.ReasonDeploymentMissing, fmt.Sprintf("Deployment %s not found in namespace %s", obj.Name, obj.Namespace)}
	}
	if d.Status.AvailableReplicas < 1 {
		return verdict{false, v1alpha2.ReasonDeploymentUnavailable, fmt.Sprintf("Deployment %s has no available replica yet (%d ready of %d)",
			d.Name, d.Status.ReadyReplicas, d.Status.Replicas)}
	}
	return verdict{true, v1alpha2.ReasonMinimumReplicasAvailable, fmt.Sprintf("%d of %d replicas available", d.Status.AvailableReplicas, d.Status.Replicas)}
}

func phase(obj *v1alpha2.LlamaStackDistribution, rendered bool, conds []metav1.Condition) v1alpha2.DistributionPhase {
	isTrue := func(t string) bool { return meta.IsStatusConditionTrue(conds, t) }
	switch {
	case obj.DeletionTimestamp != nil:
		return v1alpha2.PhaseTerminating
	case !rendered:
		return v1alpha2.PhasePending
	case !isTrue(v1alpha2.ConditionConfigGenerated) || !isTrue(v1alpha2.ConditionSecretsResolved):
		return v1alpha2.PhaseFailed
	case isTrue(v1alpha2.ConditionAvailable) && isTrue(v1alpha2.ConditionDeploymentUpdated):
		return v1alpha2.PhaseReady
	}
	return v1alpha2.PhaseInitializing
}

func configGeneration(obj *v1alpha2.LlamaStackDistribution, receipt api.Receipt, o observed) *v1alpha2.ConfigGenerationStatus {
	cg := &v1alpha2.ConfigGenerationStatus{
		ConfigMapName: receipt.ConfigMap,
		GeneratedAt:   o.Now,
		ProviderCount: int32(min(receipt.ProviderCount, math.MaxInt32)), //nolint:gosec // bounded by min
		ResourceCount: int32(min(receipt.ResourceCount, math.MaxInt32)), //nolint:gosec // bounded by min
		ConfigVersion: receipt.ServerVersion,
	}
	if prev := obj.Status.ConfigGeneration; prev != nil && prev.ConfigMapName == cg.ConfigMapName {
		cg.GeneratedAt = prev.GeneratedAt // when the controller first saw this config
	}
	return cg
}

// serviceURL is the in-cluster URL of the rendered Service.
func serviceURL(obj *v1alpha2.LlamaStackDistribution, svc *corev1.Service) string {
	if svc == nil || len(svc.Spec.Ports) == 0 {
		return ""
	}
	scheme := "http"
	if obj.Spec.ServerTLS() != nil {
		scheme = "https"
	}
	return fmt.Sprintf("%s://%s.%s.svc.cluster.local:%d", scheme, svc.Name, svc.Namespace, svc.Spec.Ports[0].Port)
}

// routeURL is the external URL once the Ingress has an address.
func routeURL(ing *networkingv1.Ingress) *string {
	if ing == nil || len(ing.Status.LoadBalancer.Ingress) == 0 {
		return nil
	}
	host := ing.Status.LoadBalancer.Ingress[0].Hostname
	if host == "" {
		host = ing.Status.LoadBalancer.Ingress[0].IP
	}
	if len(ing.Spec.Rules) > 0 && ing.Spec.Rules[0].Host != "" {
		host = ing.Spec.Rules[0].Host
	}
	scheme := "http"
	if len(ing.Spec.TLS) > 0 {
		scheme = "https"
	}
	url := scheme + "://" + host
	return &url
}

func short(hash string) string {
	if len(hash) > 10 {
		return hash[:10]
	}
	if hash == "" {
		return "(none)"
	}
	return hash
}

// catalogImages maps the catalog's names to images (v1alpha1's availableDistributions).

// overrideKeyMissing reports whether the overrideConfig ConfigMap lacks the key the pod runs.
func overrideKeyMissing(obj *v1alpha2.LlamaStackDistribution, o observed) bool {
	return obj.Spec.OverrideConfig != nil && !slices.Contains(o.ConfigMapKeys, mountedConfigKey(obj, o.Deployment))
}

// mountedConfigKey is the key of the overrideConfig ConfigMap the pod runs: the one its
// Deployment mounts as config.yaml (llsd may have chosen run.yaml), else the spec's.
func mountedConfigKey(obj *v1alpha2.LlamaStackDistribution, d *appsv1.Deployment) string {
	if d != nil {
		for _, v := range d.Spec.Template.Spec.Volumes {
			if cm := v.ConfigMap; cm != nil && cm.Name == obj.Spec.OverrideConfig.ConfigMapName && len(cm.Items) == 1 {
				return cm.Items[0].Key
			}
		}
	}
	return obj.Spec.OverrideConfig.ConfigKey()
}
