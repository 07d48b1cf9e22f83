// SPDX-License-Identifier: Apache-2.0

package config

import (
	"cmp"
	"fmt"
	"maps"
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
	named := g.spec.Storage != nil && len(g.spec.Storage.Backends) > 0
	type backend struct{ name, family string }
	missing := map[backend][]string{} // a backend storage.backends lacks -> the references to it
	check := func(where string, ref map[string]any, want string) {
		name, _ := ref["backend"].(string)
		if named && name != "" && backends[name] == nil {
			missing[backend{name, want}] = append(missing[backend{name, want}], where)
			return
		}
		g.checkBackend(where, ref, want, family)
	}
	if !named { // applyNamedStorage checked the stores it wrote
		for _, store := range slices.Sorted(maps.Keys(stores)) {
			want := "sql"
			if slices.Contains(g.prof.KVStores, store) {
				want = "kv"
			}
			check(fmt.Sprintf("storage.stores.%s", store), migratedStore(g.prof.MigratedStores, store, mapAt(stores, store)), want)
		}
	}
	for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
		for i, entry := range providerList(g.cfg, api) {
			walkBackendRefs(mapAt(entry, "config"), nil, func(at []string, ref map[string]any) {
				want := "kv"
				if _, ok := ref["table_name"]; ok {
					want = "sql"
				}
				check(fmt.Sprintf("providers.%s[%d].config.%s", api, i, strings.Join(at, ".")), ref, want)
			})
		}
	}
	for _, b := range slices.SortedFunc(maps.Keys(missing), func(x, y backend) int {
		return cmp.Or(cmp.Compare(x.family, y.family), cmp.Compare(x.name, y.name))
	}) {
		g.errs = append(g.errs, field.Required(storagePath.Child("backends"), fmt.Sprintf(
			"the providers keep their state in backend %s (%s), and storage.backends, which replaces the distribution's "+
				"backends, has none of that name: name one of your %s_postgres backends %s", b.name, listSome(missing[b], 3), b.family, b.name)))
	}
}

// listSome joins the first n items and says how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// migratedStore is a store reference as the server reads it: the key-value form of a store it
// migrates names the SQL backend of the same suffix.
func migratedStore(migrated []string, store string, ref map[string]any) map[string]any {
	_, hasNamespace := ref["namespace"]
	_, hasTable := ref["table_name"]
	name, _ := ref["backend"].(string)
	if !slices.Contains(migrated, store) || !hasNamespace || hasTable {
		return ref
	}
	return map[string]any{"backend": strings.Replace(name, "kv_", "sql_", 1), "table_name": ref["namespace"]}
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

// walkBackendRefs calls fn for every {backend: ...} reference inside a provider config, with
// the keys that lead to it from m (after at); fn must not keep them, the slice is reused.
func walkBackendRefs(m map[string]any, at []string, fn func([]string, map[string]any)) {
	var buf [8]string // most values of a provider's config are no mapping: their keys are not sorted
	keys := buf[:0]
	for key, v := range m {
		if _, ok := v.(map[string]any); ok {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	for _, key := range keys {
		child := m[key].(map[string]any)
		if _, ok := child["backend"]; ok {
			fn(append(at, key), child)
			continue
		}
		walkBackendRefs(child, append(at, key), fn)
	}
}

// podSets reports whether the pod sets variable name: llsd, or spec.workload.overrides.env.
func (g *generator) podSets(name string) bool {
	_, set := g.env[name]
	return set || g.overrideEnvSets(name)
}
