// SPDX-License-Identifier: Apache-2.0

package v1alpha2

// AuthenticationSpec says who may call the server and what each caller may do with what it
// holds (server.auth in config.yaml). One provider authenticates the callers; the access
// policy then decides, per resource, who may create, read, update and delete:
//
//	authentication:
//	  oidc:
//	    issuer: https://keycloak.example.com/realms/ai
//	    audience: llama-stack
//	    jwksURI: https://keycloak.example.com/realms/ai/protocol/openid-connect/certs
//	  accessPolicy:
//	    owners: true                              # each user manages what they create
//	    sharedRead: true                          # everyone reads the models of the config
//	    admins: {attribute: teams, value: ai-admins}
//
// The server answers health and version without a token; everything else asks for one.
type AuthenticationSpec struct {
	// OIDC validates bearer tokens an OpenID Connect or OAuth2 issuer signed (Keycloak,
	// Dex, Entra ID, Okta, ...): by the issuer's keys (jwksURI) or by asking it
	// (introspection).
	// +optional
	OIDC *OIDCAuthSpec `json:"oidc,omitempty"`

	// Kubernetes has the cluster's API server validate callers' tokens (a service
	// account's, or an OpenShift user's): the server asks it who the caller is
	// (SelfSubjectReview) with the caller's own token, and needs none of its own.
	// +optional
	Kubernetes *KubernetesAuthSpec `json:"kubernetes,omitempty"`

	// GitHub validates GitHub tokens against GitHub's API: the caller is the token's user.
	// +optional
	GitHub *GitHubAuthSpec `json:"github,omitempty"`

	// Custom asks an endpoint of yours whether a token is valid and who it belongs to.
	// +optional
	Custom *CustomAuthSpec `json:"custom,omitempty"`

	// UpstreamHeader trusts a header a proxy in front of the server sets after it
	// authenticated the caller (an API gateway, Authorino, an OAuth2 proxy). OGX 0.8 and
	// later. Anyone who reaches the server could set the header too, so llsd only renders it
	// behind networking.allowedFrom naming that proxy exactly (no "*", no label without its
	// value, no network wider than /24 or /64), admits nothing else, and refuses
	// networking.expose.
	// +optional
	UpstreamHeader *UpstreamHeaderAuthSpec `json:"upstreamHeader,omitempty"`

	// AccessPolicy decides what authenticated callers may do with the server's resources
	// (models, vector stores, files, conversations, ...). Without it the server lets a user
	// manage what they own, what someone sharing one of their attributes owns, and what
	// nobody owns.
	// +optional
	AccessPolicy *AccessPolicySpec `json:"accessPolicy,omitempty"`

	// RoutePolicy decides which API paths a caller may call at all, before any resource is
	// looked at. Health and version need a rule too when one is written.
	// +optional
	// +kubebuilder:validation:MaxItems=64
	RoutePolicy []RouteRule `json:"routePolicy,omitempty"`

	// Tenancy keeps each tenant's resources apart (OGX 1.2 and later).
	// +optional
	Tenancy *TenancySpec `json:"tenancy,omitempty"`
}

// TenancySpec is how the server assigns each request a tenant:
//
//	tenancy: {mode: multi}     # with oidc.tenantClaim, kubernetes.tenantClaim, custom.tenantField or upstreamHeader.tenantHeader
//	tenancy: {mode: single, defaultTenantID: acme}
type TenancySpec struct {
	// Mode single stamps every request with defaultTenantID; multi takes each caller's
	// tenant from the authentication provider and refuses a request that names none.
	// +kubebuilder:validation:Enum=single;multi
	Mode string `json:"mode"`

	// DefaultTenantID is the tenant of every request in single mode.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[a-z0-9][-_a-z0-9]*$`
	DefaultTenantID string `json:"defaultTenantID,omitempty"`
}

// OIDCAuthSpec validates tokens of an OpenID Connect issuer. Set jwksURI (the server checks
// each token's signature with the issuer's keys) or introspection (the server asks the
// issuer about each token), not both:
//
//	oidc:
//	  issuer: https://keycloak.example.com/realms/ai
//	  audience: llama-stack
//	  introspection:
//	    url: https://keycloak.example.com/realms/ai/protocol/openid-connect/token/introspect
//	    clientID: llama-stack
//	    clientSecret: {secretKeyRef: {name: llama-oidc, key: client-secret}}
type OIDCAuthSpec struct {
	// Issuer is the issuer URL a token's iss claim must name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=512
	Issuer string `json:"issuer"`

	// Audience a token's aud claim must name; the server's default (llama-stack, or ogx
	// from OGX 0.8) when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Audience string `json:"audience,omitempty"`

	// JWKSURI is where the issuer publishes its signing keys (an OpenID issuer's
	// jwks_uri, in its /.well-known/openid-configuration).
	// +optional
	// +kubebuilder:validation:MaxLength=512
	JWKSURI string `json:"jwksURI,omitempty"`

	// Introspection asks the issuer about every token (RFC 7662).
	// +optional
	Introspection *IntrospectionSpec `json:"introspection,omitempty"`

	// ClaimsMapping maps a token's claims to the attributes access rules test (roles,
	// teams, projects, namespaces): {groups: teams}. The server's mapping when unset: sub
	// and username to roles, groups and team to teams, project to projects, tenant and
	// namespace to namespaces.
	// +optional
	// +kubebuilder:validation:MaxProperties=32
	ClaimsMapping map[string]string `json:"claimsMapping,omitempty"`

	// TenantClaim is the claim that names the caller's tenant (server tenancy, OGX 1.2 and
	// later).
	// +optional
	// +kubebuilder:validation:MaxLength=253
	TenantClaim string `json:"tenantClaim,omitempty"`
}

// IntrospectionSpec is the issuer's token introspection endpoint and the client the server
// authenticates to it as; the client secret comes from a Secret, never the config.
type IntrospectionSpec struct {
	// URL of the introspection endpoint.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=512
	URL string `json:"url"`

	// ClientID the server authenticates as.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ClientID string `json:"clientID"`

	// ClientSecret is the Secret key that holds the client's secret.
	ClientSecret SecretKeySource `json:"clientSecret"`

	// SendSecretInBody sends the client's credentials in the request body instead of HTTP
	// basic authentication.
	// +optional
	SendSecretInBody bool `json:"sendSecretInBody,omitempty"`
}

// KubernetesAuthSpec has the API server validate callers' tokens:
//
//	kubernetes: {claimsMapping: {groups: teams, username: roles}}
//
// With the in-cluster API server (the default), llsd mounts the cluster's CA (the
// kube-root-ca.crt ConfigMap every namespace has) and the pod keeps no token of its own.
type KubernetesAuthSpec struct {
	// APIServerURL is the API server's URL; https://kubernetes.default.svc when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	APIServerURL string `json:"apiServerURL,omitempty"`

	// ClaimsMapping maps the user info the API server returns (username, uid, groups,
	// extra) to the attributes access rules test. The server's when unset: username and
	// groups to roles.
	// +optional
	// +kubebuilder:validation:MaxProperties=32
	ClaimsMapping map[string]string `json:"claimsMapping,omitempty"`

	// TenantClaim names the user info field that names the caller's tenant (OGX 1.2 and
	// later).
	// +optional
	// +kubebuilder:validation:MaxLength=253
	TenantClaim string `json:"tenantClaim,omitempty"`
}

// GitHubAuthSpec validates GitHub tokens.
type GitHubAuthSpec struct {
	// APIBaseURL is GitHub's API; https://api.github.com when unset (set it for GitHub
	// Enterprise Server).
	// +optional
	// +kubebuilder:validation:MaxLength=512
	APIBaseURL string `json:"apiBaseURL,omitempty"`

	// ClaimsMapping maps GitHub's user fields to the attributes access rules test; the
	// server's when unset: login to roles, organizations to teams.
	// +optional
	// +kubebuilder:validation:MaxProperties=32
	ClaimsMapping map[string]string `json:"claimsMapping,omitempty"`
}

// CustomAuthSpec is an endpoint that decides: the server posts it the caller's token and the
// request, and takes the principal and attributes it answers.
type CustomAuthSpec struct {
	// Endpoint is the URL the server posts to.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=512
	Endpoint string `json:"endpoint"`

	// TenantField is the field of the answer that names the caller's tenant (OGX 1.2 and
	// later).
	// +optional
	// +kubebuilder:validation:MaxLength=253
	TenantField string `json:"tenantField,omitempty"`
}

// UpstreamHeaderAuthSpec reads the caller from headers a trusted proxy sets:
//
//	upstreamHeader: {principalHeader: x-auth-request-user, attributesHeader: x-auth-attributes}
type UpstreamHeaderAuthSpec struct {
	// PrincipalHeader holds the authenticated caller's identity.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9-]+$`
	PrincipalHeader string `json:"principalHeader"`

	// AttributesHeader holds the caller's attributes as a JSON object ({"teams": ["a"]}).
	// +optional
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9-]+$`
	AttributesHeader string `json:"attributesHeader,omitempty"`

	// AttributeHeaders maps headers to attributes, one header each: {x-auth-groups: teams}
	// (OGX 1.0 and later).
	// +optional
	// +kubebuilder:validation:MaxProperties=16
	AttributeHeaders map[string]string `json:"attributeHeaders,omitempty"`

	// TenantHeader holds the caller's tenant (OGX 1.2 and later).
	// +optional
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9-]+$`
	TenantHeader string `json:"tenantHeader,omitempty"`
}

// AccessPolicySpec is what authenticated callers may do. Presets cover what most teams want;
// rules say anything else. The server reads the rules in order and the first that matches
// decides; what no rule matches is refused. llsd writes, in this order: admins, readers,
// owners, sharedRead, then rules.
//
//	accessPolicy:
//	  admins: {attribute: roles, value: admin}     # manage everything
//	  readers: {attribute: teams, value: auditors} # read everything, change nothing
//	  owners: true                                 # everyone creates; owners manage their own
//	  sharedRead: true                             # everyone reads what nobody owns
type AccessPolicySpec struct {
	// Admins are the callers with an attribute value who may do anything with anything.
	// +optional
	Admins *AttributeMatch `json:"admins,omitempty"`

	// Readers are the callers with an attribute value who may read everything and change
	// nothing, not even what they would otherwise own.
	// +optional
	Readers *AttributeMatch `json:"readers,omitempty"`

	// Owners lets every authenticated caller create resources, and each read, update and
	// delete what they created.
	// +optional
	Owners bool `json:"owners,omitempty"`

	// SharedRead lets every authenticated caller read what nobody owns: what config.yaml
	// registers (models, shields, tool groups, vector stores).
	// +optional
	SharedRead bool `json:"sharedRead,omitempty"`

	// Rules are the server's access rules, after the presets.
	// +optional
	// +kubebuilder:validation:MaxItems=64
	Rules []AccessRule `json:"rules,omitempty"`
}

// AttributeMatch is one value of a caller's attribute: {attribute: teams, value: ai-admins}
// is the condition "user with ai-admins in teams".
type AttributeMatch struct {
	// Attribute is the attribute the provider's claims mapping fills.
	// +kubebuilder:validation:Enum=roles;teams;projects;namespaces
	Attribute string `json:"attribute"`

	// Value the caller's attribute must hold.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^\S+$`
	Value string `json:"value"`
}

// AccessRule permits or forbids actions on resources, when (or unless) conditions hold:
//
//	{permit: {actions: [read]}, when: ["user in owners teams"], description: team reads}
//
// Conditions are the server's: "user is owner", "user is not owner", "user with <value> in
// <attribute>", "user with <value> not in <attribute>", "user in owners <attribute>", "user
// not in owners <attribute>", "resource is unowned"; all of a rule's must hold.
type AccessRule struct {
	// Description is shown in the server's log when the rule decides.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Description string `json:"description,omitempty"`

	// Permit is what the rule allows.
	// +optional
	Permit *AccessScope `json:"permit,omitempty"`

	// Forbid is what the rule refuses.
	// +optional
	Forbid *AccessScope `json:"forbid,omitempty"`

	// When are conditions that must all hold for the rule to apply.
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=256
	When []string `json:"when,omitempty"`

	// Unless are conditions under which the rule does not apply.
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=256
	Unless []string `json:"unless,omitempty"`
}

// AccessScope is the actions, and optionally the resource and the caller, a rule is about.
type AccessScope struct {
	// Actions the rule is about.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=4
	// +kubebuilder:validation:items:Enum=create;read;update;delete
	Actions []string `json:"actions"`

	// Resource is one resource (model::my-model), a type (model::*) or regex:<pattern>.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	Resource string `json:"resource,omitempty"`

	// Principal is the one caller the rule is about.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Principal string `json:"principal,omitempty"`
}

// RouteRule permits or forbids API paths, when (or unless) conditions hold:
//
//	{permit: {paths: [/v1/health, /v1/version, /v1/models]}}
type RouteRule struct {
	// Description is shown in the server's log when the rule decides.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Description string `json:"description,omitempty"`

	// Permit is the paths the rule allows.
	// +optional
	Permit *RouteScope `json:"permit,omitempty"`

	// Forbid is the paths the rule refuses.
	// +optional
	Forbid *RouteScope `json:"forbid,omitempty"`

	// When are conditions that must all hold for the rule to apply.
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=256
	When []string `json:"when,omitempty"`

	// Unless are conditions under which the rule does not apply.
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=256
	Unless []string `json:"unless,omitempty"`
}

// RouteScope is the paths a route rule is about: a path (/v1/models), a prefix ending in *
// (/v1/vector_stores*), regex:<pattern>, or * for every path.
type RouteScope struct {
	// Paths of the API.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=256
	Paths []string `json:"paths"`
}
