// SPDX-License-Identifier: Apache-2.0

package review

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api"
)

// serverVersion: the server version the stack runs moved, which an unpinned distribution does
// whenever llsd's catalog does: forward, the steps of the upgrade guide to read; back, a
// server reading stores a newer one wrote.
func serverVersion(before, after *Stack) []Finding {
	b, a := profile.Version(before.receipt(api.AnnotationServerVersion)), profile.Version(after.receipt(api.AnnotationServerVersion))
	if b == a {
		return nil
	}
	if a.Compare(b) < 0 {
		return []Finding{{Level: DataAtRisk, Field: "spec.distribution", Message: fmt.Sprintf("the server moves back from %s to %s "+
			"(%s): it reads stores and files %s wrote, which no release promises an older server can; back them up first", b, a,
			after.receipt(api.AnnotationImage), b)}}
	}
	return append([]Finding{{Level: Breaking, Field: "spec.distribution", Message: fmt.Sprintf("the server moves from %s to %s (%s): read "+
		"llsd's upgrade guide, %s; to stay, name the image of %s in distribution.image", b, a, after.receipt(api.AnnotationImage),
		list(UpgradeSteps(b, a)), b)}}, upgradeFindings(b, a, before, after)...)
}

// UpgradeSteps are the upgrade guide's steps between two server versions ("1.1 to 1.2"),
// one per supported version between.
func UpgradeSteps(from, to profile.Version) []string {
	var steps []string
	last := from
	for _, v := range profile.Supported() {
		if v.Compare(from) > 0 && v.Compare(to) <= 0 {
			steps = append(steps, string(last)+" to "+string(v))
			last = v
		}
	}
	if len(steps) == 0 {
		return []string{string(from) + " to " + string(to)}
	}
	return steps
}

// restart: the pods are replaced, and why: the config (its hash on the pod), the image, or the
// rest of the pod.
func restart(before, after *Stack) []Finding {
	b, _ := nested(before.object("Deployment"), "spec", "template").(map[string]any)
	a, _ := nested(after.object("Deployment"), "spec", "template").(map[string]any)
	if b == nil || a == nil || !changed(before, b, a) {
		return nil
	}
	var why []string
	if !same(nested(b, "metadata", "annotations", api.AnnotationConfigHash), nested(a, "metadata", "annotations", api.AnnotationConfigHash)) {
		why = append(why, "config.yaml changed")
	}
	if !same(images(b), images(a)) {
		why = append(why, "the image changed")
	}
	if len(why) == 0 {
		why = append(why, "the pod's settings changed")
	}
	return []Finding{{Level: Restart, Message: "the pods restart: " + list(why)}}
}

// images are the images of a pod template's containers.
func images(template map[string]any) []any {
	var out []any
	for _, key := range []string{"initContainers", "containers"} {
		containers, _ := nested(template, "spec", key).([]any)
		for _, c := range containers {
			if m, ok := c.(map[string]any); ok {
				out = append(out, m["image"])
			}
		}
	}
	return out
}

// authentication: who may call the server, as config.yaml says it.
func authentication(before, after *Stack) []Finding {
	b, a := nested(before.Config(), "server", "auth", "provider_config", "type"), nested(after.Config(), "server", "auth", "provider_config", "type")
	switch {
	case b != nil && a == nil:
		return []Finding{{Level: Security, Field: "spec.authentication", Message: fmt.Sprintf("authentication is off (it was %s): "+
			"the server answers every caller that reaches it", b)}}
	case b == nil && a != nil:
		return []Finding{{Level: Info, Field: "spec.authentication", Message: fmt.Sprintf("callers authenticate (%s): a client without "+
			"a credential gets 401", a)}}
	case !same(b, a):
		return []Finding{{Level: Security, Field: "spec.authentication", Message: fmt.Sprintf("callers authenticate with %s instead of %s", a, b)}}
	}
	if !same(nested(before.Config(), "server", "auth", "access_policy"), nested(after.Config(), "server", "auth", "access_policy")) ||
		!same(nested(before.Config(), "server", "auth", "route_policy"), nested(after.Config(), "server", "auth", "route_policy")) {
		return []Finding{{Level: Security, Field: "spec.authentication.accessPolicy", Message: "the access rules change: review who may now read, " +
			"change or delete what"}}
	}
	return nil
}

// exposure: whether callers outside the cluster reach the server.
func exposure(before, after *Stack) []Finding {
	var findings []Finding
	for _, kind := range []string{"Ingress", "Route"} {
		b, a := before.object(kind), after.object(kind)
		switch {
		case b == nil && a != nil:
			findings = append(findings, Finding{Level: Security, Field: "spec.networking.expose", Message: fmt.Sprintf("the server is "+
				"exposed outside the cluster (%s %s): callers from anywhere the %s admits reach it", kind, hosts(a), kind)})
		case b != nil && a == nil:
			findings = append(findings, Finding{Level: Breaking, Field: "spec.networking.expose", Message: fmt.Sprintf("the server is no "+
				"longer exposed (%s %s is removed): callers outside the cluster lose it", kind, hosts(b))})
		case b != nil && !same(hosts(b), hosts(a)):
			findings = append(findings, Finding{Level: Breaking, Field: "spec.networking.expose.hostname", Message: fmt.Sprintf("the "+
				"server moves from %s to %s: callers of the old address lose it", hosts(b), hosts(a))})
		}
	}
	return findings
}

// hosts are the hosts an Ingress or a Route serves.
func hosts(o Object) string {
	if host, ok := nested(o, "spec", "host").(string); ok {
		return host
	}
	var out []string
	rules, _ := nested(o, "spec", "rules").([]any)
	for _, r := range rules {
		if host, ok := nested(r.(map[string]any), "host").(string); ok {
			out = append(out, host)
		}
	}
	return list(out)
}

// networkPolicy: who may connect and where the server may go.
func networkPolicy(before, after *Stack) []Finding {
	b, a := before.object("NetworkPolicy"), after.object("NetworkPolicy")
	switch {
	case b != nil && a == nil:
		return []Finding{{Level: Security, Field: "spec.networking.allowedFrom", Message: "the NetworkPolicy is removed: every pod " +
			"of the cluster may call the server, and it may connect anywhere"}}
	case b == nil || a == nil:
		return nil
	}
	var findings []Finding
	if changed(before, nested(b, "spec", "ingress"), nested(a, "spec", "ingress")) {
		findings = append(findings, Finding{Level: Security, Field: "spec.networking.allowedFrom", Message: "who may call the server " +
			"changes: review the NetworkPolicy's new peers"})
	}
	bEgress, aEgress := nested(b, "spec", "egress"), nested(a, "spec", "egress")
	switch {
	case bEgress != nil && aEgress == nil:
		findings = append(findings, Finding{Level: Security, Field: "spec.networking.egress", Message: "egress is no longer restricted: " +
			"the server may connect anywhere"})
	case changed(before, bEgress, aEgress):
		findings = append(findings, Finding{Level: Security, Field: "spec.networking.egress", Message: "where the server may connect " +
			"changes: review the NetworkPolicy's new destinations"})
	}
	return findings
}

// storage: where the server keeps its state; a backend of another kind starts empty.
func storage(before, after *Stack) []Finding {
	b, _ := nested(before.Config(), "storage", "backends").(map[string]any)
	a, _ := nested(after.Config(), "storage", "backends").(map[string]any)
	var findings []Finding
	for _, name := range slices.Sorted(maps.Keys(b)) {
		was, now := nested(b, name, "type"), nested(a, name, "type")
		switch {
		case now == nil:
			findings = append(findings, Finding{Level: DataAtRisk, Field: "spec.storage", Message: fmt.Sprintf("the storage backend %s "+
				"(%s) is removed: what the server kept there is left behind", name, was)})
		case !same(was, now):
			findings = append(findings, Finding{Level: DataAtRisk, Field: "spec.storage", Message: fmt.Sprintf("the storage backend %s "+
				"moves from %s to %s, which starts empty: copy the data first, or the server forgets its models, files and conversations", name, was, now)})
		case !same(b[name], a[name]):
			findings = append(findings, Finding{Level: DataAtRisk, Field: "spec.storage", Message: fmt.Sprintf("the storage backend %s "+
				"points elsewhere (its settings change): the server finds there only what is already there", name)})
		}
	}
	return findings
}

// stores: a store or a vector store that moves to another backend, or a vector store provider
// of another type under the same id, starts empty there.
func stores(before, after *Stack) []Finding {
	var findings []Finding
	b, _ := nested(before.Config(), "storage", "stores").(map[string]any)
	a, _ := nested(after.Config(), "storage", "stores").(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(b)) {
		was, now := nested(b, name, "backend"), nested(a, name, "backend")
		if was != nil && now != nil && !same(was, now) {
			findings = append(findings, Finding{Level: DataAtRisk, Field: "spec.storage", Message: fmt.Sprintf("the %s store moves "+
				"from the backend %s to %s: what the server kept there is not carried over", name, was, now)})
		}
	}
	bVector, aVector := vectorProviders(before.Config()), vectorProviders(after.Config())
	for _, id := range slices.Sorted(maps.Keys(bVector)) {
		was, now := bVector[id], aVector[id]
		if now == nil {
			continue // removed: providers says so
		}
		switch {
		case !same(was["provider_type"], now["provider_type"]):
			findings = append(findings, Finding{Level: DataAtRisk, Field: "spec.providers.vectorIo", Message: fmt.Sprintf("the vector "+
				"store provider %s moves from %s to %s, which starts empty: the vector stores stay in the old one; ingest their "+
				"files again", id, was["provider_type"], now["provider_type"])})
		case !same(nested(was, "config", "persistence"), nested(now, "config", "persistence")):
			findings = append(findings, Finding{Level: DataAtRisk, Field: "spec.storage", Message: fmt.Sprintf("the vector "+
				"store provider %s keeps its registry elsewhere: the vector stores it knew are left behind", id)})
		}
	}
	return findings
}

// vectorProviders are a config's vector_io providers by provider_id.
func vectorProviders(config map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, p := range providerEntries(config) {
		if p.api == "vector_io" {
			out[p.id] = p.entry
		}
	}
	return out
}

// volume: the PVC the server keeps files on.
func volume(before, after *Stack) []Finding {
	b, a := before.object("PersistentVolumeClaim"), after.object("PersistentVolumeClaim")
	switch {
	case b == nil:
		return nil
	case a == nil:
		return []Finding{{Level: DataAtRisk, Field: "spec.workload.storage", Message: fmt.Sprintf("the PVC %s is removed: the "+
			"files on it are lost where the GitOps tool prunes", nested(b, "metadata", "name"))}}
	case nested(b, "metadata", "name") != nested(a, "metadata", "name"):
		return []Finding{{Level: DataAtRisk, Field: "metadata.name", Message: fmt.Sprintf("the PVC %s is replaced by an empty %s", nested(b, "metadata", "name"), nested(a, "metadata", "name"))}}
	}
	var findings []Finding
	bSize, aSize := quantity(nested(b, "spec", "resources", "requests", "storage")), quantity(nested(a, "spec", "resources", "requests", "storage"))
	if aSize.Cmp(bSize) < 0 {
		findings = append(findings, Finding{Level: Breaking, Field: "spec.workload.storage.size", Message: fmt.Sprintf("the PVC shrinks "+
			"from %s to %s, which the API server refuses: the change cannot be applied", bSize.String(), aSize.String())})
	}
	if changed(before, nested(b, "spec", "storageClassName"), nested(a, "spec", "storageClassName")) {
		findings = append(findings, Finding{Level: Breaking, Field: "spec.workload.storage.storageClassName", Message: "the PVC's " +
			"storage class changes, which the API server refuses on a bound claim: the change cannot be applied without a new PVC"})
	}
	return findings
}

// models: the models callers may name.
func models(before, after *Stack) []Finding {
	return addedRemoved("spec.resources.models", "models", "their callers get 404", ids(before.Config()), ids(after.Config()), nil)
}

// providers: the providers the server loads, and where they connect: a provider added names
// its host; one that connects elsewhere sends its requests, and its credential, there.
func providers(before, after *Stack) []Finding {
	bAddr, aAddr := providerAddresses(before.Config()), providerAddresses(after.Config())
	withHost := func(id string) string {
		if addr := aAddr[id]; addr != "" {
			return id + " (" + addr + ")"
		}
		return id
	}
	findings := addedRemoved("spec.providers", "providers", "what they served is gone", providerIDs(before.Config()), providerIDs(after.Config()), withHost)
	for _, id := range slices.Sorted(maps.Keys(bAddr)) {
		if now, ok := aAddr[id]; ok && now != bAddr[id] {
			findings = append(findings, Finding{Level: Security, Field: "spec.providers", Message: fmt.Sprintf("%s connects to %s "+
				"instead of %s: its requests, and its credential, go there", id, now, bAddr[id])})
		}
	}
	return findings
}

// providerAddresses are the hosts the providers of a config connect to, by api/provider_id:
// the host of the endpoint written in the config (an address the server resolves from a
// variable is not known here, and left out).
func providerAddresses(cfg map[string]any) map[string]string {
	out := map[string]string{}
	for _, p := range providerEntries(cfg) {
		providerType, _ := p.entry["provider_type"].(string)
		key := config.EndpointKey(p.api, providerType)
		value, _ := nested(p.entry, "config", key).(string)
		if key == "" || value == "" || strings.Contains(value, "${") {
			continue
		}
		if u, err := url.Parse(value); err == nil && u.Host != "" {
			value = u.Host
		} else if at := strings.LastIndex(value, "@"); at >= 0 {
			value = value[at+1:] // never user information, even of an address that is no URL
		}
		out[p.name()] = value
	}
	return out
}

// addedRemoved says which of what were removed (breaking: why) and added, each added one as
// label says it (nil: its name).
func addedRemoved(field, what, why string, before, after []string, label func(string) string) []Finding {
	var findings []Finding
	if gone := missing(before, after); len(gone) > 0 {
		findings = append(findings, Finding{Level: Breaking, Field: field, Message: what + " are removed: " + list(gone) + "; " + why})
	}
	if added := missing(after, before); len(added) > 0 {
		if label != nil {
			for i, name := range added {
				added[i] = label(name)
			}
		}
		findings = append(findings, Finding{Level: Info, Field: field, Message: what + " are added: " + list(added)})
	}
	return findings
}

// registeredModels are the models a config registers (registered_resources.models, or models
// before OGX 0.8), those written as objects.
func registeredModels(config map[string]any) []map[string]any {
	entries, _ := nested(config, "registered_resources", "models").([]any)
	if entries == nil {
		entries, _ = config["models"].([]any)
	}
	var out []map[string]any
	for _, e := range entries {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// ids are the model_id of a config's registered models.
func ids(config map[string]any) []string {
	var out []string
	for _, m := range registeredModels(config) {
		if id, ok := m["model_id"].(string); ok {
			out = append(out, id)
		}
	}
	return out
}

// providerEntry is a provider of a config: its API, its provider_id, and its entry.
type providerEntry struct {
	api, id string
	entry   map[string]any
}

// name is api/provider_id, as a review names a provider.
func (p providerEntry) name() string { return p.api + "/" + p.id }

// providerEntries are the providers of a config with a provider_id, by API in order (an entry
// that is not an object, in a config llsd did not write, is passed over).
func providerEntries(config map[string]any) []providerEntry {
	apis, _ := config["providers"].(map[string]any)
	var out []providerEntry
	for _, api := range slices.Sorted(maps.Keys(apis)) {
		list, _ := apis[api].([]any)
		for _, p := range list {
			m, _ := p.(map[string]any)
			if id, ok := m["provider_id"].(string); ok {
				out = append(out, providerEntry{api: api, id: id, entry: m})
			}
		}
	}
	return out
}

// providerIDs are api/provider_id of every provider of a config.
func providerIDs(config map[string]any) []string {
	entries := providerEntries(config)
	out := make([]string, 0, len(entries))
	for _, p := range entries {
		out = append(out, p.name())
	}
	return out
}

// missing are the names of from that to does not have.
func missing(from, to []string) []string {
	var out []string
	for _, n := range from {
		if !slices.Contains(to, n) {
			out = append(out, n)
		}
	}
	return out
}
