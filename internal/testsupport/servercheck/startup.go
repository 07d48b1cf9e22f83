// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// Pod is what the server process gets besides its config.yaml.
type Pod struct {
	// Getenv reads the container's environment (FixtureEnv for a rendered pod).
	Getenv func(string) string
	// Home is the server's home directory, what ~ expands to: "/" for an image user without
	// a passwd entry (every rendered pod).
	Home string
	// Writable are the directories mounted writable into the container (volume mounts).
	// Data written anywhere else is lost with the container, or cannot be written at all.
	Writable []string
	// Insecure is set when the server's command line passes --insecure: the entrypoint of the
	// OGX images from 1.2.1 on does (1.2.0's does not, nor does a command of one's own).
	Insecure bool
}

// Problem is a start-up rule of the server that a config breaks.
type Problem struct {
	// Rule is the rule's id in the start-up reference (R2, K6, H3, ...).
	Rule string
	// Path is where in the config the problem is.
	Path string
	// Message says what the server does: the error it stops with, or how it misbehaves.
	Message string
	// Network is set for problems that only a contact with another service decides (is the
	// model pulled in Ollama?). A renderer cannot decide them and warns instead.
	Network bool
	// Subject is what a network problem is about (a model name), which the warning names.
	Subject string
}

func (p Problem) String() string {
	s := fmt.Sprintf("%s %s: %s", p.Rule, p.Path, p.Message)
	if p.Network {
		s += " (depends on a service the server contacts)"
	}
	return s
}

// Startup applies the llama-stack server's start-up rules that a JSON schema cannot express
// (each named by an id, R2, E1, K2, ...; testdata/startup holds a config that breaks each) to a config as
// the server reads it: after ${env...} substitution with the pod's environment. It returns
// every problem, not only the first one the server would stop at. Validate the config with
// ValidateStrict as well: Startup assumes the shapes the schema checks.
func Startup(version string, cfg map[string]any, pod Pod) []Problem {
	home := pod.Home
	if home == "" {
		home = "/"
	}
	expanded, err := readAsServer(version, cfg, pod.Getenv, home)
	if err != nil {
		return []Problem{{Rule: "E1", Path: "", Message: err.Error()}}
	}
	s := &startup{version: version, cfg: expanded.(map[string]any), pod: pod}
	s.index()
	for _, rule := range []func(){
		s.checkImageName,
		s.checkProviderKeys,
		s.checkStores,
		s.checkPostgresTables,
		s.checkProviders,
		s.checkAPIList,
		s.checkRegistrations,
		s.checkVectorStoreDefaults,
		s.checkSafetyDefault,
		s.checkServer,
		s.checkPaths,
		s.checkOGX1,
	} {
		rule()
	}
	return s.problems
}

// startup is one evaluation of the rules.
type startup struct {
	version  string
	cfg      map[string]any
	pod      Pod
	problems []Problem

	// enabled are the enabled provider entries per API, by provider_id.
	enabled map[string]map[string]map[string]any
	// models are the registered models by identifier (provider_id/provider_model_id).
	models map[string]map[string]any
	// shields are the registered shield ids.
	shields map[string]bool
}

func (s *startup) fail(rule, path, format string, args ...any) {
	s.problems = append(s.problems, Problem{Rule: rule, Path: path, Message: fmt.Sprintf(format, args...)})
}

func (s *startup) network(rule, path, subject, format string, args ...any) {
	s.problems = append(s.problems, Problem{Rule: rule, Path: path, Message: fmt.Sprintf(format, args...), Network: true, Subject: subject})
}

// index records the enabled providers (P2: provider_id null, "" or __disabled__ is off).
func (s *startup) index() {
	s.enabled = map[string]map[string]map[string]any{}
	providers, _ := s.cfg["providers"].(map[string]any)
	for _, api := range slices.Sorted(maps.Keys(providers)) {
		for _, entry := range entries(providers[api]) {
			id, _ := entry["provider_id"].(string)
			if id == "" || id == "__disabled__" {
				continue
			}
			if s.enabled[api] == nil {
				s.enabled[api] = map[string]map[string]any{}
			}
			s.enabled[api][id] = entry // P4: a later entry with the same id replaces an earlier one
		}
	}
}

// providerType is the type of an enabled provider, "" when api has no such provider.
func (s *startup) providerType(api, id string) string {
	t, _ := s.enabled[api][id]["provider_type"].(string)
	return t
}

// checkImageName: V1 and E8.
func (s *startup) checkImageName() {
	distro, image := s.cfg["distro_name"], s.cfg["image_name"]
	if distro == nil && image == nil {
		s.fail("V1", "distro_name", "Either 'distro_name' or 'image_name' must be provided")
	}
	if _, ok := image.(string); image != nil && !ok {
		s.fail("E8", "image_name", "image_name Input should be a valid string (got %v)", image)
	}
}

// checkProviderKeys: P1, the keys under providers: are APIs the server has a registry for.
func (s *startup) checkProviderKeys() {
	providers, _ := s.cfg["providers"].(map[string]any)
	apis := serverAPIs[s.version]
	for _, api := range slices.Sorted(maps.Keys(providers)) {
		switch {
		case !apis.has(api):
			s.fail("P1", "providers."+api, "'%s' is not a valid Api", api)
		case routingTables[api] != "":
			s.fail("P1", "providers."+api, "Provider for `%s` is automatically provided and cannot be overridden", api)
		case internalAPIs[api] && len(s.enabled[api]) > 0:
			s.fail("P1", "providers."+api, "KeyError: the %s API is internal and takes no providers", api)
		}
	}
}

// available reports whether an API has an implementation other providers can depend on
// (P5): internal APIs always; routers and their routing tables when apis is empty or lists
// the router; everything else when an enabled provider exists.
func (s *startup) available(api string) bool {
	if internalAPIs[api] {
		return true
	}
	if router := routerOf(api); router != "" {
		return s.routerServed(router)
	}
	return len(s.enabled[api]) > 0
}

// routerServed reports whether the router of api is created: always when apis is empty,
// else when apis lists it.
func (s *startup) routerServed(router string) bool {
	listed := stringList(s.cfg["apis"])
	return len(listed) == 0 || slices.Contains(listed, router)
}

// checkAPIList: P6, every entry of an explicit apis list is an API with an implementation.
func (s *startup) checkAPIList() {
	for i, api := range stringList(s.cfg["apis"]) {
		path := fmt.Sprintf("apis[%d]", i)
		switch {
		case !serverAPIs[s.version].has(api):
			s.fail("P6", path, "'%s' is not a valid Api", api)
		case routerOf(api) != "" || internalAPIs[api]:
		case len(s.enabled[api]) == 0:
			s.fail("P6", path, "KeyError: <Api.%s: '%s'>: apis lists %s but no provider of it is enabled", api, api, api)
		}
	}
}

// checkProviders: P5 dependencies, P8 values providers cannot start with, S1 backend references.
func (s *startup) checkProviders() {
	for _, api := range slices.Sorted(maps.Keys(s.enabled)) {
		for _, id := range slices.Sorted(maps.Keys(s.enabled[api])) {
			entry := s.enabled[api][id]
			path := fmt.Sprintf("providers.%s[%s]", api, id)
			t, _ := entry["provider_type"].(string)
			config, _ := entry["config"].(map[string]any)
			for _, dep := range dependencies[s.version][api+" "+t] {
				if !s.available(dep) {
					s.fail("P5", path, "Failed to resolve '%s' provider '%s' of type '%s': required dependency '%s' is not available",
						api, id, t, dep)
				}
			}
			s.checkProviderConfig(path, t, config)
			walkRefs(config, path+".config", func(where string, ref map[string]any) {
				s.checkBackendRef("S1", where, ref)
			})
		}
	}
}

// checkProviderConfig: P8.
func (s *startup) checkProviderConfig(path, providerType string, config map[string]any) {
	switch providerType {
	case "remote::vllm":
		if url, _ := config["base_url"].(string); url == "" {
			s.fail("P8", path+".config.base_url", "You must provide a URL in config.yaml (or via the VLLM_URL environment variable) to use vLLM.")
		}
	case "remote::pgvector", "remote::elasticsearch":
		if config["persistence"] == nil {
			s.fail("P8", path+".config.persistence", "AttributeError: 'NoneType' object has no attribute 'backend' (%s needs persistence)", providerType)
		}
	case "remote::chromadb":
		if url, _ := config["url"].(string); urlHasPath(url) {
			s.fail("P8", path+".config.url", "URL should not contain a path")
		}
	case "remote::ollama":
		// N2: registering a model contacts Ollama (checked with the registrations).
	}
}

// urlHasPath reports whether a URL has a path beyond "/".
func urlHasPath(url string) bool {
	_, rest, ok := strings.Cut(url, "://")
	if !ok {
		rest = url
	}
	_, p, ok := strings.Cut(rest, "/")
	return ok && strings.Trim(p, "/") != ""
}

// backendKind is the family ("kv" or "sql") of a storage backend, "" when it does not exist.
func (s *startup) backendKind(name string) string {
	backend, _ := s.backends()[name].(map[string]any)
	t, _ := backend["type"].(string)
	kind, _, _ := strings.Cut(t, "_")
	return kind
}

// backends are storage.backends, or the defaults when the config has none (S9).
func (s *startup) backends() map[string]any {
	storage, _ := s.cfg["storage"].(map[string]any)
	if b, ok := storage["backends"].(map[string]any); ok {
		return b
	}
	base := s.pod.Getenv("SQLITE_STORE_DIR")
	if base == "" {
		base = "~/.llama/distributions"
		if atLeast(s.version, "0.8") {
			base = "~/.ogx/distributions" // $OGX_CONFIG_DIR/distributions
		}
	}
	base = s.expandUser(base)
	return map[string]any{
		"kv_default":  map[string]any{"type": "kv_sqlite", "db_path": base + "/kvstore.db"},
		"sql_default": map[string]any{"type": "sql_sqlite", "db_path": base + "/sql_store.db"},
	}
}

// checkBackendRef checks one {backend: ...} reference: KV references carry a namespace, SQL
// references a table_name.
func (s *startup) checkBackendRef(rule, where string, ref map[string]any) {
	name, _ := ref["backend"].(string)
	want := "kv"
	if _, ok := ref["table_name"]; ok {
		want = "sql"
	}
	s.checkBackendKind(rule, where, name, want)
}

func (s *startup) checkBackendKind(rule, where, name, want string) {
	got := s.backendKind(name)
	switch {
	case got == "" && want == "kv":
		s.fail(rule, where, "Unknown KVStore backend '%s'. Registered backends: %s", name, s.backendNames("kv"))
	case got == "":
		s.fail(rule, where, "Unknown SQL store backend '%s'. Registered backends: %s", name, s.backendNames("sql"))
	case got != want:
		s.fail(rule, where, "references backend '%s' of type '%s_*', but a backend of type %s_* is required", name, got, want)
	}
}

func (s *startup) backendNames(kind string) []string {
	var names []string
	for _, name := range slices.Sorted(maps.Keys(s.backends())) {
		if s.backendKind(name) == kind {
			names = append(names, name)
		}
	}
	return names
}

// storeKind is a store the server core uses and the backend family it needs (V2), with
// the server's defaults when a store is not written (ServerStoresConfig).
type storeKind struct {
	name, kind string
	required   bool // null fails at start-up (S6)
}

// storeKinds are the stores of a version: OGX 1.0 moved prompts and connectors to SQL and
// added the optional vector_stores store (datatypes.py ServerStoresConfig at v1.0.0).
func storeKinds(version string) []storeKind {
	if ogx1(version) {
		return []storeKind{{"metadata", "kv", true}, {"prompts", "sql", true}, {"connectors", "sql", true},
			{"inference", "sql", false}, {"conversations", "sql", true}, {"responses", "sql", false}, {"vector_stores", "sql", false}}
	}
	return []storeKind{{"metadata", "kv", true}, {"prompts", "kv", true}, {"connectors", "kv", true},
		{"inference", "sql", false}, {"conversations", "sql", true}, {"responses", "sql", false}}
}

// checkStores: V2 and S6 (1.x: S1, S3).
func (s *startup) checkStores() {
	storage, _ := s.cfg["storage"].(map[string]any)
	stores, _ := storage["stores"].(map[string]any)
	for _, store := range storeKinds(s.version) {
		path := "storage.stores." + store.name
		ref, written := stores[store.name]
		if !written {
			if store.name == "responses" || store.name == "vector_stores" {
				continue // default null, never used
			}
			ref = map[string]any{"backend": store.kind + "_default"} // the server's default reference
		}
		m, _ := ref.(map[string]any)
		if m == nil {
			switch {
			case store.required && ogx1(s.version) && store.name != "metadata":
				s.fail("S6", path, "Service '%s' is not enabled. Please check your configuration and enable the service before trying again.", path)
			case store.required || (store.name == "inference" && s.routerServed("inference")):
				s.fail("S6", path, "%s must be configured with a %s_* backend", path, store.kind)
			}
			continue
		}
		name, _ := m["backend"].(string)
		s.checkBackendKind("V2", path, name, store.kind)
	}
}

// checkPostgresTables: the kv_postgres table_name pattern, whose validator never runs (a
// classmethod decorator above field_validator in the server's storage datatypes), so
// a bad name fails as "Could not connect" (S4).
func (s *startup) checkPostgresTables() {
	backends := s.backends()
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		b, _ := backends[name].(map[string]any)
		if b["type"] != "kv_postgres" {
			continue
		}
		table, ok := b["table_name"].(string)
		if ok && (!sqlIdentifier.MatchString(table) || len(table) > 63) {
			s.fail("S4", "storage.backends."+name+".table_name",
				"RuntimeError: Could not connect to PostgreSQL database server (table name %q is not a SQL identifier)", table)
		}
	}
}

// entries returns the mappings of a list.
func entries(v any) []map[string]any {
	items, _ := v.([]any)
	out := make([]map[string]any, 0, len(items))
	for _, item := range items {
		if m, ok := item.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// stringList returns the strings of a list.
func stringList(v any) []string {
	items, _ := v.([]any)
	out := make([]string, 0, len(items))
	for _, item := range items {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// walkRefs calls fn for every {backend: ...} mapping inside a provider config.
func walkRefs(m map[string]any, where string, fn func(string, map[string]any)) {
	keys := slices.Collect(maps.Keys(m))
	sort.Strings(keys)
	for _, key := range keys {
		child, ok := m[key].(map[string]any)
		if !ok {
			continue
		}
		if _, ok := child["backend"]; ok {
			fn(where+"."+key, child)
			continue
		}
		walkRefs(child, where+"."+key, fn)
	}
}
