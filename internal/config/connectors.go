// SPDX-License-Identifier: Apache-2.0

package config

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/redact"
)

// applyMCPServers registers spec.resources.mcpServers as connectors, replacing a base
// connector of the same id. The server removes, when it starts, every connector its config
// does not list, so the config's list is the whole set. A server that registers tool groups from
// its config (0.6) also gets the tool group mcp::<id>, served by its MCP tool provider.
func (g *generator) applyMCPServers() {
	if g.spec.Resources == nil || len(g.spec.Resources.MCPServers) == 0 {
		return
	}
	connectors, _ := g.cfg["connectors"].([]any)
	for i, m := range g.spec.Resources.MCPServers {
		path := resourcesPath.Child("mcpServers").Index(i)
		if !g.checkMCPURL(m.URL, path.Child("url")) {
			continue
		}
		entry := map[string]any{"connector_id": m.ID, "connector_type": "mcp", "url": m.URL}
		if m.Label != "" {
			entry["server_label"] = m.Label
		}
		connectors = withEntry(connectors, "connector_id", entry)
		if len(g.prof.ToolGroups) > 0 {
			if provider, ok := g.toolProvider(m.ID, []string{"remote::model-context-protocol"}, path); ok {
				g.register("tool_groups", "toolgroup_id", map[string]any{"toolgroup_id": "mcp::" + m.ID,
					"provider_id": provider, "mcp_endpoint": map[string]any{"uri": m.URL}})
			}
		}
	}
	g.cfg["connectors"] = connectors
}

// checkMCPURL refuses credentials in an MCP server's URL (the config is a ConfigMap; a
// request passes its credentials) and warns of localhost, where nothing listens in the pod.
func (g *generator) checkMCPURL(raw string, path *field.Path) bool {
	if redact.HasCredentials(raw) {
		g.errs = append(g.errs, field.Invalid(path, redact.URL(raw),
			"the URL holds a credential, and the config is a ConfigMap in clear: remove it; a request to the server passes the MCP server's credentials (its authorization)"))
		return false
	}
	if localURL().MatchString(raw) {
		g.warn(path, "%s is the server's own pod, where no MCP server listens: use the MCP server's Service name", redact.URL(raw))
	}
	return true
}

// withEntry replaces the entry of list whose key has entry's value, or appends entry.
func withEntry(list []any, key string, entry map[string]any) []any {
	for i, item := range list {
		if e, ok := item.(map[string]any); ok && e[key] == entry[key] {
			out := append([]any(nil), list...)
			out[i] = entry
			return out
		}
	}
	return append(list, entry)
}
