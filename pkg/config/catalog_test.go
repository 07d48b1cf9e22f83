// SPDX-License-Identifier: Apache-2.0

package config

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/servercheck"
	"github.com/llamastack/llsd/internal/testenv"
	"github.com/llamastack/llsd/pkg/distribution"
)

var (
	providerHeader = regexp.MustCompile(`^- (\S+) / (\S+) \(`)
	providerField  = regexp.MustCompile(`^    ([a-z_][a-z0-9_]*)\*?:`)
)

// serverProviders reads ../shared/llama-stack/provider-fields: api -> type -> config keys,
// as the server's pydantic models define them.
func serverProviders(t *testing.T, file string) map[string]map[string]map[string]bool {
	f, err := os.Open(filepath.Join(servercheck.SharedDir(), "llama-stack", "provider-fields", file))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]map[string]map[string]bool{}
	var fields map[string]bool
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		if m := providerHeader.FindStringSubmatch(scanner.Text()); m != nil {
			if out[m[1]] == nil {
				out[m[1]] = map[string]map[string]bool{}
			}
			fields = map[string]bool{}
			out[m[1]][m[2]] = fields
		} else if m := providerField.FindStringSubmatch(scanner.Text()); m != nil && fields != nil {
			fields[m[1]] = true
		}
	}
	require.NoError(t, scanner.Err())
	return out
}

// The catalog names exactly the providers each server version registers, and every config
// key it writes exists in that provider's config model: a wrong key would be silently
// ignored by the server.
func TestCatalogMatchesServer(t *testing.T) {
	testenv.Need(t, servercheck.MissingShared())
	files := map[distribution.Version]string{"0.6": "provider-config-fields-v0.6.0.txt", "0.7": "provider-config-fields-v0.7.1.txt"}
	for _, v := range distribution.Supported {
		server := serverProviders(t, files[v])
		for _, api := range []string{"inference", "safety", "vector_io", "tool_runtime"} {
			var want []string
			for typ := range server[api] {
				want = append(want, typ)
			}
			sort.Strings(want)
			assert.Equal(t, want, KnownTypes(v, api), "%s %s provider types", v, api)
			for _, typ := range want {
				fm := fieldMapFor(api, typ)
				keys := []string{fm.Endpoint, fm.Credential, fm.DBPath}
				if fm.Persistence {
					keys = append(keys, "persistence")
				}
				if fm.PostgresEndpoint {
					keys = append(keys, "host", "port", "db")
				}
				for _, r := range fm.Required {
					keys = append(keys, r.Key)
				}
				for _, key := range keys {
					if key != "" {
						assert.True(t, server[api][typ][key], "%s: %s %s has no config key %q", v, api, typ, key)
					}
				}
			}
		}
	}
	for key := range fieldMaps {
		typ, api, _ := strings.Cut(key, "#")
		found := false
		for _, v := range distribution.Supported {
			for _, a := range []string{"inference", "safety", "vector_io", "tool_runtime"} {
				if (api == "" || api == a) && strings.Contains(" "+knownTypes[v][a]+" ", " "+typ+" ") {
					found = true
				}
			}
		}
		assert.True(t, found, "fieldMaps has %s, which no supported server version registers", key)
	}
}
