// SPDX-License-Identifier: Apache-2.0

package api

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// OGXServerVersion is the server an OGXServer runs when its image says none: the OGX release
// the successor operator's newest release seen pins (v0.14.0: docker.io/ogxai/distribution-*:1.3.0).
const OGXServerVersion = "1.3"

// The names OpenShift AI's and Open Data Hub's operators map to their platform release's own
// image: RHDev (both platforms, every release), RHAlias (Open Data Hub's OGX operator too; from
// 3.5-ea.2 the image calls itself rh). The successor's pin of the upstream names does not
// apply to them: the platform release decides the server.
const (
	RHDev   = "rh-dev"
	RHAlias = "rh"
)

// ogxResources are the container's resources as the successor sets them (its
// resolveContainerResources): a CPU request of one core per worker and 1Gi of memory where the
// OGXServer sets none, which an HPA on utilization needs; with workers set, limits equal to the
// requests where it sets none.
func ogxResources(w *ogx.WorkloadSpec) corev1.ResourceRequirements {
	var out corev1.ResourceRequirements
	workers := int32(1)
	if w != nil && w.Resources != nil {
		out = *w.Resources.DeepCopy()
	}
	workersSet := w != nil && w.Workers != nil && *w.Workers > 0
	if workersSet {
		workers = *w.Workers
	}
	defaults := corev1.ResourceList{corev1.ResourceCPU: *resource.NewQuantity(int64(workers), resource.DecimalSI), corev1.ResourceMemory: resource.MustParse("1Gi")}
	out.Requests = withDefaults(out.Requests, defaults)
	if workersSet {
		out.Limits = withDefaults(out.Limits, out.Requests)
	}
	return out
}

// withDefaults is list with each resource of defaults it lacks (or has as zero).
func withDefaults(list, defaults corev1.ResourceList) corev1.ResourceList {
	if list == nil {
		list = corev1.ResourceList{}
	}
	for name, q := range defaults {
		if have, ok := list[name]; !ok || have.IsZero() {
			list[name] = q
		}
	}
	return list
}

// ogxToLLSD converts an OGXServer into the LlamaStackDistribution llsd renders, by the
// OGXServer's semantics and defaults: monitoring and the NetworkPolicy on unless turned off,
// state at /.ogx, 10Gi of storage, requests of a core per worker and 1Gi. What llsd cannot render as the
// successor would (Praxis mode's migration Job, a client certificate from a ConfigMap,
// NetworkPolicy rules with pod selectors) is an error that says why and what to write instead.
// Its paths map the LLSD's field paths back to the OGXServer's, for messages.
func ogxToLLSD(o *ogx.OGXServer) *ogxConversion {
	s := &o.Spec
	paths := &pathMap{}
	c := &ogxConversion{paths: paths}
	if w := s.Workload; w != nil && w.Overrides != nil {
		c.env = w.Overrides.Env
	}
	monitoring := ogxMonitoring(s.Monitoring)
	if monitoring != nil {
		c.metricsPort = *monitoring.Port // the NetworkPolicy's rules for it are Prometheus's
	}
	spec := v1alpha2.LlamaStackDistributionSpec{
		Distribution: c.distribution(s),
		Providers:    ogxProviders(s.Providers, paths),
		Resources:    c.resources(s),
		Storage:      c.storage(s.Storage),
		Disabled:     c.disabled(s.DisabledAPIs),
		Networking:   c.networking(s),
		Workload:     c.workload(s.Workload),
		Monitoring:   monitoring,
	}
	if spec.Monitoring != nil && spec.Networking.AllowedFrom != nil {
		spec.Monitoring.ScraperNamespaces = c.scrapers
		if len(c.scrapers) == 0 { // where Prometheus would be admitted
			paths.add(field.NewPath("spec", "monitoring", "scraperNamespaces"), field.NewPath("spec", "network", "policy", "ingress"))
		}
	}
	if r := s.OverrideConfig; r != nil {
		spec.OverrideConfig = &v1alpha2.OverrideConfigSpec{ConfigMapName: r.Name, Key: r.Key}
		paths.add(field.NewPath("spec", "overrideConfig", "configMapName"), field.NewPath("spec", "overrideConfig", "name"))
	}
	c.praxis(s, &spec)
	c.refuse(s)
	c.obj = &v1alpha2.LlamaStackDistribution{ObjectMeta: *o.ObjectMeta.DeepCopy(), Spec: spec}
	c.obj.APIVersion, c.obj.Kind = v1alpha2.GroupVersion.String(), v1alpha2.Kind
	return c
}

// ogxConversion is an OGXServer converted: the LLSD, the paths back, and what was refused or
// read otherwise than written.
type ogxConversion struct {
	obj      *v1alpha2.LlamaStackDistribution
	paths    *pathMap
	errs     field.ErrorList
	warnings []Warning
	// metricsPort is the port of the metrics endpoint (0: monitoring off); scrapers are the
	// namespaces the NetworkPolicy's rules admit to it alone.
	metricsPort int32
	scrapers    []string
	// env are the pod's variables the OGXServer sets itself (spec.workload.overrides.env).
	env []corev1.EnvVar
	// praxisPeer is what of the Praxis gateway's peer the OGXServer left to the defaults.
	praxisPeer *PraxisPeerDefaults
}

func (c *ogxConversion) distribution(s *ogx.OGXServerSpec) v1alpha2.DistributionSpec {
	d := v1alpha2.DistributionSpec{Name: s.Distribution.Name, Image: s.Distribution.Image}
	if d.Name == RHAlias {
		d.Name = RHDev
		c.warnings = append(c.warnings, Warning{Field: "spec.distribution.name", Message: fmt.Sprintf(
			"llsd reads %s as %s, as Open Data Hub's operator does; OpenShift AI's operator accepts only %s: write %s, which both accept",
			RHAlias, RHDev, RHDev, RHDev)})
	}
	if d.Name != "" && d.Name != RHDev {
		d.ServerVersion = OGXServerVersion // the operator's pin for a name; an image's tag says its own
	}
	// Messages name the base config where an OGXServer has it, also in a fix that asks for one.
	c.paths.add(field.NewPath("spec", "distribution", "baseConfig", "configMapName"), field.NewPath("spec", "baseConfig", "name"))
	c.paths.add(field.NewPath("spec", "distribution", "baseConfig"), field.NewPath("spec", "baseConfig"))
	if r := s.BaseConfig; r != nil {
		d.BaseConfig = &v1alpha2.BaseConfigSpec{ConfigMapName: r.Name, Key: r.Key}
	}
	return d
}

func (c *ogxConversion) resources(s *ogx.OGXServerSpec) *v1alpha2.ResourcesSpec {
	if s.Resources == nil {
		return nil
	}
	first := ""
	for _, e := range ogx.Entries(s.Providers) {
		if e.API == "inference" {
			first = e.ID
			break
		}
	}
	out := &v1alpha2.ResourcesSpec{}
	for _, m := range s.Resources.Models {
		model := v1alpha2.ModelSpec{Name: m.Name, Provider: cmp.Or(m.Provider, first), ModelType: m.ModelType, Quantization: m.Quantization}
		if m.ContextLength != nil {
			model.ContextLength = ptr.To(int32(*m.ContextLength)) //nolint:gosec // a context length is far below 2^31
		}
		out.Models = append(out.Models, model)
	}
	return out
}

func (c *ogxConversion) storage(st *ogx.StorageSpec) *v1alpha2.StateStorageSpec {
	if st == nil {
		return nil
	}
	out := &v1alpha2.StateStorageSpec{}
	if len(st.Backends) > 0 || st.Stores != nil {
		out.Backends, out.Stores = c.namedBackends(st.Backends), c.namedStores(st.Stores)
		return out
	}
	if kv := st.KV; kv != nil {
		out.KV = &v1alpha2.KVStorageSpec{Type: kv.Type, Endpoint: kv.Endpoint}
		if kv.Password != nil {
			p := secretSource(kv.Password)
			out.KV.Password = &p
		}
	}
	if sql := st.SQL; sql != nil {
		out.SQL = &v1alpha2.SQLStorageSpec{Type: sql.Type}
		if sql.ConnectionString != nil {
			p := secretSource(sql.ConnectionString)
			out.SQL.ConnectionString = &p
		}
	}
	return out
}

func (c *ogxConversion) disabled(apis []string) []v1alpha2.APIName {
	var out []v1alpha2.APIName
	for i, api := range apis {
		if api == "conversations" {
			c.errs = append(c.errs, field.Invalid(field.NewPath("spec", "disabledAPIs").Index(i), api,
				"conversations is no API of its own in the config of an OGX 1.x server (it is part of responses): llsd cannot leave it out alone; disable responses"))
			continue
		}
		c.paths.add(field.NewPath("spec", "disabled").Index(len(out)), field.NewPath("spec", "disabledAPIs").Index(i))
		out = append(out, v1alpha2.APINameOf(api))
	}
	return out
}

func (c *ogxConversion) networking(s *ogx.OGXServerSpec) *v1alpha2.NetworkingSpec {
	out := &v1alpha2.NetworkingSpec{}
	n := s.Network
	if n == nil {
		n = &ogx.NetworkSpec{}
	}
	if n.Port != 0 {
		out.Port = ptr.To(n.Port)
	}
	c.paths.add(field.NewPath("spec", "networking"), field.NewPath("spec", "network"))
	if n.TLS != nil {
		out.TLS = &v1alpha2.TLSSpec{Enabled: true, SecretName: n.TLS.SecretName}
	}
	if t := s.TLS; t != nil {
		c.clientTLS(t, out)
	}
	if e := n.ExternalAccess; e != nil && !e.Enabled && (e.Hostname != "" || e.TLS != nil) {
		c.warnings = append(c.warnings, Warning{Field: "spec.network.externalAccess.enabled", Message: "externalAccess names a " +
			"hostname or TLS and is not enabled, so the server is not exposed (the successor exposes it only when enabled is true): " +
			"set enabled: true to expose it, or remove externalAccess"})
	}
	if e := n.ExternalAccess; e != nil && e.Enabled {
		out.Expose = &v1alpha2.ExposeSpec{Hostname: e.Hostname}
		if e.TLS != nil {
			out.Expose.TLSSecretName = e.TLS.SecretName
		}
		c.paths.add(field.NewPath("spec", "networking", "expose"), field.NewPath("spec", "network", "externalAccess"))
	}
	if n.Policy == nil || n.Policy.Enabled == nil || *n.Policy.Enabled {
		out.AllowedFrom, out.Egress = c.policy(n.Policy, cmp.Or(n.Port, ogx.DefaultPort))
	}
	return out
}

func (c *ogxConversion) clientTLS(t *ogx.ClientTLSSpec, out *v1alpha2.NetworkingSpec) {
	if t.Identity != nil {
		c.errs = append(c.errs, field.Forbidden(field.NewPath("spec", "tls", "identity"),
			"llsd presents a client certificate per provider, from a kubernetes.io/tls Secret: set it on the provider that asks for one "+
				"(in a LlamaStackDistribution, providers.<api>[].clientCertificate.secretName); the successor declares identity without using it"))
	}
	if t.Trust == nil || len(t.Trust.CACertificates) == 0 {
		return
	}
	if out.TLS == nil {
		out.TLS = &v1alpha2.TLSSpec{}
	}
	// One bundle per ConfigMap, its keys in the order written: the first is caBundle.
	var bundles []v1alpha2.CABundleSpec
	for i, ca := range t.Trust.CACertificates {
		at := slices.IndexFunc(bundles, func(b v1alpha2.CABundleSpec) bool { return b.ConfigMapName == ca.Name })
		if at < 0 {
			at = len(bundles)
			bundles = append(bundles, v1alpha2.CABundleSpec{ConfigMapName: ca.Name})
		}
		bundles[at].ConfigMapKeys = append(bundles[at].ConfigMapKeys, ca.Key)
		converted := field.NewPath("spec", "networking", "tls", "caBundle")
		if at > 0 {
			converted = field.NewPath("spec", "networking", "tls", "caBundles").Index(at - 1)
		}
		c.paths.add(converted, field.NewPath("spec", "tls", "trust", "caCertificates").Index(i))
	}
	out.TLS.CABundle, out.TLS.CABundles = &bundles[0], bundles[1:]
	if len(out.TLS.CABundles) == 0 {
		out.TLS.CABundles = nil
	}
}

// policy turns the NetworkPolicy's rules into who may connect and where the server may go.
// Without rules it admits the server's own namespace, as the successor's default does (its
// other default peers, the operator's namespace and the OpenShift router, come with the
// operator and with exposing the server).
func (c *ogxConversion) policy(p *ogx.NetworkPolicySpec, port int32) (*v1alpha2.AllowedFromSpec, *v1alpha2.EgressSpec) {
	allowed := &v1alpha2.AllowedFromSpec{}
	if p == nil {
		return allowed, nil
	}
	base := field.NewPath("spec", "network", "policy")
	for i, rule := range p.Ingress {
		at := base.Child("ingress").Index(i)
		if c.metricsOnly(rule, at) {
			continue
		}
		c.ports(rule.Ports, port, at.Child("ports"))
		for j, peer := range rule.From {
			c.peer(peer, allowed, at.Child("from").Index(j))
		}
	}
	return allowed, c.egress(p.Egress, base.Child("egress"))
}

// egress turns egress rules into where the server may go. Any rule limits egress (the
// successor adds DNS), so an LLSD limits it too: to DNS, the in-cluster endpoints of its spec
// and the rules' networks. What llsd cannot say narrower than the rule (a network's ports, a
// namespace without an endpoint of the spec) is a warning, never a silent loosening.
func (c *ogxConversion) egress(rules []networkingv1.NetworkPolicyEgressRule, base *field.Path) *v1alpha2.EgressSpec {
	if len(rules) == 0 {
		return nil
	}
	egress := &v1alpha2.EgressSpec{}
	for i, rule := range rules {
		at := base.Index(i)
		if isDNSRule(rule) {
			continue // what both llsd and the successor add by themselves
		}
		for j, peer := range rule.To {
			switch {
			case peer.IPBlock != nil && peer.PodSelector == nil && peer.NamespaceSelector == nil && len(peer.IPBlock.Except) == 0:
				if len(rule.Ports) > 0 {
					// A policy that admits more than its author wrote is no policy of theirs.
					c.errs = append(c.errs, field.Forbidden(at.Child("ports"), fmt.Sprintf("llsd admits a network "+
						"(%s) on every port, and this rule admits it on some: remove ports to let the server reach the whole network, "+
						"or keep the rule in a NetworkPolicy of your own beside the OGXServer", peer.IPBlock.CIDR)))
					continue
				}
				egress.CIDRs = append(egress.CIDRs, peer.IPBlock.CIDR)
			case isNamespacePeer(peer) && len(rule.Ports) == 0:
				c.warnings = append(c.warnings, Warning{Field: at.Child("to").Index(j).String(), Message: "llsd admits the namespaces of " +
					"the spec's in-cluster endpoints (providers' endpoints or base_url settings, storage, telemetry) by itself, and no " +
					"other: a namespace of this rule without such an endpoint is not admitted; write the destination as an endpoint, or as ipBlock: {cidr: ...}"})
			default:
				c.errs = append(c.errs, field.Forbidden(at.Child("to").Index(j),
					"llsd lets the server reach DNS and the in-cluster endpoints its spec names by itself; other destinations are written as ipBlock: {cidr: ...} only"))
			}
		}
	}
	return egress
}

// isDNSRule reports whether an egress rule admits DNS alone: every namespace (the cluster's
// DNS pods), ports 53 and 5353 only, as llsd writes it.
func isDNSRule(rule networkingv1.NetworkPolicyEgressRule) bool {
	if len(rule.Ports) == 0 || len(rule.To) != 1 || rule.To[0].IPBlock != nil || rule.To[0].PodSelector != nil ||
		rule.To[0].NamespaceSelector == nil || len(rule.To[0].NamespaceSelector.MatchLabels)+len(rule.To[0].NamespaceSelector.MatchExpressions) > 0 {
		return false
	}
	return !slices.ContainsFunc(rule.Ports, func(p networkingv1.NetworkPolicyPort) bool {
		return p.Port == nil || p.EndPort != nil || (p.Port.IntValue() != 53 && p.Port.IntValue() != 5353)
	})
}

// isNamespacePeer reports whether a peer admits a whole namespace: by its name, or the
// server's own (an empty pod selector).
func isNamespacePeer(peer networkingv1.NetworkPolicyPeer) bool {
	if peer.IPBlock != nil {
		return false
	}
	if peer.NamespaceSelector == nil {
		return peer.PodSelector != nil && len(peer.PodSelector.MatchLabels)+len(peer.PodSelector.MatchExpressions) == 0
	}
	_, named := peer.NamespaceSelector.MatchLabels[corev1.LabelMetadataName]
	return peer.PodSelector == nil && named && len(peer.NamespaceSelector.MatchLabels) == 1 && len(peer.NamespaceSelector.MatchExpressions) == 0
}

// metricsOnly takes a rule that admits namespaces to the metrics port alone: they are where
// Prometheus runs (in a LlamaStackDistribution, monitoring.scraperNamespaces).
func (c *ogxConversion) metricsOnly(rule networkingv1.NetworkPolicyIngressRule, at *field.Path) bool {
	if c.metricsPort == 0 || len(rule.Ports) == 0 {
		return false
	}
	for _, p := range rule.Ports {
		if p.Port == nil || p.Port.IntValue() != int(c.metricsPort) {
			return false
		}
	}
	for j, peer := range rule.From {
		name, ok := "", peer.NamespaceSelector != nil && peer.PodSelector == nil && peer.IPBlock == nil
		if ok {
			name, ok = peer.NamespaceSelector.MatchLabels[corev1.LabelMetadataName]
		}
		if !ok || len(peer.NamespaceSelector.MatchLabels) != 1 || len(peer.NamespaceSelector.MatchExpressions) > 0 {
			c.errs = append(c.errs, field.Forbidden(at.Child("from").Index(j), fmt.Sprintf(
				"llsd admits Prometheus to the metrics port by the name of its namespace: write namespaceSelector: {matchLabels: {%s: <namespace>}}",
				corev1.LabelMetadataName)))
			continue
		}
		c.scrapers = append(c.scrapers, name)
	}
	c.paths.add(field.NewPath("spec", "monitoring", "scraperNamespaces"), at)
	return true
}

func (c *ogxConversion) ports(ports []networkingv1.NetworkPolicyPort, port int32, at *field.Path) {
	for k, p := range ports {
		if p.Protocol != nil && *p.Protocol != corev1.ProtocolTCP {
			c.warnings = append(c.warnings, Warning{Field: at.Index(k).Child("protocol").String(), Message: fmt.Sprintf(
				"the server listens on TCP, and llsd admits the rule's clients over TCP: the rule's %s is not kept", *p.Protocol)})
		}
		if p.Port != nil && p.Port.IntValue() != int(port) {
			c.errs = append(c.errs, field.Invalid(at.Index(k).Child("port"), p.Port.String(),
				fmt.Sprintf("the rules admit clients to the server's port, %d, or Prometheus to the metrics port alone (a rule of its own): "+
					"leave port out, or write %d", port, port)))
		}
	}
}

// podLabels are matchLabels as allowedFrom.pods writes them: key=value, by key.
func podLabels(matchLabels map[string]string) []string {
	labels := make([]string, 0, len(matchLabels))
	for _, k := range slices.Sorted(maps.Keys(matchLabels)) {
		labels = append(labels, k+"="+matchLabels[k])
	}
	return labels
}

// podsOfANamespace reports whether a peer selects pods by labels in one namespace by name, which
// an LLSD's allowedFrom.pods says.
func podsOfANamespace(peer networkingv1.NetworkPolicyPeer) bool {
	ns, pods := peer.NamespaceSelector, peer.PodSelector
	_, named := ns.MatchLabels[corev1.LabelMetadataName]
	return named && len(ns.MatchLabels) == 1 && len(ns.MatchExpressions) == 0 && len(pods.MatchLabels) > 0 && len(pods.MatchExpressions) == 0
}

// peer adds one ingress peer: a namespace by name or by labels, every namespace, a network, or
// the pods of a namespace.
func (c *ogxConversion) peer(peer networkingv1.NetworkPolicyPeer, allowed *v1alpha2.AllowedFromSpec, at *field.Path) {
	allowedFrom := field.NewPath("spec", "networking", "allowedFrom")
	admit := func(list *[]string, name, value string) {
		c.paths.add(allowedFrom.Child(name).Index(len(*list)), at)
		*list = append(*list, value)
	}
	switch {
	case peer.IPBlock != nil && len(peer.IPBlock.Except) == 0:
		admit(&allowed.CIDRs, "cidrs", peer.IPBlock.CIDR)
		return
	case peer.PodSelector != nil && peer.NamespaceSelector != nil && podsOfANamespace(peer):
		pods := v1alpha2.PodsPeer{Namespace: peer.NamespaceSelector.MatchLabels[corev1.LabelMetadataName], Labels: podLabels(peer.PodSelector.MatchLabels)}
		c.paths.add(allowedFrom.Child("pods").Index(len(allowed.Pods)), at)
		allowed.Pods = append(allowed.Pods, pods)
		return
	case peer.PodSelector != nil || peer.NamespaceSelector == nil:
		c.errs = append(c.errs, field.Forbidden(at, "llsd admits namespaces (namespaceSelector), networks (ipBlock without except) and "+
			"the pods of a namespace named in namespaceSelector.matchLabels (kubernetes.io/metadata.name) by podSelector.matchLabels; "+
			"write the peer so, or admit the namespace of those pods"))
		return
	}
	sel := peer.NamespaceSelector
	if len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0 {
		admit(&allowed.Namespaces, "namespaces", "*")
		return
	}
	if name, ok := sel.MatchLabels[corev1.LabelMetadataName]; ok && len(sel.MatchLabels) == 1 && len(sel.MatchExpressions) == 0 {
		admit(&allowed.Namespaces, "namespaces", name)
		return
	}
	if len(sel.MatchLabels)+len(sel.MatchExpressions) != 1 {
		c.errs = append(c.errs, field.Forbidden(at.Child("namespaceSelector"),
			"llsd admits namespaces that match any one label: write a peer per label (namespaces matching several at once are not rendered)"))
		return
	}
	for k, v := range sel.MatchLabels {
		admit(&allowed.Labels, "labels", k+"="+v)
	}
	for _, e := range sel.MatchExpressions {
		if e.Operator != "Exists" {
			c.errs = append(c.errs, field.NotSupported(at.Child("namespaceSelector", "matchExpressions").Index(0).Child("operator"),
				string(e.Operator), []string{"Exists"}))
			continue
		}
		admit(&allowed.Labels, "labels", e.Key)
	}
}

func (c *ogxConversion) workload(w *ogx.WorkloadSpec) *v1alpha2.WorkloadSpec {
	out := &v1alpha2.WorkloadSpec{Resources: ogxResources(w)}
	c.paths.add(field.NewPath("spec", "workload"), field.NewPath("spec", "workload"))
	if w == nil {
		return out
	}
	out.Replicas, out.Workers, out.TopologySpreadConstraints = w.Replicas, w.Workers, w.TopologySpreadConstraints
	for i, claim := range w.ResourceClaims {
		rc := v1alpha2.ResourceClaimSpec{Name: claim.Name}
		if claim.ResourceClaimName != nil {
			rc.ResourceClaimName = *claim.ResourceClaimName
		}
		if claim.ResourceClaimTemplateName != nil {
			rc.ResourceClaimTemplateName = *claim.ResourceClaimTemplateName
		}
		if out.Pod == nil {
			out.Pod = &v1alpha2.PodSettings{}
		}
		out.Pod.ResourceClaims = append(out.Pod.ResourceClaims, rc)
		c.paths.add(field.NewPath("spec", "workload", "pod", "resourceClaims").Index(i), field.NewPath("spec", "workload", "resourceClaims").Index(i))
	}
	if a := w.Autoscaling; a != nil {
		out.Autoscaling = &v1alpha2.AutoscalingSpec{MinReplicas: a.MinReplicas, MaxReplicas: a.MaxReplicas,
			TargetCPUUtilizationPercentage: a.TargetCPUUtilizationPercentage, TargetMemoryUtilizationPercentage: a.TargetMemoryUtilizationPercentage}
	}
	if st := w.Storage; st != nil {
		size := resource.MustParse(ogx.DefaultStorageSize)
		if st.Size != nil {
			size = *st.Size
		}
		out.Storage = &v1alpha2.PVCStorageSpec{Size: &size, MountPath: cmp.Or(st.MountPath, ogx.DefaultMountPath)}
	}
	if p := w.PodDisruptionBudget; p != nil {
		out.PodDisruptionBudget = &v1alpha2.PodDisruptionBudgetSpec{MinAvailable: p.MinAvailable, MaxUnavailable: p.MaxUnavailable}
	}
	if o := w.Overrides; o != nil {
		out.Overrides = &v1alpha2.WorkloadOverrides{ServiceAccountName: o.ServiceAccountName, Env: o.Env, Command: o.Command,
			Args: o.Args, Volumes: o.Volumes, VolumeMounts: o.VolumeMounts}
	}
	return out
}

// ogxMonitoring is on unless enabled is false: the metrics port, a ServiceMonitor and a
// PrometheusRule.
func ogxMonitoring(m *ogx.MonitoringSpec) *v1alpha2.MonitoringSpec {
	if m != nil && m.Enabled != nil && !*m.Enabled {
		return nil
	}
	out := &v1alpha2.MonitoringSpec{Port: ptr.To(ogx.DefaultMetricsPort), Alerts: true}
	if m != nil && m.MetricsPort != nil {
		out.Port = m.MetricsPort
	}
	return out
}

// refuse reports what llsd does not render, with the reason.
func (c *ogxConversion) refuse(s *ogx.OGXServerSpec) {
	if s.RegistryRefreshIntervalSeconds != nil {
		c.errs = append(c.errs, field.Forbidden(field.NewPath("spec", "registryRefreshIntervalSeconds"),
			"llsd does not render it yet: remove it, and set the provider's refreshModels where the models should be refreshed"))
	}
}

// pathMap maps the field paths of a converted object to those its author wrote, and words
// messages for an OGXServer's author (wording.Words).
type pathMap struct {
	pairs [][2]string // converted prefix, written prefix
	// made from pairs when first asked, so that mapping a path costs its length, not the
	// number of pairs (an OGXServer's errors once took seconds: round four's F1)
	byConverted map[string]string
}

// Field is the field of the OGXServer a converted path came from. An OGXServer has no server
// version: its image's tag is one.
func (m *pathMap) Field(path string) string {
	if path == "spec.distribution.serverVersion" {
		return "the server version (an OGXServer's is the tag of spec.distribution.image)"
	}
	return m.written(path)
}

// API is the server's name of an API, which an OGXServer uses (vector_io, not vectorIo).
func (*pathMap) API(name string) string { return v1alpha2.APIName(name).ServerName() }

// ogxFixes are the fixes llsd's messages give in fields an OGXServer does not have, in its
// own fields (no references: nothing words them again). Its PVC has no access modes, and its
// monitoring is on unless turned off.
var ogxFixes = map[wording.FixID]string{
	wording.FixSharedVolume: "",
	wording.FixNoMonitoring: "set spec.monitoring.enabled: false (an OGXServer's monitoring is on unless turned off)",
	wording.FixAuthenticate: "give the server a config of your own with server.auth (spec.overrideConfig: an OGXServer has no " +
		"authentication of its own), or migrate it to a LlamaStackDistribution (llsd migrate), whose authentication llsd writes into the config",
}

// Fix is an OGXServer's own wording of a fix that names fields it does not have.
func (*pathMap) Fix(id wording.FixID) (string, bool) {
	if api, provider, ok := wording.AddProviderOf(id); ok {
		return fmt.Sprintf("add spec.providers.%s.remote.%s: [{endpoint: ...}]", v1alpha2.APIName(api).ServerName(), provider), true
	}
	text, ok := ogxFixes[id]
	return text, ok
}

func (m *pathMap) add(converted, written *field.Path) {
	m.pairs = append(m.pairs, [2]string{converted.String(), written.String()})
	m.byConverted = nil
}

// written is path as its author wrote it: the longest converted prefix replaced.
func (m *pathMap) written(path string) string {
	if m.byConverted == nil {
		m.byConverted = make(map[string]string, len(m.pairs))
		for _, p := range m.pairs {
			if _, ok := m.byConverted[p[0]]; !ok { // the first pair of a prefix stands
				m.byConverted[p[0]] = p[1]
			}
		}
	}
	for end := len(path); end > 0; end = strings.LastIndexAny(path[:end], ".[") {
		if w, ok := m.byConverted[path[:end]]; ok {
			return w + path[end:]
		}
	}
	return path
}
