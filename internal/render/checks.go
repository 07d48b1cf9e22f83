// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/validation"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// What the objects of an LLSD would get wrong in a cluster, found before they are rendered:
// errors for what the API server or the workload would refuse, warnings for what works but
// surprises.

var (
	workloadPath   = field.NewPath("spec", "workload")
	networkingPath = field.NewPath("spec", "networking")
)

// check returns the errors and warnings of in.
func check(in Input) (field.ErrorList, []config.Warning) {
	errs := append(checkEnv(in), checkSecretReferences(in)...)
	errs = append(errs, checkCommandLine(in)...)
	errs = append(errs, checkReferencedNames(in)...)
	errs = append(errs, checkTelemetryCredentials(in)...)
	errs = append(errs, checkAuthentication(in)...)
	var warnings []config.Warning
	add := func(e field.ErrorList, w []config.Warning) {
		errs, warnings = append(errs, e...), append(warnings, w...)
	}
	add(checkScale(in))
	add(checkExpose(in))
	errs = append(errs, checkCABundle(in)...)
	if in.Object.Spec.ClusterTrustedCAs() && in.Options.Platform != PlatformOpenShift {
		errs = append(errs, field.Invalid(networkingPath.Child("tls", "clusterTrustedCAs"), true,
			"only OpenShift fills a ConfigMap with the cluster's trusted CAs: set the render option platform: openshift there, "+
				"or elsewhere list a ConfigMap of your cluster's CAs (trust-manager's bundle, say) in networking.tls.caBundles"))
	}
	add(checkAllowedFrom(in))
	warnings = append(warnings, checkTelemetry(in)...)
	add(checkMonitoring(in))
	warnings = append(warnings, checkEgress(in)...)
	return errs, warnings
}

// SpecErrors are the errors of the checks that read only the spec (and the distribution, when
// it resolved): what a render reports next to an error that stopped it before the objects (a
// distribution it cannot resolve, a config it cannot generate), so that the user finds every
// problem of the object at once.
func SpecErrors(in Input) field.ErrorList {
	if in.Config == nil {
		in.Config = &config.Result{}
	}
	errs := checkReferencedNames(in)
	errs = append(errs, checkCABundle(in)...)
	allowed, _ := checkAllowedFrom(in)
	errs = append(errs, allowed...)
	scale, _ := checkScale(in) // without a config: a volume that attaches to one node, an autoscaler without requests
	errs = append(errs, scale...)
	if in.Distribution != nil {
		errs = append(errs, checkCommandLine(in)...)
	}
	return errs
}

// checkAllowedFrom refuses allowedFrom labels that are no label selector (key or key=value),
// and warns of a namespace no namespace can be called: its entry would admit nothing.
func checkAllowedFrom(in Input) (field.ErrorList, []config.Warning) {
	n := in.Object.Spec.Networking
	if n == nil || n.AllowedFrom == nil {
		return nil, nil
	}
	var warnings []config.Warning
	for i, ns := range n.AllowedFrom.Namespaces {
		if problems := k8svalidation.IsDNS1123Label(ns); ns != "*" && len(problems) > 0 {
			fix := ""
			if lower := strings.ToLower(ns); len(k8svalidation.IsDNS1123Label(lower)) == 0 {
				fix = fmt.Sprintf(" (did you mean %s?)", lower)
			}
			warnings = append(warnings, config.Warning{Field: networkingPath.Child("allowedFrom", "namespaces").Index(i).String(),
				Message: fmt.Sprintf("no namespace can be called %q, so this entry admits nothing: a namespace name is a "+
					"lowercase DNS label%s", ns, fix)})
		}
	}
	var errs field.ErrorList
	for i, label := range n.AllowedFrom.Labels {
		p := networkingPath.Child("allowedFrom", "labels").Index(i)
		key, value, _ := strings.Cut(label, "=")
		problems := append(k8svalidation.IsQualifiedName(key), k8svalidation.IsValidLabelValue(value)...)
		if len(problems) > 0 {
			errs = append(errs, field.Invalid(p, label, "a namespace label is key or key=value (team or team=frontend): "+
				strings.Join(problems, "; ")))
		}
	}
	return errs, warnings
}

// checkEnv refuses a variable of spec.workload.overrides.env that llsd sets itself: the
// container would list it twice, which server-side apply rejects, and one of the two values
// would be lost.
func checkEnv(in Input) field.ErrorList {
	o := overrides(in.Object)
	if o == nil {
		return nil
	}
	owners := map[string]string{
		in.Distribution.Profile.PortEnv: "⟦spec.networking.port⟧",
		"SSL_CERT_FILE":                 "⟦spec.networking.tls.caBundle⟧",
	}
	switch {
	case userRunConfigPath(in):
	case in.UserConfig != "":
		owners["RUN_CONFIG_PATH"] = fmt.Sprintf("llsd (to %s/<key of ⟦spec.overrideConfig⟧'s ConfigMap>; a RUN_CONFIG_PATH of yours must name a key of "+
			"ConfigMap %s where the pod mounts it: %s/<key>, or a mount of it in ⟦spec.workload.overrides⟧)", config.ConfigDir, in.UserConfig, config.ConfigDir)
	case !in.runsImageConfig():
		owners["RUN_CONFIG_PATH"] = "llsd (the generated config's path; set ⟦spec.overrideConfig⟧ to run your own config)"
	}
	for name, f := range in.Config.EnvFields {
		owners[name] = f
	}
	maps.Copy(owners, telemetryEnvOwners(in.Object))
	maps.Copy(owners, metricsEnvOwners(in.Object))
	if hasExternalProviders(in.Object) {
		owners["PYTHONPATH"] = "⟦spec.externalProviders⟧ (each provider's package directory)"
	}
	var errs field.ErrorList
	for i, e := range o.Env {
		if owner, ok := owners[e.Name]; ok {
			fix := "set it there, not in ⟦spec.workload.overrides.env⟧"
			if strings.HasPrefix(owner, "llsd") {
				fix = "remove it from ⟦spec.workload.overrides.env⟧"
			}
			errs = append(errs, field.Duplicate(workloadPath.Child("overrides", "env").Index(i).Child("name"),
				fmt.Sprintf("%s is set by %s: %s", e.Name, owner, fix)))
		}
	}
	return errs
}

// maxReplicas is the most pods the Deployment runs: its replicas, or the autoscaler's maximum.
func maxReplicas(w *v1alpha2.WorkloadSpec) (int32, *field.Path) {
	switch {
	case w == nil:
		return v1alpha2.DefaultReplicas, nil
	case w.Autoscaling != nil:
		return w.Autoscaling.MaxReplicas, workloadPath.Child("autoscaling", "maxReplicas")
	case w.Replicas != nil:
		return *w.Replicas, workloadPath.Child("replicas")
	}
	return v1alpha2.DefaultReplicas, nil
}

// startsAtOne reports whether the workload runs one replica until an autoscaler scales it out.
func startsAtOne(w *v1alpha2.WorkloadSpec) bool {
	return w != nil && w.Autoscaling != nil && ptr.Deref(w.Autoscaling.MinReplicas, 1) <= 1
}

// checkScale refuses more than one replica where each would have its own state, or could not
// start at all, and an autoscaler without the resource requests its utilization is measured
// against.
func checkScale(in Input) (field.ErrorList, []config.Warning) {
	w := in.Object.Spec.Workload
	var errs field.ErrorList
	var warnings []config.Warning
	if n, path := maxReplicas(w); n > 1 {
		// What fails from the start is an error; what fails only when an autoscaler that starts
		// at one replica scales out is a warning that names that condition (docs/troubleshooting.md).
		refuse := func(detail string) {
			if startsAtOne(w) {
				warnings = append(warnings, config.Warning{Field: path.String(), Message: fmt.Sprintf(
					"when the autoscaler scales out (it starts at one replica and may run %d): %s", n, detail)})
				return
			}
			errs = append(errs, field.Invalid(path, n, detail))
		}
		if shared := in.Config.SharedStateMissing; len(shared) > 0 {
			refuse(fmt.Sprintf(
				"%d replicas would each keep their own registry, conversations and stores in %s: set ⟦spec.storage.kv⟧ "+
					"{type: redis, ...} and ⟦spec.storage.sql⟧ {type: postgres, ...} so that they share them, or run one replica",
				n, strings.Join(shared, " and ")))
		}
		if w.Storage != nil && !slices.Contains(w.Storage.AccessModes, "ReadWriteMany") {
			refuse("⟦spec.workload.storage⟧ is a ReadWriteOnce volume, which attaches to one node: replicas scheduled on other " +
				"nodes cannot start; run one replica, " + wording.Fix(wording.FixSharedVolume,
				"set ⟦spec.workload.storage.accessModes⟧: [ReadWriteMany] with a class that provides it, or ") +
				"remove ⟦spec.workload.storage⟧ and keep the state in ⟦spec.storage⟧")
		}
		if local := in.Config.ReplicaLocalData; len(local) > 0 {
			warnings = append(warnings, config.Warning{Field: path.String(), Message: fmt.Sprintf(
				"%d replicas do not share the files of %s: a file or vector store one replica wrote is missing on the "+
					"others; use remote providers (remote::s3 files, remote::pgvector, ...) or disable those APIs",
				n, strings.Join(local, ", "))})
		}
	}
	if w != nil && w.Autoscaling != nil {
		a := w.Autoscaling
		if minimum := ptr.Deref(a.MinReplicas, 1); w.Replicas != nil && *w.Replicas > minimum {
			warnings = append(warnings, config.Warning{Field: workloadPath.Child("replicas").String(), Message: fmt.Sprintf(
				"the autoscaler owns the replica count (%d to %d), so replicas: %d is not written to the Deployment: set "+
					"⟦spec.workload.autoscaling.minReplicas⟧: %d to keep at least %d running, and remove replicas",
				minimum, a.MaxReplicas, *w.Replicas, *w.Replicas, *w.Replicas)})
		}
		cpu := a.TargetCPUUtilizationPercentage != nil || a.TargetMemoryUtilizationPercentage == nil
		for _, need := range []struct {
			target bool
			name   corev1.ResourceName
		}{{cpu, corev1.ResourceCPU}, {a.TargetMemoryUtilizationPercentage != nil, corev1.ResourceMemory}} {
			if _, ok := w.Resources.Requests[need.name]; need.target && !ok {
				// The server runs at the autoscaler's minimum: it fails only when load should
				// scale it out (the refusal rule: a warning naming that condition).
				warnings = append(warnings, config.Warning{Field: workloadPath.Child("resources", "requests", string(need.name)).String(),
					Message: fmt.Sprintf("the autoscaler scales on %s utilization, a share of the %s request, which is not set: "+
						"the server runs at its minimum of %d and never scales out under load; set ⟦spec.workload.resources.requests.%s⟧",
						need.name, need.name, ptr.Deref(a.MinReplicas, 1), need.name)})
			}
		}
	}
	return errs, warnings
}

// checkExpose refuses an Ingress that cannot serve what the server serves: TLS without a host,
// annotations the API server rejects.
func checkExpose(in Input) (field.ErrorList, []config.Warning) {
	obj := in.Object
	if !obj.Spec.ExposeEnabled() {
		return nil, nil
	}
	exposePath := networkingPath.Child("expose")
	errs, warnings := checkExposedAuthentication(in, exposePath)
	warnings = append(warnings, checkCertManagerWithoutTLS(in, exposePath)...)
	if routeEnabled(obj, in.Options) {
		if host := ingressHost(obj, in.Options); strings.HasPrefix(host, "*") {
			errs = append(errs, field.Invalid(exposePath.Child("hostname"), host,
				"a Route serves one host, not a wildcard: set one host such as chat.apps.example.com, or leave "+
					"hostname empty and the router assigns <name>-<namespace>.<its apps domain>"))
		}
		if class := obj.Spec.Networking.Expose.ClassName; class != "" && obj.Spec.Networking.Expose.Route == nil {
			from := "the render option platform: openshift, openshiftAI.release, or an OpenShift AI image"
			if in.Options.OptionsSource != "" {
				from = "the options of " + in.Options.OptionsSource + ", or an OpenShift AI image"
			}
			warnings = append(warnings, config.Warning{Field: exposePath.Child("className").String(), Message: fmt.Sprintf(
				"ingress class %s is not used: the server is rendered for OpenShift (%s), where it gets a Route, which has "+
					"no class; set networking.expose.route: false to keep the Ingress, or remove className", class, from)})
		}
		return append(errs, validation.ValidateAnnotations(obj.Spec.Networking.Expose.Annotations, exposePath.Child("annotations"))...), warnings
	}
	if obj.Spec.Networking.Expose.Hostname == "" && in.Options.IngressDomain != "" && obj.Namespace == "" {
		errs = append(errs, field.Required(field.NewPath("metadata", "namespace"), fmt.Sprintf("the Ingress's host is the server's name "+
			"and namespace under the render option ingress.domain (%s), and the LlamaStackDistribution names no namespace: write "+
			"metadata.namespace (or let kustomize's namespace: or Argo CD's destination set it before llsd renders), or set "+
			"networking.expose.hostname", in.Options.IngressDomain)))
	}
	if ingressHost(obj, in.Options) == "" {
		warnings = append(warnings, config.Warning{Field: exposePath.Child("hostname").String(), Message: "the Ingress names no host, " +
			"so it answers for every host name and address its controller serves: set networking.expose.hostname, or the " +
			"RenderOptions ingress.domain (the host is then <name>.<namespace>.<domain>)"})
	}
	if edge := obj.Spec.Networking.Expose.TLSSecretName; edge != "" && !tlsEnabled(obj) && ingressHost(obj, in.Options) == "" {
		errs = append(errs, field.Required(exposePath.Child("hostname"), fmt.Sprintf("the Ingress serves TLS with Secret %s, and "+
			"an Ingress serves TLS only for a host: set networking.expose.hostname, or the RenderOptions ingress.domain (the host "+
			"is then the server's name and namespace under it)", edge)))
	}
	if tlsEnabled(obj) && ingressHost(obj, in.Options) == "" {
		errs = append(errs, field.Required(exposePath.Child("hostname"),
			"the server speaks TLS, and an Ingress serves TLS only for a host: set networking.expose.hostname, or the "+
				"RenderOptions ingress.domain (the host is then <name>.<namespace>.<domain>)"))
	}
	if tls := obj.Spec.ServerTLS(); tls != nil && tls.OtherKeys {
		errs = append(errs, field.Invalid(networkingPath.Child("tls", "secretName"), tls.SecretName,
			"the Ingress serves TLS with its Secret's tls.crt and tls.key, which a Secret of other keys does not have: "+
				"use a kubernetes.io/tls Secret (remove certificateKey and privateKeyKey), or expose the server with a Route"))
	}
	errs = append(errs, validation.ValidateAnnotations(obj.Spec.Networking.Expose.Annotations, exposePath.Child("annotations"))...)
	if tlsEnabled(obj) && backendTLSAnnotation(ingressClass(obj, in.Options)) == nil && !hasBackendHint(obj) {
		warnings = append(warnings, config.Warning{Field: exposePath.String(), Message: fmt.Sprintf(
			"the server speaks HTTPS, and llsd does not know how ingress class %q is told so: add the annotation your "+
				"controller reads to networking.expose.annotations (nginx: %s: HTTPS)", ingressClass(obj, in.Options), nginxBackendProtocol)})
	}
	return errs, warnings
}

// checkExposedAuthentication warns of a server exposed outside the cluster that authenticates
// nobody, or refuses it under the render option requireAuthentication: whoever reaches the host
// calls every API on the server's credentials. Under the option, a config llsd cannot read
// counts as one that authenticates nobody (the option fails closed), and an Ingress without
// TLS in front of a server that authenticates is refused: its callers' tokens would cross the
// network in clear (a warning without the option).
func checkExposedAuthentication(in Input, exposePath *field.Path) (field.ErrorList, []config.Warning) {
	what := "an Ingress"
	if routeEnabled(in.Object, in.Options) {
		what = "a Route"
	}
	refuse := func(detail string) (field.ErrorList, []config.Warning) {
		if in.Options.RequireAuthentication {
			return field.ErrorList{field.Forbidden(exposePath, detail+"; the render option requireAuthentication refuses it")}, nil
		}
		return nil, []config.Warning{{Field: exposePath.String(), Message: detail}}
	}
	switch a := in.authentication(); {
	case !a.Known && in.Options.RequireAuthentication:
		return refuse(fmt.Sprintf("the server is exposed outside the cluster (%s), and llsd cannot read the config it runs (%s), "+
			"so nothing says it authenticates its callers", what, unreadConfig(in)))
	case !a.Known:
		return nil, nil
	case a.Required && plainIngress(in):
		return refuse("the server authenticates its callers, and the Ingress in front of it has no TLS: their bearer tokens " +
			"would cross the network in clear; set ⟦spec.networking.expose.tlsSecretName⟧ to the Secret of the host's certificate " +
			"(a cert-manager issuer annotation fills it), or enable ⟦spec.networking.tls⟧")
	case a.Required:
		return nil, nil
	}
	return refuse(fmt.Sprintf("the server is exposed outside the cluster (%s) and authenticates nobody: whoever reaches it calls every API, "+
		"runs inference on the providers' accounts, reads and deletes files, vector stores, conversations and responses, and "+
		"registers models and tools; "+wording.Fix(wording.FixAuthenticate, "give the server an authentication provider "+
		"(⟦spec.authentication⟧, or server.auth in a config of your own, ⟦spec.overrideConfig⟧)")+", or put a proxy that "+
		"authenticates in front of it", what))
}

// unreadConfig says which config llsd could not read and what to put in the package.
func unreadConfig(in Input) string {
	if why := in.authentication().Unread; why != "" {
		return why
	}
	if in.UserConfig != "" {
		return fmt.Sprintf("ConfigMap %s, ⟦spec.overrideConfig⟧, is not in the package: add it beside the LLSD", in.UserConfig)
	}
	return "its image's own: name a distribution llsd knows (⟦spec.distribution.name⟧, or serverVersion with your image) and " +
		"⟦spec.authentication⟧, or put a config of your own in the package (⟦spec.overrideConfig⟧)"
}

// plainIngress reports whether the server is exposed through an Ingress without TLS.
func plainIngress(in Input) bool {
	obj := in.Object
	return obj.Spec.ExposeEnabled() && !routeEnabled(obj, in.Options) && obj.Spec.ServerTLS() == nil &&
		obj.Spec.Networking.Expose.TLSSecretName == ""
}

// checkCertManagerWithoutTLS warns of a cert-manager issuer annotation on an Ingress without a
// TLS section: cert-manager issues a certificate only for the Secret a TLS section names.
func checkCertManagerWithoutTLS(in Input, exposePath *field.Path) []config.Warning {
	if !plainIngress(in) {
		return nil
	}
	for _, key := range []string{"cert-manager.io/cluster-issuer", "cert-manager.io/issuer"} {
		if _, ok := in.Object.Spec.Networking.Expose.Annotations[key]; ok {
			return []config.Warning{{Field: exposePath.Child("annotations").Key(key).String(), Message: "cert-manager issues a " +
				"certificate for the Secret an Ingress's TLS section names, and this Ingress has none: nothing is issued and the " +
				"host serves plain HTTP; set ⟦spec.networking.expose.tlsSecretName⟧ to the Secret cert-manager should fill"}}
		}
	}
	return nil
}

// hasBackendHint reports whether the spec's annotations already tell a controller about TLS.
func hasBackendHint(obj *v1alpha2.LlamaStackDistribution) bool {
	for k := range obj.Spec.Networking.Expose.Annotations {
		if strings.Contains(k, "backend-protocol") || strings.Contains(k, "termination") {
			return true
		}
	}
	return false
}

// checkCABundle refuses CA bundle keys their ConfigMap does not have, when it is among the
// inputs (the pod would not start).
func checkCABundle(in Input) field.ErrorList {
	var errs field.ErrorList
	for _, src := range caSources(in.Object) {
		data, ok := in.ConfigMaps[in.Object.Namespace+"/"+src.ConfigMapName]
		if !ok {
			continue
		}
		for i, key := range src.Keys() {
			if _, ok := data[key]; !ok {
				errs = append(errs, field.NotFound(src.Path.Child("configMapKeys").Index(i), key))
			}
		}
	}
	return errs
}

// checkReferencedNames refuses a name of an object the pod refers to (a Secret, a ConfigMap, a
// claim, a pull secret) that no such object can have: the API server rejects the Deployment.
// Placeholders (<llama-stack-secret>) are the common case: the spec renders and "0 invalid" is
// printed, and the apply fails.
func checkReferencedNames(in Input) field.ErrorList {
	var errs field.ErrorList
	check := func(p *field.Path, kind, name string) {
		if problems := k8svalidation.IsDNS1123Subdomain(name); name != "" && len(problems) > 0 {
			errs = append(errs, field.Invalid(p, name, fmt.Sprintf("no %s can be called so (%s): write the name of the %s it stands for",
				kind, strings.Join(problems, "; "), kind)))
		}
	}
	if o := overrides(in.Object); o != nil {
		for i, e := range o.Env {
			p := overridesPath.Child("env").Index(i).Child("valueFrom")
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				check(p.Child("secretKeyRef", "name"), "Secret", e.ValueFrom.SecretKeyRef.Name)
			}
			if e.ValueFrom != nil && e.ValueFrom.ConfigMapKeyRef != nil {
				check(p.Child("configMapKeyRef", "name"), "ConfigMap", e.ValueFrom.ConfigMapKeyRef.Name)
			}
		}
		for i, v := range o.Volumes {
			p := overridesPath.Child("volumes").Index(i)
			switch {
			case v.Secret != nil:
				check(p.Child("secret", "secretName"), "Secret", v.Secret.SecretName)
			case v.ConfigMap != nil:
				check(p.Child("configMap", "name"), "ConfigMap", v.ConfigMap.Name)
			case v.PersistentVolumeClaim != nil:
				check(p.Child("persistentVolumeClaim", "claimName"), "PersistentVolumeClaim", v.PersistentVolumeClaim.ClaimName)
			}
		}
	}
	if w := in.Object.Spec.Workload; w != nil && w.Pod != nil {
		for i, s := range w.Pod.ImagePullSecrets {
			check(workloadPath.Child("pod", "imagePullSecrets").Index(i).Child("name"), "Secret", s.Name)
		}
	}
	return errs
}
