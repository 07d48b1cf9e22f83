// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// toolGroups are the built-in tool groups, each with the tool_runtime provider types that
// serve it, preferred first.
var toolGroups = map[string][]string{
	"websearch":     {"remote::tavily-search", "remote::brave-search", "remote::bing-search"},
	"rag":           {"inline::rag-runtime", "inline::file-search"},
	"wolfram_alpha": {"remote::wolfram-alpha"},
}

// toolAliases maps the names users write to toolGroups keys (rag became file_search in 0.7).
var toolAliases = map[string]string{
	"websearch": "websearch", "web_search": "websearch",
	"rag": "rag", "file_search": "rag", "file-search": "rag",
	"wolfram_alpha": "wolfram_alpha", "wolfram-alpha": "wolfram_alpha",
}

// applyTools makes each spec tool usable. 0.6 registers tool groups explicitly (the
// profile's ToolGroups); from 0.7 the server registers built-in groups itself from its
// tool_runtime providers (and drops registered_resources.tool_groups), so there a tool means
// "have a provider that serves it".
func (g *generator) applyTools() {
	if g.spec.Resources == nil {
		return
	}
	for i, name := range g.spec.Resources.Tools {
		path := resourcesPath.Child("tools").Index(i)
		key, ok := toolAliases[strings.TrimPrefix(name, "builtin::")]
		if !ok {
			g.errs = append(g.errs, field.NotSupported(path, name, slices.Sorted(maps.Keys(toolGroups))))
			continue
		}
		group := toolGroups[key]
		provider, ok := g.toolProvider(name, group, path)
		if !ok {
			continue
		}
		if id, ok := g.prof.ToolGroups[key]; ok {
			g.register("tool_groups", "toolgroup_id", map[string]any{"toolgroup_id": id, "provider_id": provider})
		}
	}
}

// toolProvider finds the provider serving a group: spec.providers.toolRuntime first, then
// the distribution's enabled providers, then one the distribution enables only with an
// environment variable (which is then enabled unconditionally, its config kept).
func (g *generator) toolProvider(name string, types []string, path *field.Path) (string, bool) {
	serves := func(entry map[string]any) bool {
		t, _ := entry["provider_type"].(string)
		return slices.Contains(types, t)
	}
	entries := providerList(g.cfg, "tool_runtime")
	for _, id := range g.crIDs["tool_runtime"] {
		for _, e := range entries {
			if e["provider_id"] == id && serves(e) {
				return id, true
			}
		}
	}
	for _, e := range entries {
		if isLiteral(e["provider_id"]) && serves(e) {
			return e["provider_id"].(string), true
		}
	}
	for _, e := range entries {
		if id := entryID(e["provider_id"]); id != "" && serves(e) {
			e["provider_id"] = id
			return id, true
		}
	}
	g.errs = append(g.errs, field.Invalid(path, name, fmt.Sprintf(
		"tool %s requires at least one tool_runtime provider to be configured (%s), and the %s image has none: "+
			"use an image that includes one, or remove the tool", name, strings.Join(types, " or "), g.imageName())))
	return "", false
}
