// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// checkBackendReferences fails when a store or provider names a storage backend that does
// not exist or is of the wrong family; the server would only find out when the provider
// starts ("Unknown KVStore backend").
func (g *generator) checkBackendReferences() {
	storage := mapAt(g.cfg, "storage")
	backends, stores := mapAt(storage, "backends"), mapAt(storage, "stores")
	family := func(name string) string {
		t, _ := mapAt(backends, name)["type"].(string)
		family, _, _ := strings.Cut(t, "_")
		return family
	}
	for _, store := range slices.Sorted(maps.Keys(stores)) {
		ref := mapAt(stores, store)
		want := "sql"
		if store == "metadata" || store == "prompts" || store == "connectors" {
			want = "kv"
		}
		g.checkBackend(fmt.Sprintf("storage.stores.%s", store), ref, want, family)
	}
	for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
		for i, entry := range providerList(g.cfg, api) {
			walkBackendRefs(mapAt(entry, "config"), fmt.Sprintf("providers.%s[%d].config", api, i), func(where string, ref map[string]any) {
				want := "kv"
				if _, ok := ref["table_name"]; ok {
					want = "sql"
				}
				g.checkBackend(where, ref, want, family)
			})
		}
	}
}

func (g *generator) checkBackend(where string, ref map[string]any, want string, family func(string) string) {
	name, _ := ref["backend"].(string)
	if name == "" || strings.Contains(name, "${") {
		return
	}
	if got := family(name); got != want {
		g.errs = append(g.errs, field.Invalid(field.NewPath("spec"), name, fmt.Sprintf(
			"the generated config's %s references storage backend %q, which is not a %s backend (it is %q): "+
				"check the provider settings that name it", where, name, want, got)))
	}
}

// walkBackendRefs calls fn for every {backend: ...} reference inside a provider config.
func walkBackendRefs(m map[string]any, where string, fn func(string, map[string]any)) {
	for _, key := range slices.Sorted(maps.Keys(m)) {
		child, ok := m[key].(map[string]any)
		if !ok {
			continue
		}
		if _, ok := child["backend"]; ok {
			fn(where+"."+key, child)
			continue
		}
		walkBackendRefs(child, where+"."+key, fn)
	}
}

var emptyDefault = regexp.MustCompile(`^\$\{env\.([A-Z0-9_]+):=\}$`)

// checkDistributionProviders fails when a provider the distribution always enables still
// has its required endpoint only as ${env.X:=} and nothing sets X: remote-vllm without a
// vLLM URL would crash at start.
func (g *generator) checkDistributionProviders() {
	for _, id := range g.dist.EnableProviders {
		for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
			for _, entry := range providerList(g.cfg, api) {
				if entry["provider_id"] != id {
					continue
				}
				t, _ := entry["provider_type"].(string)
				for _, r := range fieldMapFor(api, t).Required {
					value, _ := mapAt(entry, "config")[r.Key].(string)
					if m := emptyDefault.FindStringSubmatch(value); m != nil && !g.overrideEnvSets(m[1]) {
						g.errs = append(g.errs, field.Required(field.NewPath("spec", "providers", "inference"), fmt.Sprintf(
							"the %s distribution needs %s's %s: add a provider with id %s (for example "+
								"{provider: vllm, endpoint: http://vllm:8000/v1}), or set %s in spec.workload.overrides.env",
							g.dist.Name, id, r.Key, id, m[1])))
					}
				}
			}
		}
	}
}

func (g *generator) overrideEnvSets(name string) bool {
	if g.spec.Workload == nil || g.spec.Workload.Overrides == nil {
		return false
	}
	for _, e := range g.spec.Workload.Overrides.Env {
		if e.Name == name {
			return true
		}
	}
	return false
}

var requiredEnvRef = regexp.MustCompile(`\$\{env\.([A-Z0-9_]+)\}`)

// warnRequiredEnv warns about ${env.X} references (no default) that neither llsd nor
// spec.workload.overrides.env provides: the server stops at start when X is unset
// (postgres-demo's INFERENCE_MODEL, for example).
func (g *generator) warnRequiredEnv() {
	seen := map[string]bool{}
	walkStrings(g.cfg, "", func(where, s string) {
		for _, m := range requiredEnvRef.FindAllStringSubmatch(s, -1) {
			name := m[1]
			if seen[name] || strings.HasPrefix(name, "LLSD_") || g.overrideEnvSets(name) {
				continue
			}
			seen[name] = true
			g.warn(field.NewPath("spec", "workload", "overrides", "env"),
				"the config requires environment variable %s (at %s) and the server stops at start without it: set it here",
				name, strings.TrimPrefix(where, "."))
		}
	})
}

// walkStrings calls fn for every string value in the tree, in a fixed order.
func walkStrings(v any, where string, fn func(string, string)) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			walkStrings(t[k], where+"."+k, fn)
		}
	case []any:
		for i, x := range t {
			walkStrings(x, fmt.Sprintf("%s[%d]", where, i), fn)
		}
	case string:
		fn(where, t)
	}
}
