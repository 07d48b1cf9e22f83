// SPDX-License-Identifier: Apache-2.0

package profile_test

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// Every profile says everything a version needs: a field left empty would silently render
// the zero value (no port variable, no state directory) for that version only.
func TestEveryProfileIsComplete(t *testing.T) {
	optional := map[string]bool{
		"ToolGroups":           true, // nil: the server registers its built-in tool groups
		"IdentifiesModelsByID": true, // false: provider_id/provider_model_id
		"AliasProviderID":      true, // "": no alias provider
		"MultiWorkerHost":      true, // "": the server binds several workers itself
		"TLSRequired":          true, // false: the server serves plain HTTP without TLS settings
		"MetricsEndpoint":      true, // false: the server serves no Prometheus metrics
		"MigratedStores":       true, // nil: no store is read in an earlier form
		"PostgresBackendKeys":  true, // nil: no named backends before OGX 1.0
	}
	for _, p := range profile.All() {
		t.Run(string(p.Version), func(t *testing.T) {
			v := reflect.ValueOf(p).Elem()
			for i := range v.NumField() {
				f := v.Type().Field(i)
				if f.IsExported() && !optional[f.Name] {
					assert.False(t, v.Field(i).IsZero(), "%s is empty", f.Name)
				}
			}
			assert.NotEmpty(t, p.Upstream.Configs)
			assert.NotEmpty(t, p.Upstream.Server)
			require.NoError(t, p.Load())
			assert.Subset(t, p.APIs(), []string{"inference", "tool_runtime", "vector_io"})
			for _, api := range p.APIs() {
				assert.NotEmpty(t, p.ProviderTypes(api), api)
			}
			for key := range p.Dependencies {
				api, providerType, _ := strings.Cut(key, " ")
				assert.True(t, p.HasAPI(api), "dependency %q: %s has no %s API", key, p, api)
				if providerType != "*" {
					assert.Contains(t, p.ProviderTypes(api), providerType, "dependency %q names no provider of %s", key, p)
				}
			}
			assert.True(t, strings.HasPrefix(p.StateDir, "/."), "StateDir %q is a directory under / (the image's HOME)", p.StateDir)
			assert.True(t, strings.HasSuffix(p.ImageRepositories[0], "/distribution-"), p.ImageRepositories[0])
			assert.Equal(t, string(p.Version), p.Release[:len(p.Version)], "Release %s is a %s release", p.Release, p.Version)
		})
	}
	assert.Contains(t, profile.Supported(), profile.Default)
	assert.True(t, slices.IsSorted(profile.Supported()), "oldest first")
}

// Each profile's server data is in testdata/server, and the oracle validates the version with
// the schema of the same release the provider catalog comes from.
func TestProfilesNameTheirUpstreamData(t *testing.T) {
	for _, p := range profile.All() {
		_, err := servercheck.UpstreamConfig(p.Upstream.Configs + "/starter_config")
		assert.NoError(t, err, p)
		_, err = os.Stat(filepath.Join(servercheck.DataDir(), p.Upstream.Server, "provider-fields.txt"))
		assert.NoError(t, err, p)
		assert.Equal(t, p.Upstream.Server, servercheck.Releases[string(p.Version)], "%s: the oracle's schema release", p)
	}
	assert.Len(t, servercheck.Releases, len(profile.All()), "the oracle has a schema for every profile and no other")
}

func TestModelIdentifier(t *testing.T) {
	v07, _ := profile.For("0.7")
	v08, _ := profile.For("0.8")
	for _, tc := range []struct {
		reason                         string
		p                              *profile.Profile
		provider, model, providerModel string
		want                           string
	}{
		{reason: "0.7: the provider's name for the model", p: v07, provider: "vllm", model: "llama", providerModel: "meta-llama/Llama-3.1-8B", want: "vllm/meta-llama/Llama-3.1-8B"},
		{reason: "0.7: the model id when the provider's name is unset", p: v07, provider: "vllm", model: "llama", providerModel: "", want: "vllm/llama"},
		{reason: "0.8: always the model id", p: v08, provider: "vllm", model: "llama", providerModel: "meta-llama/Llama-3.1-8B", want: "vllm/llama"},
		{reason: "0.8: a model id that already carries the provider is not prefixed twice", p: v08, provider: "vllm", model: "vllm/llama", providerModel: "", want: "vllm/llama"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.p.ModelIdentifier(tc.provider, tc.model, tc.providerModel), tc.reason)
		})
	}
}

func TestUnknownVersion(t *testing.T) {
	_, ok := profile.For("0.10")
	assert.False(t, ok, "0.10 is not 0.1, and not supported")
}

// A newer minor release of the newest major version generates with that major's newest
// profile, by the server's stability policy, and says so; another major version, or an
// older one, has no profile.
func TestCompatible(t *testing.T) {
	for _, tc := range []struct {
		reason, version, want string
		note                  bool
	}{
		{reason: "a version of its own", version: "1.2", want: "1.2", note: false},
		{reason: "a 1.x newer than the newest profile: the newest 1.x, with a note", version: "1.4", want: "1.3", note: true},
		{reason: "far newer 1.x", version: "1.17", want: "1.3", note: true},
		{reason: "a new major version", version: "2.0", want: "", note: false},
		{reason: "older than every profile", version: "0.5", want: "", note: false},
		{reason: "0.x has no stability promise", version: "0.9", want: "", note: false},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			p, note, ok := profile.Compatible(profile.Version(tc.version))
			if tc.want == "" {
				assert.False(t, ok, tc.reason)
				return
			}
			require.True(t, ok, tc.reason)
			assert.Equal(t, profile.Version(tc.want), p.Version, tc.reason)
			assert.Equal(t, tc.note, note != "", tc.reason)
			if tc.note {
				assert.Contains(t, note, "OGX "+tc.version+" is newer than the newest OGX llsd knows (1.3)", tc.reason)
			}
		})
	}
}

func TestWithoutAPI(t *testing.T) {
	v13, _ := profile.For("1.3")
	v07, _ := profile.For("0.7")
	assert.Equal(t, "OGX 1.3 has no safety API (llama-stack 0.6 to OGX 0.8 have it): responses screen text through the "+
		"moderation endpoint of the responses provider (its moderation_endpoint setting, from OGX 1.0)", v13.WithoutAPI("safety"))
	assert.Equal(t, `to keep it, pin an older server with spec.distribution.serverVersion: "0.8"`, wording.Plain(v13.ServerWithAPI("safety")))
	assert.Equal(t, `llama-stack 0.7 has no messages API (OGX 0.8 to OGX 1.3 have it)`, v07.WithoutAPI("messages"))
	assert.Equal(t, `it arrived in OGX 0.8: set spec.distribution.serverVersion: "0.8" or later`, wording.Plain(v07.ServerWithAPI("messages")))
	assert.Empty(t, v13.WithoutAPI("inference"))
}

// The optional keys llsd writes on named Postgres backends are the server schema's own, less
// the ones it always writes (and the kv namespace, which a store's reference sets).
func TestPostgresBackendKeysAreTheSchemas(t *testing.T) {
	always := []string{"type", "host", "port", "db", "user", "password", "namespace"}
	for _, p := range profile.All() {
		t.Run(string(p.Version), func(t *testing.T) {
			doc, err := servercheck.SchemaDocument(p.Upstream.Server)
			require.NoError(t, err)
			defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
			for backendType, class := range map[string]string{"kv_postgres": "PostgresKVStoreConfig", "sql_postgres": "PostgresSqlStoreConfig"} {
				properties, _ := defs[class].(map[string]any)["properties"].(map[string]any)
				var optional []string
				for key := range properties {
					if !slices.Contains(always, key) {
						optional = append(optional, key)
					}
				}
				slices.Sort(optional)
				if p.PostgresBackendKeys == nil {
					continue // named backends need 1.x: nothing to compare
				}
				assert.Equal(t, optional, slices.Sorted(slices.Values(p.PostgresBackendKeys[backendType])), "%s %s", p, backendType)
			}
			assert.Equal(t, p.PostgresBackendKeys == nil, slices.Contains(p.KVStores, "prompts"),
				"named backends are offered exactly where prompts is a SQL store")
		})
	}
}

// The authentication keys llsd may write for each version are the server schema's own.
func TestAuthKeysAreTheSchemas(t *testing.T) {
	classes := map[string]string{"oauth2_token": "OAuth2TokenAuthConfig", "kubernetes": "KubernetesAuthProviderConfig",
		"github_token": "GitHubTokenAuthConfig", "custom": "CustomAuthConfig", "upstream_header": "UpstreamHeaderAuthConfig"}
	for _, p := range profile.All() {
		t.Run(string(p.Version), func(t *testing.T) {
			doc, err := servercheck.SchemaDocument(p.Upstream.Server)
			require.NoError(t, err)
			defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
			for typ, class := range classes {
				model, _ := defs[class].(map[string]any)
				properties, _ := model["properties"].(map[string]any)
				var keys []string
				for key := range properties {
					if key != "type" {
						keys = append(keys, key)
					}
				}
				slices.Sort(keys)
				assert.Equal(t, keys, p.AuthKeys(typ), "%s %s", p, typ)
			}
		})
	}
}

// The server keys llsd may write for each version are the server schema's own.
func TestServerKeysAreTheSchemas(t *testing.T) {
	for _, p := range profile.All() {
		doc, err := servercheck.SchemaDocument(p.Upstream.Server)
		require.NoError(t, err)
		defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
		model, _ := defs["ServerConfig"].(map[string]any)
		properties, _ := model["properties"].(map[string]any)
		assert.Equal(t, slices.Sorted(maps.Keys(properties)), p.ServerKeys(), "%s", p)
	}
	assert.Equal(t, "OGX 1.2 and later", profile.ServerKeyVersions("tenancy"))
	assert.Equal(t, "llama-stack 0.6 to OGX 0.8", profile.ServerKeyVersions("cors"))
}
