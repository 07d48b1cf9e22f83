// SPDX-License-Identifier: Apache-2.0

package review

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/llamastack/llsd/pkg/api"
)

// Diagram is a Mermaid flowchart of a server before and after a change, which forges draw in a
// comment: who may call it (the Ingress or Route, the NetworkPolicy's peers, authentication),
// the server and its version, the providers that serve its models (the others counted), and its
// storage backends.
func Diagram(before, after *Stack) string {
	var b strings.Builder
	b.WriteString("```mermaid\nflowchart LR\n")
	for _, side := range []struct {
		id    string
		stack *Stack
	}{{"before", before}, {"after", after}} {
		if side.stack == nil || side.stack.LLSD == nil {
			fmt.Fprintf(&b, "  subgraph %s [%s]\n    %s_none[\"no server\"]\n  end\n", side.id, side.id, side.id)
			continue
		}
		picture(&b, side.id, side.stack)
	}
	b.WriteString("```\n")
	return b.String()
}

// picture draws one side.
func picture(b *strings.Builder, id string, s *Stack) {
	node := func(name, label string) string { return fmt.Sprintf("%s_%s[\"%s\"]", id, name, mermaidText(label)) }
	fmt.Fprintf(b, "  subgraph %s [%s]\n", id, id)
	auth := "no authentication"
	if t, ok := nested(s.Config(), "server", "auth", "provider_config", "type").(string); ok {
		auth = "authenticates: " + t
	}
	server := node("server", fmt.Sprintf("%s · server %s · %s", s.Key, s.receipt(api.AnnotationServerVersion), auth))
	for _, kind := range []string{"Ingress", "Route"} {
		if o := s.object(kind); o != nil {
			fmt.Fprintf(b, "    %s --> %s\n", node(strings.ToLower(kind), "outside the cluster: "+hosts(o)), server)
		}
	}
	callers := "every pod of the cluster"
	if s.object("NetworkPolicy") != nil {
		callers = "the NetworkPolicy's peers"
	}
	fmt.Fprintf(b, "    %s --> %s\n", node("callers", callers), server)
	models := map[string][]string{}
	entries, _ := nested(s.Config(), "registered_resources", "models").([]any)
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok {
			provider, _ := m["provider_id"].(string)
			model, _ := m["model_id"].(string)
			models[provider] = append(models[provider], model)
		}
	}
	others := 0
	for i, p := range providerEntries(s.Config()) {
		ms := models[p.id]
		if len(ms) == 0 {
			others++
			continue
		}
		fmt.Fprintf(b, "    %s_server --> %s\n", id, node(fmt.Sprintf("p%d", i), p.name()+": "+list(ms)))
	}
	if others > 0 {
		fmt.Fprintf(b, "    %s_server --> %s\n", id, node("others", fmt.Sprintf("%d providers without models", others)))
	}
	backends, _ := nested(s.Config(), "storage", "backends").(map[string]any)
	for i, name := range slices.Sorted(maps.Keys(backends)) {
		fmt.Fprintf(b, "    %s_server --> %s\n", id, node(fmt.Sprintf("s%d", i), fmt.Sprintf("%s (%v)", name, nested(backends, name, "type"))))
	}
	b.WriteString("  end\n")
}

// mermaidText escapes what would end a label or a line.
func mermaidText(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "\n", " ").Replace(s)
}
