// SPDX-License-Identifier: Apache-2.0

package profile

import "slices"

// The keys of server.auth.provider_config each version takes, per provider type: the fields
// of its OAuth2TokenAuthConfig, KubernetesAuthProviderConfig, GitHubTokenAuthConfig,
// CustomAuthConfig and UpstreamHeaderAuthConfig (src/llama_stack/core/datatypes.py at
// v0.6.0 and v0.7.1, src/ogx/core/datatypes.py from v0.8.0), type aside.
// TestAuthKeysAreTheSchemas holds them to each version's schema.

// authKeys are the keys every supported version takes.
var authKeys = map[string][]string{
	"oauth2_token": {"audience", "claims_mapping", "introspection", "issuer", "jwks", "tls_cafile", "verify_tls"},
	"kubernetes":   {"api_server_url", "claims_mapping", "tls_cafile", "verify_tls"},
	"github_token": {"claims_mapping", "github_api_base_url"},
	"custom":       {"endpoint"},
}

// authKeysSince are the keys a version brought, by the version that brought them.
var authKeysSince = []struct {
	version Version
	keys    map[string][]string
}{
	{"0.8", map[string][]string{"upstream_header": {"attributes_header", "principal_header"}}},
	{"1.0", map[string][]string{"upstream_header": {"attribute_headers"}}},
	{"1.2", map[string][]string{"oauth2_token": {"tenant_claim"}, "kubernetes": {"tenant_claim"},
		"custom": {"tenant_field"}, "upstream_header": {"tenant_header"}}},
}

// AuthKeys are the keys of an authentication provider of type typ the version takes, sorted;
// nil when it has no such provider.
func (p *Profile) AuthKeys(typ string) []string {
	keys := slices.Clone(authKeys[typ])
	for _, since := range authKeysSince {
		if p.Version.Compare(since.version) >= 0 {
			keys = append(keys, since.keys[typ]...)
		}
	}
	slices.Sort(keys)
	return keys
}

// AuthKeySince is the first version whose provider of type typ takes key; "" when none does.
func AuthKeySince(typ, key string) Version {
	if slices.Contains(authKeys[typ], key) {
		return profiles[0].Version
	}
	for _, since := range authKeysSince {
		if slices.Contains(since.keys[typ], key) {
			return since.version
		}
	}
	return ""
}
