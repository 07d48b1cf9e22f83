// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// spec.authentication becomes server.auth: the provider's provider_config, the access policy
// (presets, then rules) and the route policy. What the spec leaves unset keeps the
// distribution's (rh-dev's base config has access rules of its own).

var authenticationPath = field.NewPath("spec", "authentication")

const (
	// KubeCADir holds the cluster's CA (ca.crt of the kube-root-ca.crt ConfigMap every
	// namespace has), which the Kubernetes provider verifies the API server with: the pod
	// keeps no service account token, which would bring the CA along.
	KubeCADir = "/etc/llama-stack/kube-ca"
	// KubeCAConfigMap is the ConfigMap the API server publishes its CA in, in every namespace.
	KubeCAConfigMap = "kube-root-ca.crt"
	// KubeCAKey is its key.
	KubeCAKey = "ca.crt"
	// HealthPath is the path the kubelet probes, without a token.
	HealthPath = "/v1/health"
	// EnvAuthClientSecret carries the OIDC introspection client's secret.
	EnvAuthClientSecret = "LLSD_AUTH_CLIENT_SECRET"
)

// MountsKubeCA reports whether the pod mounts the cluster's CA at KubeCADir: the Kubernetes
// provider asks the in-cluster API server.
func MountsKubeCA(spec *v1alpha2.LlamaStackDistributionSpec) bool {
	a := spec.Authentication
	return a != nil && a.Kubernetes != nil && inClusterAPIServer(a.Kubernetes.APIServerURL)
}

// inClusterAPIServer reports whether a Kubernetes provider's apiServerURL names the API
// server by its in-cluster Service (the default).
func inClusterAPIServer(raw string) bool {
	if raw == "" {
		return true
	}
	u, err := v1alpha2.ParseEndpoint(raw, "")
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(u.Hostname(), ".")
	return slices.Contains([]string{"kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}, host)
}

// applyAuthentication writes server.auth from spec.authentication.
func (g *generator) applyAuthentication() {
	a := g.spec.Authentication
	if a == nil {
		return
	}
	auth := ensureMap(ensureMap(g.cfg, "server"), "auth")
	if a.HasProvider() {
		if provider := g.authProvider(a); provider != nil {
			auth["provider_config"] = provider
		}
	}
	if a.AccessPolicy != nil {
		auth["access_policy"] = g.accessPolicy(a)
		g.storeVectorStoreMetadata()
		g.warnUncheckedDeletes()
	}
	if len(a.RoutePolicy) > 0 {
		auth["route_policy"] = g.routePolicy(a.RoutePolicy)
	}
}

// accessControlledVectorStores is the first version whose vector_io providers keep the
// metadata of access-controlled vector stores in a SQL store, which they refuse to start
// without (openai_vector_store_mixin.py:730-734 at OGX v1.1.0).
const accessControlledVectorStores = profile.Version("1.1")

// checkedDeletes is the first version whose SQL store holds a delete to the access policy:
// before it, AuthorizedSqlStore.delete deletes without a check (authorized_sqlstore.py:237-239 at
// llama-stack v0.6.0, :239-241 at v0.7.1; checked from OGX v0.8.0, :260-279). The real server
// showed it: on 0.6.0 and 0.7.1 a reader deleted an admin's conversation
// (TestTheRealServerEnforcesAuthentication).
const checkedDeletes = profile.Version("0.8")

// warnUncheckedDeletes says that a server before OGX 0.8 lets every caller it authenticates
// delete what others keep in its SQL store, whatever the access policy says.
func (g *generator) warnUncheckedDeletes() {
	if g.prof.Version.Compare(checkedDeletes) >= 0 {
		return
	}
	g.warn(authenticationPath.Child("accessPolicy"), "server %s checks no access rule when it deletes what it keeps in its SQL store "+
		"(conversations, responses, files): any caller it authenticates can delete another's, by its id; OGX 0.8 and later check "+
		"every delete (serverVersion \"0.8\" or later)", g.prof.Version)
}

// storeVectorStoreMetadata gives the vector stores of an access policy, or of multi-tenant
// mode, the SQL store their providers need from OGX 1.1 (storage.stores.vector_stores, on the
// SQL backend the server's other stores use), when the config has vector_io providers and no
// such store.
func (g *generator) storeVectorStoreMetadata() {
	stores := mapAt(mapAt(g.cfg, "storage"), "stores")
	if g.prof.Version.Compare(accessControlledVectorStores) < 0 || len(providerList(g.cfg, "vector_io")) == 0 ||
		stores == nil || stores["vector_stores"] != nil {
		return
	}
	if backend := sqlBackendOf(g.cfg); backend != "" {
		stores["vector_stores"] = map[string]any{"backend": backend, "table_name": "vector_store_metadata"}
	}
}

// sqlBackendOf is the SQL backend the server's stores use: that of the first store that names
// one, in name order; "" when none does.
func sqlBackendOf(cfg map[string]any) string {
	backends := mapAt(mapAt(cfg, "storage"), "backends")
	stores := mapAt(mapAt(cfg, "storage"), "stores")
	for _, name := range slices.Sorted(maps.Keys(stores)) {
		backend, _ := mapAt(stores, name)["backend"].(string)
		if typ, _ := mapAt(backends, backend)["type"].(string); strings.HasPrefix(typ, "sql_") {
			return backend
		}
	}
	return ""
}

// authField is one spec field of a provider and the config key it becomes.
type authField struct {
	name, key string
	value     any
}

// authProvider is the provider_config of the spec's provider, nil after an error.
func (g *generator) authProvider(a *v1alpha2.AuthenticationSpec) map[string]any {
	var typ string
	var path *field.Path
	var fields []authField
	var urls []authField
	switch {
	case a.OIDC != nil:
		o := a.OIDC
		typ, path = "oauth2_token", authenticationPath.Child("oidc")
		fields = []authField{{"issuer", "issuer", o.Issuer}, {"audience", "audience", o.Audience},
			{"claimsMapping", "claims_mapping", o.ClaimsMapping}, {"tenantClaim", "tenant_claim", o.TenantClaim}}
		urls = []authField{{"issuer", "", o.Issuer}}
		if o.JWKSURI != "" {
			fields = append(fields, authField{"jwksURI", "jwks", map[string]any{"uri": o.JWKSURI}})
			urls = append(urls, authField{"jwksURI", "", o.JWKSURI})
		}
		if in := o.Introspection; in != nil {
			g.addSecret(EnvAuthClientSecret, in.ClientSecret.SecretKeyRef, path.Child("introspection", "clientSecret"))
			introspection := map[string]any{"url": in.URL, "client_id": in.ClientID, "client_secret": Placeholder(EnvAuthClientSecret)}
			if in.SendSecretInBody {
				introspection["send_secret_in_body"] = true
			}
			fields = append(fields, authField{"introspection", "introspection", introspection})
			urls = append(urls, authField{"introspection.url", "", in.URL})
		}
	case a.Kubernetes != nil:
		k := a.Kubernetes
		typ, path = "kubernetes", authenticationPath.Child("kubernetes")
		fields = []authField{{"apiServerURL", "api_server_url", k.APIServerURL}, {"claimsMapping", "claims_mapping", k.ClaimsMapping},
			{"tenantClaim", "tenant_claim", k.TenantClaim}}
		if MountsKubeCA(g.spec) {
			fields = append(fields, authField{"apiServerURL", "tls_cafile", KubeCADir + "/" + KubeCAKey})
		}
		urls = []authField{{"apiServerURL", "", k.APIServerURL}}
	case a.GitHub != nil:
		gh := a.GitHub
		typ, path = "github_token", authenticationPath.Child("github")
		fields = []authField{{"apiBaseURL", "github_api_base_url", gh.APIBaseURL}, {"claimsMapping", "claims_mapping", gh.ClaimsMapping}}
		urls = []authField{{"apiBaseURL", "", gh.APIBaseURL}}
	case a.Custom != nil:
		c := a.Custom
		typ, path = "custom", authenticationPath.Child("custom")
		fields = []authField{{"endpoint", "endpoint", c.Endpoint}, {"tenantField", "tenant_field", c.TenantField}}
		urls = []authField{{"endpoint", "", c.Endpoint}}
	case a.UpstreamHeader != nil:
		u := a.UpstreamHeader
		typ, path = "upstream_header", authenticationPath.Child("upstreamHeader")
		fields = []authField{{"principalHeader", "principal_header", u.PrincipalHeader}, {"attributesHeader", "attributes_header", u.AttributesHeader},
			{"attributeHeaders", "attribute_headers", u.AttributeHeaders}, {"tenantHeader", "tenant_header", u.TenantHeader}}
	}
	before := len(g.errs)
	for _, u := range urls {
		g.checkAuthURL(path.Child(u.name), u.value.(string))
	}
	provider := map[string]any{"type": typ}
	taken := g.prof.AuthKeys(typ)
	if len(taken) == 0 {
		version, fix := since(typ, "")
		g.errs = append(g.errs, field.Forbidden(path, fmt.Sprintf("%s has no %s authentication provider (%s and later have it): %s",
			g.prof, typ, version, fix)))
		return nil
	}
	for _, f := range fields {
		if isZero(f.value) {
			continue
		}
		if !slices.Contains(taken, f.key) {
			version, fix := since(typ, f.key)
			g.errs = append(g.errs, field.Forbidden(path.Child(f.name), fmt.Sprintf("%s's %s provider has no %s (%s and later have it): remove %s, or %s",
				g.prof, typ, f.key, version, f.name, fix)))
			continue
		}
		if m, ok := f.value.(map[string]string); ok {
			f.value = anyMap(m)
		}
		provider[f.key] = f.value
	}
	if len(g.errs) > before {
		return nil
	}
	return provider
}

// since names the first server version whose provider typ takes key ("" for the provider),
// and the fix that asks for it.
func since(typ, key string) (name, fix string) {
	if key == "" {
		key = "principal_header" // the one key every upstream_header provider has
	}
	v := profile.AuthKeySince(typ, key)
	name = string(v)
	if p, ok := profile.For(v); ok {
		name = p.String()
	}
	return name, fmt.Sprintf("set ⟦spec.distribution.serverVersion⟧: %q or later", string(v))
}

// isZero reports whether an optional field is unset.
func isZero(v any) bool {
	switch t := v.(type) {
	case string:
		return t == ""
	case map[string]string:
		return len(t) == 0
	case map[string]any:
		return len(t) == 0
	}
	return v == nil
}

// checkAuthURL refuses a provider URL that holds a credential (config.yaml is a ConfigMap, in
// clear) or that is no http(s) URL the server could call.
func (g *generator) checkAuthURL(path *field.Path, raw string) {
	if raw == "" {
		return
	}
	if redact.HasCredentials(raw) {
		g.errs = append(g.errs, field.Invalid(path, redact.URL(raw), "a URL must not hold credentials "+
			"(config.yaml is stored in a ConfigMap in clear): the server sends the caller's token, and an introspection client's secret comes from introspection.clientSecret"))
		return
	}
	if fix := httpURLFix(raw); fix != "" {
		g.errs = append(g.errs, field.Invalid(path, raw, "the server calls an http or https URL with a host, which this is not: "+fix))
	}
}

// accessPolicy is access_policy: the presets, then the spec's rules, each checked as the
// server checks them when it loads the config.
func (g *generator) accessPolicy(a *v1alpha2.AuthenticationSpec) []any {
	p := a.AccessPolicy
	path := authenticationPath.Child("accessPolicy")
	var rules []any
	all := []string{"create", "read", "update", "delete"}
	for _, preset := range []struct {
		name  string
		match *v1alpha2.AttributeMatch
	}{{"admins", p.Admins}, {"readers", p.Readers}} {
		if m := preset.match; m != nil {
			if problem := UnsplitProblem(m.Value, true); problem != "" {
				g.errs = append(g.errs, field.Invalid(path.Child(preset.name, "value"), m.Value, problem))
			}
		}
	}
	if m := p.Admins; m != nil {
		rules = append(rules, accessRule("admins manage everything", "permit", all, attributeCondition(m)))
	}
	if m := p.Readers; m != nil {
		rules = append(rules, accessRule("readers change nothing", "forbid", []string{"create", "update", "delete"}, attributeCondition(m)),
			accessRule("readers read everything", "permit", []string{"read"}, attributeCondition(m)))
	}
	if p.Owners {
		// create is decided before the resource has an owner: "user is owner" never holds then
		rules = append(rules, accessRule("every user creates", "permit", []string{"create"}, ""),
			accessRule("owners manage what they created", "permit", []string{"read", "update", "delete"}, "user is owner"))
	}
	if p.SharedRead {
		rules = append(rules, accessRule("every user reads what nobody owns", "permit", []string{"read"}, "resource is unowned"))
	}
	for i, r := range p.Rules {
		at := path.Child("rules").Index(i)
		g.checkConditions(at, r.When, r.Unless)
		g.warnNeverMatches(at, a, r)
		rules = append(rules, userAccessRule(r))
	}
	g.warnLockedOut(path, rules)
	return rules
}

func accessRule(description, decision string, actions []string, when string) map[string]any {
	rule := map[string]any{"description": description, decision: map[string]any{"actions": toAny(actions)}}
	if when != "" {
		rule["when"] = when
	}
	return rule
}

func attributeCondition(m *v1alpha2.AttributeMatch) string {
	return "user with " + m.Value + " in " + m.Attribute
}

func userAccessRule(r v1alpha2.AccessRule) map[string]any {
	rule := map[string]any{}
	if r.Description != "" {
		rule["description"] = r.Description
	}
	for decision, scope := range map[string]*v1alpha2.AccessScope{"permit": r.Permit, "forbid": r.Forbid} {
		if scope == nil {
			continue
		}
		s := map[string]any{"actions": toAny(scope.Actions)}
		if scope.Resource != "" {
			s["resource"] = scope.Resource
		}
		if scope.Principal != "" {
			s["principal"] = scope.Principal
		}
		rule[decision] = s
	}
	addConditions(rule, r.When, r.Unless)
	return rule
}

func addConditions(rule map[string]any, when, unless []string) {
	if len(when) > 0 {
		rule["when"] = toAny(when)
	}
	if len(unless) > 0 {
		rule["unless"] = toAny(unless)
	}
}

func anyMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// checkConditions refuses a when or unless condition the server's parse_condition refuses
// (the server would not start).
func (g *generator) checkConditions(at *field.Path, when, unless []string) {
	for _, list := range []struct {
		key        string
		conditions []string
	}{{"when", when}, {"unless", unless}} {
		for j, c := range list.conditions {
			problem := UnsplitProblem(c, false)
			if problem == "" {
				problem = ParseAccessCondition(c)
			}
			if problem != "" {
				g.errs = append(g.errs, field.Invalid(at.Child(list.key).Index(j), c, problem))
			}
		}
	}
}

// routePolicy is route_policy, each rule's conditions checked; an error when the kubelet's
// probes, which carry no token, are refused: the pods would never be ready.
func (g *generator) routePolicy(rules []v1alpha2.RouteRule) []any {
	path := authenticationPath.Child("routePolicy")
	out := make([]any, 0, len(rules))
	probes := ""
	for i, r := range rules {
		g.checkConditions(path.Index(i), r.When, r.Unless)
		rule := map[string]any{}
		if r.Description != "" {
			rule["description"] = r.Description
		}
		scope := r.Permit
		decision := "permit"
		if r.Forbid != nil {
			scope, decision = r.Forbid, "forbid"
		}
		rule[decision] = map[string]any{"paths": toAny(scope.Paths)}
		addConditions(rule, r.When, r.Unless)
		out = append(out, rule)
		// A condition needs a user, and a probe has none: only a rule without when decides it
		// (one with unless applies, its conditions being false).
		if probes == "" && len(r.When) == 0 && slices.ContainsFunc(scope.Paths, routeMatches(HealthPath)) {
			probes = decision
		}
	}
	if probes != "permit" {
		g.errs = append(g.errs, field.Invalid(path, len(rules), fmt.Sprintf(
			"no rule permits %s to a caller without a token, and the kubelet's probes carry none: the pods would never be ready; "+
				"put {permit: {paths: [%s, /v1/version]}} first", HealthPath, HealthPath)))
	}
	return out
}

// routeMatches says whether a route pattern matches path, as the server's route policy
// matches them: *, regex:<pattern> (not evaluated here: counted as not matching), a prefix
// ending in *, or the path itself.
func routeMatches(path string) func(string) bool {
	return func(pattern string) bool {
		switch {
		case pattern == "*":
			return true
		case strings.HasPrefix(pattern, "regex:"):
			return false
		case strings.HasSuffix(pattern, "*"):
			return strings.HasPrefix(path, strings.TrimSuffix(pattern, "*"))
		}
		return pattern == path
	}
}

// warnNeverMatches warns about a rule that can never decide: one about creating that asks
// for an owner (a resource is created without one), and one that tests an attribute the
// provider's claims mapping never fills.
func (g *generator) warnNeverMatches(at *field.Path, a *v1alpha2.AuthenticationSpec, r v1alpha2.AccessRule) {
	scope := r.Permit
	if scope == nil {
		scope = r.Forbid
	}
	if slices.Equal(scope.Actions, []string{"create"}) && slices.ContainsFunc(r.When, needsOwner) {
		g.warn(at, "never matches: the server decides create before the resource has an owner, so %q never holds then; "+
			"drop the condition, or write the rule for read, update and delete", r.When[slices.IndexFunc(r.When, needsOwner)])
	}
	filled := attributesFilled(a)
	if filled == nil {
		return // the attributes come from the proxy or the endpoint: not known here
	}
	for _, c := range slices.Concat(r.When, r.Unless) {
		if attr := conditionAttribute(c); attr != "" && !slices.Contains(filled, attr) {
			g.warn(at, "%q tests the attribute %s, which the provider's claims mapping never fills (it fills %s): map a claim to %s in claimsMapping",
				c, attr, strings.Join(filled, ", "), attr)
		}
	}
}

func needsOwner(c string) bool {
	w := strings.Fields(c)
	return slices.Equal(w, []string{"user", "is", "owner"}) || len(w) == 4 && w[1] == "in" && w[2] == "owners"
}

// conditionAttribute is the attribute a condition tests, "" for one about ownership alone.
func conditionAttribute(c string) string {
	w := strings.Fields(c)
	switch {
	case len(w) == 5 && w[1] == "with" || len(w) == 6 && w[1] == "with":
		return w[len(w)-1]
	case len(w) == 4 && w[1] == "in", len(w) == 5 && w[2] == "in" && w[3] == "owners":
		return w[len(w)-1]
	}
	return ""
}

// defaultClaimsMappings are the server's claims mappings when the spec writes none
// (OAuth2TokenAuthConfig, KubernetesAuthProviderConfig, GitHubTokenAuthConfig).
var defaultClaimsMappings = map[string]map[string]string{
	"oidc":       {"sub": "roles", "username": "roles", "groups": "teams", "team": "teams", "project": "projects", "tenant": "namespaces", "namespace": "namespaces"},
	"kubernetes": {"username": "roles", "groups": "roles"},
	"github":     {"login": "roles", "organizations": "teams"},
}

// attributesFilled are the attributes the provider's claims mapping fills, sorted; nil when
// the provider says them itself (custom, upstreamHeader).
func attributesFilled(a *v1alpha2.AuthenticationSpec) []string {
	var mapping map[string]string
	var provider string
	switch {
	case a.OIDC != nil:
		mapping, provider = a.OIDC.ClaimsMapping, "oidc"
	case a.Kubernetes != nil:
		mapping, provider = a.Kubernetes.ClaimsMapping, "kubernetes"
	case a.GitHub != nil:
		mapping, provider = a.GitHub.ClaimsMapping, "github"
	default:
		return nil
	}
	if len(mapping) == 0 {
		mapping = defaultClaimsMappings[provider]
	}
	return slices.Compact(slices.Sorted(maps.Values(mapping)))
}

// warnLockedOut warns about a policy that permits nothing, or whose first rule forbids every
// action to everyone: every caller is refused everything.
func (g *generator) warnLockedOut(path *field.Path, rules []any) {
	for _, r := range rules {
		rule := r.(map[string]any)
		if rule["permit"] != nil {
			break
		}
		if forbidsEverything(rule) {
			g.warn(path, "locks everyone out: a rule forbids every action to every caller before any rule permits one; give it a condition, or remove it")
			return
		}
	}
	if !slices.ContainsFunc(rules, func(r any) bool { return r.(map[string]any)["permit"] != nil }) {
		g.warn(path, "locks everyone out: no rule permits anything, and the server refuses what no rule permits; add a preset (owners, sharedRead) or a permit rule")
	}
}

// forbidsEverything reports whether a rule forbids every action on every resource to every
// caller, whatever holds.
func forbidsEverything(rule map[string]any) bool {
	forbid, ok := rule["forbid"].(map[string]any)
	_, when := rule["when"]
	_, unless := rule["unless"]
	if !ok || when || unless || len(forbid) != 1 {
		return false
	}
	actions := map[any]bool{}
	for _, a := range forbid["actions"].([]any) {
		actions[a] = true
	}
	return len(actions) == 4
}
