// SPDX-License-Identifier: Apache-2.0

package config

import (
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/llamastack/llsd/internal/lazyre"
)

// mapAt returns m[key] as a map, or nil.
func mapAt(m map[string]any, key string) map[string]any {
	v, _ := m[key].(map[string]any)
	return v
}

// ensureMap returns m[key] as a map, creating it when absent.
func ensureMap(m map[string]any, key string) map[string]any {
	if v, ok := m[key].(map[string]any); ok {
		return v
	}
	v := map[string]any{}
	m[key] = v
	return v
}

// providerList returns the provider entries of one API.
func providerList(cfg map[string]any, api string) []map[string]any {
	items, _ := mapAt(cfg, "providers")[api].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, item := range items {
		if entry, ok := item.(map[string]any); ok {
			out = append(out, entry)
		}
	}
	return out
}

func setProviderList(cfg map[string]any, api string, entries []map[string]any) {
	items := make([]any, len(entries))
	for i, e := range entries {
		items[i] = e
	}
	ensureMap(cfg, "providers")[api] = items
}

// conditionalID matches upstream's "${env.X:+id}": the provider is enabled, as id, only
// when X is set (submatches: X, id).
var conditionalID = lazyre.New(`^\$\{env\.([A-Z0-9_]+):\+([^}]*)\}$`)

// envRef matches s, a whole reference to a variable, against pattern (one of those above,
// which start with ${env.): most strings are no reference, and are told so without a regexp.
// The submatches are shared: read them, never change them.
func envRef(pattern *regexp.Regexp, s string) []string {
	if !strings.HasPrefix(s, "${env.") {
		return nil
	}
	key := envRefKey{pattern, s}
	if m, ok := envRefs.Load(key); ok {
		return m.([]string)
	}
	m := pattern.FindStringSubmatch(s)
	envRefs.Store(key, m)
	return m
}

// envRefs holds envRef's answers: the references are mostly a base config's, the same in
// every LLSD of a render, and a regexp match takes far longer than a lookup (about 4% of
// rendering 1,000 LLSDs went to matching the same few strings again).
var envRefs sync.Map // envRefKey -> []string

type envRefKey struct {
	pattern *regexp.Regexp
	s       string
}

// entryID is the id a provider or resource entry answers to: its provider_id, or the id
// inside an ${env.X:+id} condition.
func entryID(v any) string {
	s, _ := v.(string)
	if m := envRef(conditionalID(), s); m != nil {
		return m[2]
	}
	return s
}

// isLiteral reports whether a provider_id is enabled whatever the environment.
func isLiteral(v any) bool {
	s, ok := v.(string)
	return ok && s != "" && s != "__disabled__" && !strings.Contains(s, "${")
}

// shippedTypes returns the provider types of each API in a config: what its image
// installs (the image installs the dependencies of its distribution's providers only).
func shippedTypes(cfg map[string]any) map[string]map[string]bool {
	types := map[string]map[string]bool{}
	for api := range mapAt(cfg, "providers") {
		types[api] = map[string]bool{}
		for _, entry := range providerList(cfg, api) {
			if t, ok := entry["provider_type"].(string); ok {
				types[api][t] = true
			}
		}
	}
	return types
}

// enabledIDs lists the literal provider ids of an API, in config order.
func enabledIDs(cfg map[string]any, api string) []string {
	var ids []string
	for _, entry := range providerList(cfg, api) {
		if isLiteral(entry["provider_id"]) {
			ids = append(ids, entry["provider_id"].(string))
		}
	}
	return ids
}

// addAPI inserts api into the apis list (kept sorted) when the list exists and lacks it.
// An absent or empty list means "every API with providers", which needs no entry.
func addAPI(cfg map[string]any, api string) {
	items, _ := cfg["apis"].([]any)
	if len(items) == 0 {
		return
	}
	names := make([]string, 0, len(items)+1)
	for _, item := range items {
		s, _ := item.(string)
		if s == api {
			return
		}
		names = append(names, s)
	}
	names = append(names, api)
	sort.Strings(names)
	cfg["apis"] = toAny(names)
}

// deepMerge merges src into dst: maps merge key by key, anything else replaces.
func deepMerge(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				deepMerge(dm, sm)
				continue
			}
		}
		dst[k] = v
	}
}
