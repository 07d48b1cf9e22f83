// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/suggest"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// UnknownProviderNames are the providers of spec that no server version llsd supports has: what
// a render that could not resolve its distribution (whose image decides the rest) can still
// say of them, so that a misspelt provider is not left for the next run.
func UnknownProviderNames(spec *v1alpha2.LlamaStackDistributionSpec) field.ErrorList {
	var errs field.ErrorList
	for _, list := range spec.Providers.APIs() {
		api := list.Name.ServerName()
		known := anyVersionTypes(api)
		for i, p := range list.Providers {
			if slices.ContainsFunc(typesNamed(p.Provider), func(t string) bool { return known[t] }) {
				continue
			}
			names := shortNames(known)
			errs = append(errs, field.Invalid(field.NewPath("spec", "providers", string(list.Name)).Index(i).Child("provider"), p.Provider,
				fmt.Sprintf("no server version llsd supports has %q among its %s providers%s: use one of %s (or an explicit remote::NAME / inline::NAME)",
					p.Provider, api, suggest.DidYouMean(p.Provider, names), strings.Join(names, ", "))))
		}
	}
	return errs
}

// anyVersionTypes are the provider types of an API that some supported version has.
func anyVersionTypes(api string) map[string]bool {
	known := map[string]bool{}
	for _, p := range profile.All() {
		if p.Load() != nil {
			continue
		}
		for _, t := range p.ProviderTypes(api) {
			known[t] = true
		}
	}
	return known
}

// shortNames are the names a spec may write for types: the name without remote:: or inline::.
func shortNames(types map[string]bool) []string {
	names := map[string]bool{}
	for t := range types {
		_, short, _ := strings.Cut(t, "::")
		names[short] = true
	}
	return slices.Sorted(maps.Keys(names))
}
