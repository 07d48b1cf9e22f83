// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// resourceAPI says which API's providers each registered_resources list points at.
var resourceAPI = map[string]string{
	"models": "inference", "shields": "safety", "vector_stores": "vector_io", "tool_groups": "tool_runtime",
	"datasets": "datasetio", "scoring_fns": "scoring", "benchmarks": "eval",
}

// routingTables maps the routing tables providers depend on to the API that serves them.
var routingTables = map[string]string{
	"models": "inference", "shields": "safety", "vector_stores": "vector_io", "tool_groups": "tool_runtime",
	"datasets": "datasetio", "scoring_functions": "scoring", "benchmarks": "eval",
}

// applyDisabled removes each disabled API from apis, its providers, and whatever points at
// them: registered resources, vector_stores and safety defaults.
func (g *generator) applyDisabled() {
	removed := g.removed
	for i, name := range g.spec.Disabled {
		path := field.NewPath("spec", "disabled").Index(i)
		api := name.ServerName()
		if !g.prof.HasAPI(api) {
			g.warn(path, "%s: nothing to disable", g.prof.WithoutAPI(api))
			continue
		}
		removed[api] = i
		delete(mapAt(g.cfg, "providers"), api)
		g.removeAPI(api)
	}
	if len(removed) > 0 {
		g.dropDanglingReferences()
	}
}

func (g *generator) removeAPI(api string) {
	items, ok := g.cfg["apis"].([]any)
	if !ok {
		return
	}
	kept := make([]any, 0, len(items))
	for _, item := range items {
		if item != api {
			kept = append(kept, item)
		}
	}
	g.cfg["apis"] = kept
}

// dropDanglingReferences removes registered resources and defaults whose provider is gone.
func (g *generator) dropDanglingReferences() {
	rr := mapAt(g.cfg, "registered_resources")
	for _, kind := range slices.Sorted(maps.Keys(rr)) {
		items, ok := rr[kind].([]any)
		if !ok {
			continue
		}
		kept := make([]any, 0, len(items))
		for _, item := range items {
			entry, _ := item.(map[string]any)
			if entry == nil || g.providerExists(resourceAPI[kind], entry["provider_id"]) {
				kept = append(kept, item)
			}
		}
		rr[kind] = kept
	}
	if vs := mapAt(g.cfg, "vector_stores"); vs != nil {
		if !g.providerExists("vector_io", vs["default_provider_id"]) {
			delete(g.cfg, "vector_stores")
		} else {
			for _, key := range []string{"default_embedding_model", "default_reranker_model"} {
				if m := mapAt(vs, key); m != nil && !g.providerExists("inference", m["provider_id"]) {
					delete(vs, key)
				}
			}
		}
	}
	if shield, ok := mapAt(g.cfg, "safety")["default_shield_id"].(string); ok && !g.shieldExists(shield) {
		delete(g.cfg, "safety")
	}
}

// providerExists reports whether api has a provider answering to id (nil ids count as
// present: the entry was never bound to a provider).
func (g *generator) providerExists(api string, id any) bool {
	if id == nil || api == "" {
		return true
	}
	if api == "inference" && g.prof.AliasProviderID != "" && id == g.prof.AliasProviderID {
		return len(enabledIDs(g.cfg, "inference")) > 0 // the alias lands on the first of them
	}
	for _, entry := range providerList(g.cfg, api) {
		if entryID(entry["provider_id"]) == entryID(id) {
			return true
		}
	}
	return false
}

func (g *generator) shieldExists(id string) bool {
	items, _ := mapAt(g.cfg, "registered_resources")["shields"].([]any)
	for _, item := range items {
		if entry, ok := item.(map[string]any); ok && entry["shield_id"] == id {
			return true
		}
	}
	return false
}

// checkDependencies fails when a provider needs an API the config does not serve, because
// spec.disabled removed it or the base lacks it: the server would stop at start with
// "required dependency ... is not available".
func (g *generator) checkDependencies() {
	for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
		var reported []string
		for _, entry := range providerList(g.cfg, api) {
			t, _ := entry["provider_type"].(string)
			if !isLiteral(entry["provider_id"]) {
				continue // enabled only by a variable: it may never start
			}
			for _, need := range g.prof.Needs(api, t) {
				if served, ok := routingTables[need]; ok {
					need = served
				}
				if internalAPIs[need] || g.serves(need) || slices.Contains(reported, need) {
					continue
				}
				reported = append(reported, need)
				if i, gone := g.removed[need]; gone {
					g.errs = append(g.errs, field.Invalid(field.NewPath("spec", "disabled").Index(i), wording.API(string(g.spec.Disabled[i])),
						fmt.Sprintf("%s needs %s, so the server would not start: also disable %s, or keep %s",
							api, need, wording.API(string(v1alpha2.APINameOf(api))), wording.API(string(g.spec.Disabled[i])))))
					continue
				}
				g.errs = append(g.errs, field.Invalid(field.NewPath("spec", "distribution"), g.imageName(), fmt.Sprintf(
					"the distribution's %s provider %v (%s) needs the %s API, which its config does not serve, so the server "+
						"would not start: disable %s (⟦spec.disabled⟧), or use a config that has a %s provider",
					api, entry["provider_id"], t, need, wording.API(string(v1alpha2.APINameOf(api))), need)))
			}
		}
	}
}

// internalAPIs always exist in the server and take no providers.
var internalAPIs = map[string]bool{
	"inspect": true, "providers": true, "admin": true, "prompts": true, "conversations": true, "connectors": true,
}

// serves reports whether the config serves an API other providers can depend on: a router
// (inference, safety, ...) when apis is empty or lists it, any other API when one of its
// providers is enabled whatever the environment.
func (g *generator) serves(api string) bool {
	for _, router := range routingTables {
		if router == api {
			apis, _ := g.cfg["apis"].([]any)
			return len(apis) == 0 || slices.Contains(apis, any(api))
		}
	}
	return len(enabledIDs(g.cfg, api)) > 0
}
