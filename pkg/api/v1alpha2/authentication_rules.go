// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"maps"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/utils/ptr"
)

// The CEL rules of spec.authentication: the shapes the server's AuthenticationConfig,
// OAuth2TokenAuthConfig and access rules refuse when the config loads, refused at apply time.

// authProviders are the provider fields of AuthenticationSpec, by JSON name, and whether each is set.
func (a *AuthenticationSpec) authProviders() []bool {
	return []bool{a.OIDC != nil, a.Kubernetes != nil, a.GitHub != nil, a.Custom != nil, a.UpstreamHeader != nil}
}

// HasProvider reports whether a provider authenticates the callers.
func (a *AuthenticationSpec) HasProvider() bool {
	return a != nil && slices.Contains(a.authProviders(), true)
}

// authProvidersCEL lists whether each provider field is set, in CEL.
const authProvidersCEL = "[has(self.oidc), has(self.kubernetes), has(self.github), has(self.custom), has(self.upstreamHeader)]"

var (
	ruleOneAuthProvider = rule[*AuthenticationSpec]{
		Rule: Rule{On: []string{"AuthenticationSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    authProvidersCEL + ".filter(x, x).size() <= 1",
			Reason:  ptr.To(apiextensionsv1.FieldValueForbidden),
			Message: "oidc, kubernetes, github, custom and upstreamHeader are mutually exclusive: the server runs one authentication provider, so keep one",
		}},
		holds: func(a *AuthenticationSpec) bool {
			n := 0
			for _, set := range a.authProviders() {
				if set {
					n++
				}
			}
			return n <= 1
		},
	}
	ruleAccessPolicyNeedsProvider = rule[*AuthenticationSpec]{
		Rule: Rule{On: []string{"AuthenticationSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.accessPolicy) || " + authProvidersCEL + ".exists(x, x)",
			FieldPath: ".accessPolicy",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message:   "accessPolicy needs an authentication provider (oidc, kubernetes, github, custom or upstreamHeader): without one every caller is anonymous and the server applies no access rule",
		}},
		holds: func(a *AuthenticationSpec) bool { return a.AccessPolicy == nil || a.HasProvider() },
	}
	ruleOIDCOneKeySource = rule[*OIDCAuthSpec]{
		Rule: Rule{On: []string{"OIDCAuthSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "has(self.jwksURI) != has(self.introspection)",
			Message: "set jwksURI or introspection: exactly one (the server checks tokens with the issuer's keys, or asks the issuer)",
		}},
		holds: func(o *OIDCAuthSpec) bool { return (o.JWKSURI != "") != (o.Introspection != nil) },
	}
	ruleClaimsMappingValues = rule[map[string]string]{
		Rule: Rule{On: []string{"OIDCAuthSpec.claimsMapping", "KubernetesAuthSpec.claimsMapping", "GitHubAuthSpec.claimsMapping",
			"UpstreamHeaderAuthSpec.attributeHeaders"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(k, self[k] != '')",
			Message: "each claim maps to an attribute (roles, teams, projects or namespaces): the server refuses an empty one",
		}},
		holds: func(m map[string]string) bool { return !slices.Contains(slices.Collect(maps.Values(m)), "") },
	}
	ruleAccessRulePermitOrForbid = rule[*AccessRule]{
		Rule: Rule{On: []string{"AccessRule"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "has(self.permit) != has(self.forbid)",
			Message: "a rule permits or forbids: set permit or forbid, exactly one",
		}},
		holds: func(r *AccessRule) bool { return (r.Permit != nil) != (r.Forbid != nil) },
	}
	ruleAccessRuleWhenOrUnless = whenOrUnless("AccessRule", "when and unless are mutually exclusive: write two rules",
		func(r *AccessRule) (when, unless []string) { return r.When, r.Unless })
	ruleRouteRulePermitOrForbid = rule[*RouteRule]{
		Rule: Rule{On: []string{"RouteRule"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "has(self.permit) != has(self.forbid)",
			Message: "a route rule permits or forbids: set permit or forbid, exactly one",
		}},
		holds: func(r *RouteRule) bool { return (r.Permit != nil) != (r.Forbid != nil) },
	}
	ruleRouteRuleWhenOrUnless = whenOrUnless("RouteRule", "when and unless are mutually exclusive in a route rule: write two rules",
		func(r *RouteRule) (when, unless []string) { return r.When, r.Unless })
)

var (
	ruleSingleTenantNeedsID = rule[*TenancySpec]{
		Rule: Rule{On: []string{"TenancySpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "self.mode != 'single' || has(self.defaultTenantID)",
			FieldPath: ".defaultTenantID",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message:   "defaultTenantID is required in single mode: it is the tenant of every request",
		}},
		holds: func(t *TenancySpec) bool { return t.Mode != "single" || t.DefaultTenantID != "" },
	}
	ruleMultiTenantNeedsATenant = rule[*AuthenticationSpec]{
		Rule: Rule{On: []string{"AuthenticationSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule: "!has(self.tenancy) || self.tenancy.mode != 'multi' || (has(self.oidc) && has(self.oidc.tenantClaim)) || " +
				"(has(self.kubernetes) && has(self.kubernetes.tenantClaim)) || (has(self.custom) && has(self.custom.tenantField)) || " +
				"(has(self.upstreamHeader) && has(self.upstreamHeader.tenantHeader))",
			FieldPath: ".tenancy",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message: "multi mode refuses every request whose caller names no tenant: set the provider's tenant source " +
				"(oidc.tenantClaim, kubernetes.tenantClaim, custom.tenantField or upstreamHeader.tenantHeader)",
		}},
		holds: func(a *AuthenticationSpec) bool {
			return a.Tenancy == nil || a.Tenancy.Mode != "multi" || a.tenantSource() != ""
		},
	}
)

// tenantSource is the provider field that names each caller's tenant, "" when none does.
func (a *AuthenticationSpec) tenantSource() string {
	switch {
	case a.OIDC != nil:
		return a.OIDC.TenantClaim
	case a.Kubernetes != nil:
		return a.Kubernetes.TenantClaim
	case a.Custom != nil:
		return a.Custom.TenantField
	case a.UpstreamHeader != nil:
		return a.UpstreamHeader.TenantHeader
	}
	return ""
}

// whenOrUnless is the rule that a rule of type on has when or unless, not both (the server's
// AccessRule and RouteAccessRule refuse both).
func whenOrUnless[T any](on, message string, conditions func(T) (when, unless []string)) rule[T] {
	return rule[T]{
		Rule: Rule{On: []string{on}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "!(has(self.when) && has(self.unless))",
			Reason:  ptr.To(apiextensionsv1.FieldValueForbidden),
			Message: message,
		}},
		holds: func(r T) bool { when, unless := conditions(r); return len(when) == 0 || len(unless) == 0 },
	}
}

// authenticationRules are the rules of spec.authentication, in the order the CRD lists them.
func authenticationRules() []ruleChecker {
	return []ruleChecker{ruleOneAuthProvider, ruleAccessPolicyNeedsProvider, ruleOIDCOneKeySource, ruleClaimsMappingValues,
		ruleAccessRulePermitOrForbid, ruleAccessRuleWhenOrUnless, ruleRouteRulePermitOrForbid, ruleRouteRuleWhenOrUnless,
		ruleSingleTenantNeedsID, ruleMultiTenantNeedsATenant}
}
