// SPDX-License-Identifier: Apache-2.0

package api

import (
	"slices"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Praxis mode is the successor operator's topology behind OpenShift AI's Praxis gateway, which
// serves /v1/responses and /v1/conversations itself and forwards the rest to the server with the
// caller in headers. The operator rewrites the server's config for it; llsd writes the same as
// an LLSD says it, so the render and its checks are the ones every LLSD gets:
//
//	authentication:
//	  upstreamHeader: {principalHeader: x-user-id, tenantHeader: x-tenant-id}
//	  accessPolicy: {owners: true, sharedRead: true}   # create; read/update/delete what you own; read what nobody owns
//	  tenancy: {mode: multi}                           # and the vector stores' SQL store it needs
//	disabled: [responses]                              # Praxis serves them (conversations are part of responses)
//	networking:
//	  allowedFrom: {pods: [{namespace: openshift-ingress, labels: [app=payload-processing]}]}   # and llsd-controller
//
// The OGXServer's other ingress rules are added to the gateway's pods, as the operator adds
// them; externalAccess is ignored, as the operator ignores it (callers come through Praxis).
const (
	praxisPrincipalHeader = "x-user-id"
	praxisTenantHeader    = "x-tenant-id"
)

var praxisPath = field.NewPath("spec", "praxisMode")

// praxisAuthentication is who the server behind Praxis lets in: the caller the gateway names in
// its headers, with the operator's ownership rules and one tenant per caller.
func praxisAuthentication() *v1alpha2.AuthenticationSpec {
	return &v1alpha2.AuthenticationSpec{
		UpstreamHeader: &v1alpha2.UpstreamHeaderAuthSpec{PrincipalHeader: praxisPrincipalHeader, TenantHeader: praxisTenantHeader},
		AccessPolicy:   &v1alpha2.AccessPolicySpec{Owners: true, SharedRead: true},
		Tenancy:        &v1alpha2.TenancySpec{Mode: "multi"},
	}
}

// praxis puts the converted spec behind the Praxis gateway when praxisMode is enabled.
func (c *ogxConversion) praxis(s *ogx.OGXServerSpec, spec *v1alpha2.LlamaStackDistributionSpec) {
	p := s.PraxisMode
	if p == nil || !ptr.Deref(p.Enabled, true) {
		return // absent or enabled: false is the legacy topology
	}
	c.warnings = append(c.warnings, Warning{Field: praxisPath.String(), Message: "Responses through Praxis is Tech Preview (the successor " +
		"warns alike): the gateway serves /v1/responses and /v1/conversations, and the server behind it files, vector stores and inference"})
	if s.OverrideConfig != nil {
		c.errs = append(c.errs, field.Forbidden(praxisPath, "Praxis mode rewrites the server's authentication, tenancy and APIs, which "+
			"llsd writes only into a config it generates: remove overrideConfig, or write those settings into your config and remove praxisMode"))
		return
	}
	if p.MigrationJob != nil && migrationJobEnabled(p.MigrationJob) {
		// opendatahub-io/ogx v1.3.0's CLI (src/ogx/cli/ogx.py) registers letsgo, run, stack and
		// connect; the migrate command is its PR #233, in no release llsd knows.
		c.errs = append(c.errs, field.Forbidden(praxisPath.Child("migrationJob"), "the Praxis migration Job runs ogx migrate praxis, "+
			"which no server release llsd knows has (OGX 1.3.0's command has letsgo, run, stack and connect): migrate the data with "+
			"the successor operator, then set migrationJob.enabled: false"))
	}
	spec.Authentication = praxisAuthentication()
	c.paths.add(field.NewPath("spec", "authentication"), praxisPath)
	if spec.Providers != nil && len(spec.Providers.Responses) > 0 {
		spec.Providers.Responses = nil
		c.warnings = append(c.warnings, Warning{Field: "spec.providers.responses", Message: "Praxis serves the Responses API, " +
			"so the server behind it has none (the successor drops it too): remove providers.responses"})
	}
	responses := v1alpha2.APINameOf("responses")
	if !slices.Contains(spec.Disabled, responses) {
		spec.Disabled = append(spec.Disabled, responses)
		c.paths.add(field.NewPath("spec", "disabled").Index(len(spec.Disabled)-1), praxisPath)
	}
	c.praxisNetworking(p, spec.Networking, s.Network)
}

// praxisNetworking admits the gateway's pods and the OGXServer's own rules, and no Ingress.
func (c *ogxConversion) praxisNetworking(p *ogx.PraxisModeSpec, n *v1alpha2.NetworkingSpec, network *ogx.NetworkSpec) {
	if n.Expose != nil {
		n.Expose = nil
		c.warnings = append(c.warnings, Warning{Field: "spec.network.externalAccess", Message: "Praxis mode ignores externalAccess, as " +
			"the successor does: callers reach the server through the Praxis gateway only; remove externalAccess"})
	}
	if n.AllowedFrom == nil { // network.policy.enabled: false: the gateway is still the only caller
		n.AllowedFrom = &v1alpha2.AllowedFromSpec{}
		if network != nil && network.Policy != nil {
			c.warnings = append(c.warnings, Warning{Field: "spec.network.policy.enabled", Message: "Praxis mode admits only the " +
				"Praxis gateway's pods, whose headers the server believes, so llsd renders the NetworkPolicy that admits them"})
		}
	}
	peer := v1alpha2.PodsPeer{Namespace: ogx.DefaultPraxisNamespace, Labels: []string{ogx.DefaultPraxisPodLabel}}
	defaults := &PraxisPeerDefaults{Index: len(n.AllowedFrom.Pods), Namespace: true, Labels: true}
	if sel := p.PraxisSelector; sel != nil {
		if sel.Namespace != "" {
			peer.Namespace, defaults.Namespace = sel.Namespace, false
		}
		if ps := sel.PodSelector; ps != nil {
			if len(ps.MatchExpressions) > 0 || len(ps.MatchLabels) == 0 {
				c.errs = append(c.errs, field.Forbidden(praxisPath.Child("praxisSelector", "podSelector"),
					"llsd admits the gateway's pods by their labels: write podSelector.matchLabels"))
			} else {
				peer.Labels, defaults.Labels = podLabels(ps.MatchLabels), false
			}
		}
	}
	if defaults.Namespace || defaults.Labels {
		c.praxisPeer = defaults
	}
	// (the server's own namespace, the legacy default peer, is not admitted: with upstreamHeader
	// llsd admits only the named peers and llsd-controller, as the operator admits only Praxis and itself)
	allowed := n.AllowedFrom
	c.paths.add(field.NewPath("spec", "networking", "allowedFrom", "pods").Index(len(allowed.Pods)), praxisPath.Child("praxisSelector"))
	allowed.Pods = append(allowed.Pods, peer)
}

// PraxisPeerDefaults says what of the Praxis gateway's peer an OGXServer left to the operator's
// defaults (openshift-ingress, app=payload-processing): no praxisSelector, or one without a
// namespace or without pod labels. The operator takes them from its praxis-peer ConfigMap where
// a cluster has one; llsd from the platform's render options (SetPraxisPeer).
type PraxisPeerDefaults struct {
	// Index is the peer's in spec.networking.allowedFrom.pods.
	Index     int
	Namespace bool
	Labels    bool
}

// SetPraxisPeer puts the platform's Praxis gateway (its namespace, its pods' labels; either
// empty: the operator's default) where the OGXServer left the defaults.
func (d *Decoded) SetPraxisPeer(namespace string, labels []string) {
	p := d.PraxisPeer
	if p == nil || d.Object.Spec.Networking == nil || d.Object.Spec.Networking.AllowedFrom == nil ||
		p.Index >= len(d.Object.Spec.Networking.AllowedFrom.Pods) {
		return
	}
	peer := &d.Object.Spec.Networking.AllowedFrom.Pods[p.Index]
	if p.Namespace && namespace != "" && peer.Namespace == ogx.DefaultPraxisNamespace {
		peer.Namespace = namespace
	}
	if p.Labels && len(labels) > 0 && slices.Equal(peer.Labels, []string{ogx.DefaultPraxisPodLabel}) {
		peer.Labels = slices.Clone(labels)
	}
}

// migrationJobEnabled reads migrationJob.enabled: the Job is opt-in.
func migrationJobEnabled(job map[string]any) bool {
	enabled, _ := job["enabled"].(bool)
	return enabled
}

// BehindPraxis reports whether an LLSD is the one Praxis mode converts to, and the gateway's
// pods it admits: the Praxis headers with the ownership rules and multi-tenancy, responses
// disabled, and the gateway's pods among allowedFrom. llsd migrate writes such an LLSD back as
// praxisMode.
func BehindPraxis(s *v1alpha2.LlamaStackDistributionSpec) (v1alpha2.PodsPeer, bool) {
	a := s.Authentication
	if a == nil || !equality.Semantic.DeepEqual(a, praxisAuthentication()) || !slices.Contains(s.Disabled, v1alpha2.APINameOf("responses")) ||
		s.Networking == nil || s.Networking.AllowedFrom == nil || len(s.Networking.AllowedFrom.Pods) == 0 {
		return v1alpha2.PodsPeer{}, false
	}
	pods := s.Networking.AllowedFrom.Pods
	if at := slices.IndexFunc(pods, func(p v1alpha2.PodsPeer) bool {
		return p.Namespace == ogx.DefaultPraxisNamespace && slices.Equal(p.Labels, []string{ogx.DefaultPraxisPodLabel})
	}); at >= 0 {
		return pods[at], true
	}
	return pods[len(pods)-1], true // the one the conversion adds, after the OGXServer's own rules
}
