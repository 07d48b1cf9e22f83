// SPDX-License-Identifier: Apache-2.0

package config

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// applyExternalProviders adds spec.externalProviders to the config: each is a
// provider entry with the module key the server imports it by, its settings, and its
// secretRefs as LLSD_<ID>_<KEY> variables. It is added to its API's providers; one
// with the id of a spec.providers entry replaces that entry, with a warning, as it
// replaces a base provider of that id.
func (g *generator) applyExternalProviders() {
	ids := map[string]*field.Path{} // provider id -> first external provider with it
	for _, list := range g.spec.ExternalProviders.APIs() {
		api := list.Name.ServerName()
		if len(list.Providers) == 0 || !g.prof.HasAPI(api) { // rejectUnsupported says why
			continue
		}
		path := field.NewPath("spec", "externalProviders", string(list.Name))
		for i, ref := range list.Providers {
			p := path.Index(i)
			if first, dup := ids[ref.ProviderID]; dup {
				// Their init containers and variables would clash.
				g.errs = append(g.errs, field.Duplicate(p.Child("providerId"), fmt.Sprintf("%s (also %s): give each external provider its own id",
					ref.ProviderID, first)))
				continue
			}
			ids[ref.ProviderID] = p
			entry, ok := g.externalEntry(api, ref, p)
			if !ok {
				continue
			}
			if slices.Contains(g.crIDs[api], ref.ProviderID) {
				g.warn(p.Child("providerId"), "replaces ⟦spec.providers.%s⟧'s provider %s: the external provider wins",
					list.Name, ref.ProviderID)
			}
			g.overlay(api, entry)
			addAPI(g.cfg, api)
		}
	}
}

// externalEntry builds the config entry of one external provider: its module and type from
// the spec, else from what its image says of itself (ProviderPackages), whose API must be
// the section the provider sits in.
func (g *generator) externalEntry(api string, ref v1alpha2.ExternalProviderRef, path *field.Path) (map[string]any, bool) {
	before := len(g.errs)
	if pkg := g.dist.ProviderPackages[ref.ProviderID]; pkg != nil {
		if pkg.API != api {
			g.errs = append(g.errs, field.Invalid(path.Child("image"), ref.Image, fmt.Sprintf(
				"the image's provider serves the %s API (%s), not %s: move it to ⟦spec.externalProviders.%s⟧",
				pkg.API, pkg.Source, api, v1alpha2.APINameOf(pkg.API))))
		}
		ref.Module, ref.ProviderType = cmp.Or(ref.Module, pkg.PackageName), cmp.Or(ref.ProviderType, pkg.ProviderType)
	}
	if ref.Module == "" {
		g.errs = append(g.errs, field.Required(path.Child("module"),
			"the server loads an external provider by importing <module>.provider: name the provider's Python package"))
	}
	if ref.ProviderType == "" {
		g.errs = append(g.errs, field.Required(path.Child("providerType"),
			"name the provider type the module provides, remote::<name> or inline::<name>"))
	}
	config := g.settings(v1alpha2.ProviderSpec{Settings: ref.Settings}, path.Child("settings"))
	g.checkReferencesInSettings(config, path.Child("settings"))
	for _, key := range slices.Sorted(maps.Keys(ref.SecretRefs)) {
		g.secretConfigKey(config, config, key, EnvName(ref.ProviderID, key), ref.SecretRefs[key].SecretKeyRef,
			path.Child("secretRefs").Key(key))
	}
	if len(g.errs) > before {
		return nil, false
	}
	return map[string]any{"provider_id": ref.ProviderID, "provider_type": ref.ProviderType, "module": ref.Module, "config": config}, true
}
