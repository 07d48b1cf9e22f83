// SPDX-License-Identifier: Apache-2.0

package render

import (
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
// networking.allowedFrom, so that must name the proxy, and nothing may route around it.
func checkUpstreamHeader(obj *v1alpha2.LlamaStackDistribution) field.ErrorList {
	at := authenticationPath.Child("upstreamHeader")
	var errs field.ErrorList
	n := obj.Spec.Networking
	if obj.Spec.ExposeEnabled() {
		errs = append(errs, field.Forbidden(at, "the server believes the header "+obj.Spec.Authentication.UpstreamHeader.PrincipalHeader+
			" whoever sends it, and networking.expose routes callers from outside the cluster to the server, past the proxy that "+
			"sets it: expose the proxy instead and remove networking.expose"))
	}
	if n == nil || n.AllowedFrom == nil || len(n.AllowedFrom.Namespaces)+len(n.AllowedFrom.Labels)+len(n.AllowedFrom.CIDRs) == 0 {
		errs = append(errs, field.Required(networkingPath.Child("allowedFrom"), "the server believes the header "+
			obj.Spec.Authentication.UpstreamHeader.PrincipalHeader+" whoever sends it: name the proxy that sets it in "+
			"networking.allowedFrom (its namespace, a namespace label, or its network), so that the NetworkPolicy admits only the proxy"))
	}
	return errs
}
