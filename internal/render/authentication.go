// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"net/netip"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

var authenticationPath = field.NewPath("spec", "authentication")

// checkAuthentication refuses spec.authentication where it could not work: on a server that
// runs its image's own config, which llsd does not write, and an upstream header anyone but
// the proxy could set.
func checkAuthentication(in Input) field.ErrorList {
	a := in.Object.Spec.Authentication
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if in.runsImageConfig() {
		errs = append(errs, field.Forbidden(authenticationPath, "llsd writes server.auth into the config it generates, "+
			"and this server runs the config its image ships, which llsd neither reads nor writes: name a distribution "+
			"llsd knows (⟦spec.distribution.name⟧, or serverVersion with your image), or run a config of your own with server.auth "+
			"(⟦spec.overrideConfig⟧, without ⟦spec.authentication⟧)"))
	}
	if a.UpstreamHeader != nil {
		errs = append(errs, checkUpstreamHeader(in.Object)...)
	}
	return errs
}

// checkUpstreamHeader makes sure only the proxy reaches a server that believes a header:
// whoever else reached it would name themselves anyone. The NetworkPolicy admits only
// networking.allowedFrom (and llsd-controller's pod), so that must name the proxy exactly —
// its namespace by name or by a label and value, or its network — and nothing may route around
// it: not every namespace ("*"), not a label every namespace has, not a network wider than a
// proxy's (the pod network, the whole internet).
func checkUpstreamHeader(obj *v1alpha2.LlamaStackDistribution) field.ErrorList {
	at := authenticationPath.Child("upstreamHeader")
	header := obj.Spec.Authentication.UpstreamHeader.PrincipalHeader
	believes := "the server believes the header " + header + " whoever sends it"
	var errs field.ErrorList
	n := obj.Spec.Networking
	if obj.Spec.ExposeEnabled() {
		errs = append(errs, field.Forbidden(at, believes+", and networking.expose routes callers from outside the cluster to the server, "+
			"past the proxy that sets it: expose the proxy instead and remove networking.expose"))
	}
	from := networkingPath.Child("allowedFrom")
	if n == nil || n.AllowedFrom == nil || len(n.AllowedFrom.Namespaces)+len(n.AllowedFrom.Labels)+len(n.AllowedFrom.CIDRs)+len(n.AllowedFrom.Pods) == 0 {
		return append(errs, field.Required(from, believes+": name the proxy that sets it in networking.allowedFrom (its pods, "+
			"its namespace, a namespace label and its value, or its network), so that the NetworkPolicy admits only the proxy"))
	}
	for i, ns := range n.AllowedFrom.Namespaces {
		if ns == "*" {
			errs = append(errs, field.Invalid(from.Child("namespaces").Index(i), ns, believes+", and \"*\" admits every pod of the "+
				"cluster: name the proxy's namespace"))
		}
	}
	for i, label := range n.AllowedFrom.Labels {
		key, _, exact := strings.Cut(label, "=")
		switch {
		case key == namespaceNameLabel && !exact:
			errs = append(errs, field.Invalid(from.Child("labels").Index(i), label, believes+", and every namespace has the label "+
				namespaceNameLabel+": name the proxy's namespace ("+namespaceNameLabel+"=<namespace>, or networking.allowedFrom.namespaces)"))
		case !exact:
			errs = append(errs, field.Invalid(from.Child("labels").Index(i), label, believes+", and a label without a value admits every "+
				"namespace that carries it, whatever its value: write the proxy's namespace's label and value ("+label+"=<value>)"))
		}
	}
	for i, cidr := range n.AllowedFrom.CIDRs {
		if prefix, err := netip.ParsePrefix(cidr); err == nil && prefix.Bits() < widestProxyNetwork(prefix) {
			errs = append(errs, field.Invalid(from.Child("cidrs").Index(i), cidr, fmt.Sprintf("%s, and a network of /%d holds more than "+
				"a proxy (the pod network, other tenants' load balancers): name the proxy's own addresses, at most a /%d",
				believes, prefix.Bits(), widestProxyNetwork(prefix))))
		}
	}
	return errs
}

// namespaceNameLabel is the label the API server gives every namespace: its name.
const namespaceNameLabel = "kubernetes.io/metadata.name"

// widestProxyNetwork is the widest network allowedFrom may name for a server that believes a
// header: a /24 of IPv4 (a load balancer's or a node pool's subnet), a /64 of IPv6.
func widestProxyNetwork(p netip.Prefix) int {
	if p.Addr().Is4() {
		return 24
	}
	return 64
}
