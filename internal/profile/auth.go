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

// serverKeys are the keys of server each version takes: every version's, and those only some
// have (src/llama_stack/core/datatypes.py ServerConfig at v0.6.0 and v0.7.1,
// src/ogx/core/datatypes.py from v0.8.0). TestServerKeysAreTheSchemas holds them to each
// version's schema.
var serverKeys = []string{"auth", "host", "port", "tls_cafile", "tls_certfile", "tls_keyfile", "workers"}

// serverKeysBetween are keys some versions have, from first to last ("" for the newest).
var serverKeysBetween = []struct {
	first, last Version
	keys        []string
}{
	{"0.6", "0.8", []string{"cors", "quota"}},
	{"0.8", "", []string{"registry_refresh_interval_seconds"}},
	{"1.2", "", []string{"insecure", "tenancy", "tls_config", "hsts_max_age"}},
}

// ServerKeys are the keys of server the version takes, sorted.
func (p *Profile) ServerKeys() []string {
	keys := slices.Clone(serverKeys)
	for _, between := range serverKeysBetween {
		if p.Version.Compare(between.first) >= 0 && (between.last == "" || p.Version.Compare(between.last) <= 0) {
			keys = append(keys, between.keys...)
		}
	}
	slices.Sort(keys)
	return keys
}

// ServerKeyVersions names the versions whose server takes key: "OGX 1.2 and later",
// "llama-stack 0.6 to OGX 0.8".
func ServerKeyVersions(key string) string {
	for _, between := range serverKeysBetween {
		if !slices.Contains(between.keys, key) {
			continue
		}
		first, _ := For(between.first)
		if between.last == "" {
			return first.String() + " and later"
		}
		last, _ := For(between.last)
		return first.String() + " to " + last.String()
	}
	return "every version"
}
