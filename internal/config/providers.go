// SPDX-License-Identifier: Apache-2.0

package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/internal/suggest"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// applyProviders overlays spec.providers on the base by provider id: an entry with the
// same id (also "${env.X:+id}") is replaced in place, new ids are appended, the rest of the
// base stays. An API the server does not route (files, batches, responses, file_processors:
// it serves them with one provider, the last it starts) gets the spec's list instead of the
// base's, so no base provider serves in place of the spec's.
func (g *generator) applyProviders() {
	for _, list := range g.spec.Providers.APIs() {
		api := list.Name.ServerName()
		if list.Name == v1alpha2.APITelemetry || len(list.Providers) == 0 || !g.prof.HasAPI(api) { // telemetry is OTEL env; rejectUnsupported says why
			continue
		}
		path := field.NewPath("spec", "providers", string(list.Name))
		for i, p := range list.Providers {
			entry, ok := g.providerEntry(api, p, path.Index(i))
			if !ok {
				// keep the id, so that resources naming it do not report a second error
				g.crIDs[api] = append(g.crIDs[api], p.EffectiveID())
				continue
			}
			if _, done := g.replaced[api]; !done && !routed(api) {
				g.replaceProviders(api)
			}
			if replaced := g.overlay(api, entry); replaced != nil && replaced["provider_type"] != entry["provider_type"] {
				g.warn(path.Index(i).Child("id"), "replaces the distribution's %s provider %s (%v) with %v",
					api, entry["provider_id"], replaced["provider_type"], entry["provider_type"])
			}
			g.crIDs[api] = append(g.crIDs[api], p.EffectiveID())
		}
		addAPI(g.cfg, api)
	}
}

// replaceProviders takes the base's providers of an unrouted API out of the config, keeping
// them for baseConfigOf.
func (g *generator) replaceProviders(api string) {
	if g.replaced == nil {
		g.replaced = map[string][]map[string]any{}
	}
	g.replaced[api] = providerList(g.cfg, api)
	setProviderList(g.cfg, api, nil)
}

// overlay puts entry into the API's providers and returns the base entry it replaced.
func (g *generator) overlay(api string, entry map[string]any) map[string]any {
	entries := providerList(g.cfg, api)
	for i, e := range entries {
		if entryID(e["provider_id"]) == entry["provider_id"] {
			entries[i] = entry
			setProviderList(g.cfg, api, entries)
			return e
		}
	}
	setProviderList(g.cfg, api, append(entries, entry))
	return nil
}

// providerEntry builds the config entry of one spec provider.
func (g *generator) providerEntry(api string, p v1alpha2.ProviderSpec, path *field.Path) (map[string]any, bool) {
	providerType, ok := g.resolveType(api, p.Provider, p.Endpoint != "", path.Child("provider"))
	if !ok {
		return nil, false
	}
	id := p.EffectiveID()
	fm := fieldMapFor(g.prof, api, providerType)
	config := g.providerDefaults(api, id, providerType, fm)
	before := len(g.errs)

	settings := g.settings(p, path.Child("settings"))
	g.checkReferencesInSettings(settings, path.Child("settings"))
	g.checkConfigKeys(api, providerType, fm, settings, p.SecretRefs, path)
	deepMerge(config, settings)
	if p.Endpoint != "" {
		g.applyEndpoint(config, settings, api, providerType, fm, p.Endpoint, path.Child("endpoint"))
	}
	if p.APIKey != nil {
		g.applyCredential(config, settings, id, providerType, fm, p, path.Child("apiKey"))
	}
	if p.ClientCertificate != nil {
		g.applyClientCertificate(config, api, id, providerType, path.Child("clientCertificate"))
	}
	for _, key := range slices.Sorted(maps.Keys(p.SecretRefs)) {
		keyPath := path.Child("secretRefs").Key(key)
		if p.APIKey != nil && key == fm.Credential {
			g.errs = append(g.errs, field.Duplicate(keyPath, key+" is also set by apiKey: keep one of them"))
			continue
		}
		g.secretConfigKey(config, settings, key, EnvName(id, key), p.SecretRefs[key].SecretKeyRef, keyPath)
	}
	endpointOrKeyFailed := len(g.errs) > before // its error already says what is missing
	for _, r := range fm.Required {
		if endpointOrKeyFailed {
			break
		}
		if v, ok := config[r.Key]; !ok || v == nil || v == "" {
			g.errs = append(g.errs, field.Required(path, fmt.Sprintf("%s needs %s: %s", providerType, r.Key, r.Fix)))
		}
	}
	// An entry with errors is still made: the resources naming the provider find it, and do
	// not report it missing besides its own errors, which fail the generation.
	entry := map[string]any{"provider_id": id, "provider_type": providerType}
	if len(config) > 0 {
		entry["config"] = config
	}
	return entry, true
}

// checkConfigKeys fails on settings and secretRefs keys the provider's config does not have
// in this server version (the server would silently ignore them: url for vLLM's base_url),
// and on credentials written in settings, which would land in a ConfigMap in clear.
func (g *generator) checkConfigKeys(api, providerType string, fm fieldMap, settings map[string]any,
	secretRefs map[string]v1alpha2.SecretKeySource, path *field.Path) {
	fields, ok := g.prof.Fields(api, providerType)
	if !ok {
		return
	}
	names := profile.FieldNames(fields)
	unknown := func(p *field.Path, key string) {
		g.errs = append(g.errs, field.Invalid(p, key, fmt.Sprintf("%s has no config key %s in %s%s: its keys are %s",
			providerType, key, g.prof, suggest.DidYouMean(key, names), strings.Join(names, ", "))))
	}
	for _, key := range slices.Sorted(maps.Keys(settings)) {
		i := slices.Index(names, key)
		switch {
		case i < 0:
			unknown(path.Child("settings").Key(key), key)
		case fields[i].Secret || key == fm.Credential || credentialKey().MatchString(key):
			g.errs = append(g.errs, field.Forbidden(path.Child("settings").Key(key), fmt.Sprintf(
				"%s is a credential, and settings are written into a ConfigMap in clear: put it in secretRefs.%s "+
					"(or apiKey) to read it from a Secret", key, key)))
		default:
			g.checkValue(providerType, fields[i], settings, key, path.Child("settings").Key(key))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(secretRefs)) {
		if !slices.Contains(names, key) {
			unknown(path.Child("secretRefs").Key(key), key)
		}
	}
}

// credentialKey matches config keys that hold credentials whatever their type in the server.
var credentialKey = lazyre.New(`(^|_)(password|passwd|secret|token|api_key|apikey|access_key|private_key|credential|credentials)($|_)`)

// resolveType maps a spec provider name to a provider_type the target image ships.
func (g *generator) resolveType(api, name string, hasEndpoint bool, path *field.Path) (string, bool) {
	known := map[string]bool{}
	for _, t := range g.prof.ProviderTypes(api) {
		known[t] = true
	}
	for _, t := range g.candidateTypes(api, name, hasEndpoint) {
		if !known[t] {
			continue
		}
		if !g.shipped[api][t] {
			g.errs = append(g.errs, field.Invalid(path, name, fmt.Sprintf(
				"%s is not installed in the %s image (%s installs only the providers of its distribution's "+
					"config): use one of %s, or run an image that ships %s (⟦spec.distribution.image⟧, with its config in "+
					"the image's labels or ⟦spec.distribution.baseConfig⟧)",
				t, g.imageName(), g.prof, strings.Join(g.shippedNames(api), ", "), t)))
			return "", false
		}
		return t, true
	}
	g.errs = append(g.errs, field.Invalid(path, name, fmt.Sprintf(
		"%s has no %s provider %q%s: use one of %s (or an explicit remote::NAME / inline::NAME)",
		g.prof, api, name, suggest.DidYouMean(name, g.shippedNames(api)), strings.Join(g.shippedNames(api), ", "))))
	return "", false
}

// candidateTypes lists the provider types a name may mean, best first. A plain name that
// exists as remote:: and inline:: (milvus, qdrant, chromadb) means the remote provider when
// an endpoint is given, else the one the image ships.
func (g *generator) candidateTypes(api, name string, hasEndpoint bool) []string {
	all := typesNamed(name)
	if hasEndpoint || len(all) == 1 {
		return all
	}
	var shippedFirst []string
	for _, t := range all {
		if g.shipped[api][t] {
			shippedFirst = append(shippedFirst, t)
		}
	}
	return append(shippedFirst, all...)
}

// typesNamed are the provider types a name may mean: itself when it is one (remote::NAME,
// inline::NAME), else the remote and the inline provider of that name, "_" read as "-" too.
func typesNamed(name string) []string {
	if strings.HasPrefix(name, "remote::") || strings.HasPrefix(name, "inline::") {
		return []string{name}
	}
	var remote, inline []string
	for _, n := range []string{name, strings.ReplaceAll(name, "_", "-")} {
		remote = append(remote, "remote::"+n)
		inline = append(inline, "inline::"+n)
	}
	return slices.Concat(remote, inline)
}

func (g *generator) imageName() string {
	if g.dist.Name != "" {
		return g.dist.Name
	}
	return g.dist.Image
}

// shippedNames lists the names a spec may use for the API's providers in this image:
// the short name, or the full type of an inline provider that has a remote namesake.
func (g *generator) shippedNames(api string) []string {
	known := g.prof.ProviderTypes(api)
	var names []string
	for _, t := range known {
		if !g.shipped[api][t] {
			continue
		}
		short := strings.SplitN(t, "::", 2)[1]
		if strings.HasPrefix(t, "inline::") && slices.Contains(known, "remote::"+short) {
			names = append(names, t)
			continue
		}
		names = append(names, short)
	}
	return names
}

// providerDefaults are the config keys llsd fills for a provider the spec adds: where it
// keeps its state (each store reference it needs, on spec.storage's backends; a persistence
// block of several references from the base's provider of the same type) and its local
// database file or directory.
func (g *generator) providerDefaults(api, id, providerType string, fm fieldMap) map[string]any {
	config := map[string]any{}
	if fm.Persistence {
		config["persistence"] = map[string]any{"backend": g.backendName("kv_"), "namespace": api + "::" + id}
	}
	if fm.DBPath != "" {
		config[fm.DBPath] = g.sqliteDir() + "/" + id + ".db"
	}
	base := g.baseConfigOf(api, providerType)
	if fm.DirPath != "" {
		dir, ok := base[fm.DirPath] // the base's provider of this type keeps its files where they were
		if !ok {
			dir = g.sqliteDir() + "/" + api + "/" + id
		}
		config[fm.DirPath] = dir
	}
	fields, _ := g.prof.Fields(api, providerType)
	for _, f := range fields {
		if _, set := config[f.Name]; set || !f.Required || f.Store == "" {
			continue
		}
		// The base's provider of this type keeps its data where it was.
		if v, ok := base[f.Name]; ok {
			config[f.Name] = v
			continue
		}
		switch f.Store {
		case "kv":
			config[f.Name] = map[string]any{"backend": g.backendName("kv_"), "namespace": api + "::" + id}
		case "sql":
			config[f.Name] = map[string]any{"backend": g.backendName("sql_"), "table_name": sqlName(api + "_" + id)}
		}
	}
	return config
}

// applyClientCertificate points the provider's network.tls at the client certificate and key
// the pod mounts (ClientTLSDir/<id>), for mutual TLS; the server loads them at start.
func (g *generator) applyClientCertificate(config map[string]any, api, id, providerType string, path *field.Path) {
	fields, _ := g.prof.Fields(api, providerType)
	if !slices.Contains(profile.FieldNames(fields), "network") {
		g.errs = append(g.errs, field.Invalid(path, "object", fmt.Sprintf(
			"%s has no network settings in %s, where a client certificate goes: mutual TLS needs a provider with them "+
				"(the remote inference providers)", providerType, g.prof)))
		return
	}
	network := ensureMap(config, "network")
	tls := ensureMap(network, "tls")
	dir := ClientTLSDir + "/" + id
	tls["client_cert"], tls["client_key"] = dir+"/"+v1alpha2.TLSCertificateKey, dir+"/"+v1alpha2.TLSPrivateKeyKey
}

// baseConfigOf is the config of the base's provider of a type, before the spec replaced it.
func (g *generator) baseConfigOf(api, providerType string) map[string]any {
	for _, e := range slices.Concat(g.replaced[api], providerList(g.cfg, api)) {
		if e["provider_type"] == providerType {
			config, _ := e["config"].(map[string]any)
			return config
		}
	}
	return nil
}

// sqlName makes a table name of s: letters, digits and underscores.
func sqlName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// routed reports whether the server routes an API by provider (models, vector stores, tool
// groups, ... name their provider); it serves each other API with one provider.
func routed(api string) bool {
	return slices.Contains(slices.Collect(maps.Values(routingTables)), api)
}

// settings decodes spec settings, keeping whole numbers integers (8192, not 8192.0).
func (g *generator) settings(p v1alpha2.ProviderSpec, path *field.Path) map[string]any {
	if p.Settings == nil || len(p.Settings.Raw) == 0 {
		return map[string]any{}
	}
	dec := json.NewDecoder(bytes.NewReader(p.Settings.Raw))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		g.errs = append(g.errs, field.Invalid(path, field.OmitValueType{}, "settings must be a mapping of provider config keys"))
		return map[string]any{}
	}
	m, ok := fromJSON(raw).(map[string]any)
	if !ok {
		g.errs = append(g.errs, field.Invalid(path, field.OmitValueType{}, "settings must be a mapping of provider config keys"))
		return map[string]any{}
	}
	return m
}

// fromJSON turns json.Number into int64 or float64.
func fromJSON(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = fromJSON(x)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = fromJSON(x)
		}
		return t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

func (g *generator) applyEndpoint(config, settings map[string]any, api, providerType string, fm fieldMap, endpoint string, path *field.Path) {
	if redact.HasCredentials(endpoint) {
		g.errs = append(g.errs, field.Invalid(path, redact.URL(endpoint), "an endpoint must not hold credentials "+
			"(it is stored in a ConfigMap in clear): put them in apiKey or secretRefs"))
		return
	}
	if fm.PostgresEndpoint {
		host, port, db, err := parsePostgresEndpoint(endpoint)
		if err != nil {
			g.errs = append(g.errs, field.Invalid(path, endpoint, err.Error()))
			return
		}
		config["host"], config["port"] = host, port
		if db != "" {
			config["db"] = db
		}
		return
	}
	if fm.Endpoint == "" {
		g.errs = append(g.errs, field.Invalid(path, endpoint, fmt.Sprintf(
			"%s has no endpoint setting llsd knows: remove endpoint, or put the provider's own key under settings", providerType)))
		return
	}
	if _, ok := settings[fm.Endpoint]; ok {
		g.warn(path, "overrides settings.%s: endpoint wins", fm.Endpoint)
	}
	if fm.OpenAIPath {
		endpoint = g.withOpenAIPath(endpoint, providerType, path)
	}
	fields, _ := g.prof.Fields(api, providerType)
	if f, ok := profile.FieldNamed(fields, fm.Endpoint); ok {
		g.checkURL(providerType, f, endpoint, path)
	}
	config[fm.Endpoint] = endpoint
}

// withOpenAIPath adds /v1 to the endpoint of an OpenAI-compatible server that has no path:
// the server calls <endpoint>/chat/completions, and vLLM, Ollama and llama.cpp serve that
// under /v1. An endpoint with a path is taken as written (a proxy may serve another one).
func (g *generator) withOpenAIPath(endpoint, providerType string, path *field.Path) string {
	withPath, ok := openAIEndpoint(endpoint)
	if !ok {
		return endpoint
	}
	g.warn(path, "%s has no path: llsd uses %s, where %s finds the OpenAI-compatible API; write it so to silence this warning",
		endpoint, withPath, providerType)
	return withPath
}

// openAIEndpoint is endpoint with /v1 when it is a URL without a path (or query): where
// vLLM, Ollama and llama.cpp serve the OpenAI-compatible API.
func openAIEndpoint(endpoint string) (string, bool) {
	u, err := v1alpha2.ParseEndpoint(endpoint, "")
	if err != nil || u.Host == "" || strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
		return "", false
	}
	u.Path = "/v1"
	return u.String(), true
}

// warnEnvEndpoints warns of a variable of spec.workload.overrides.env that sets the endpoint
// of an OpenAI-compatible provider without a path (OLLAMA_URL=http://ollama:11434): the
// server would call <url>/chat/completions, which those servers do not serve. The value is
// the user's: llsd says how to write it instead of changing it.
func (g *generator) warnEnvEndpoints() {
	if g.spec.Workload == nil || g.spec.Workload.Overrides == nil {
		return
	}
	plain := map[string]int{} // name -> index of a plain value in overrides.env
	for i, e := range g.spec.Workload.Overrides.Env {
		if e.ValueFrom == nil {
			plain[e.Name] = i
		}
	}
	for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
		for _, entry := range providerList(g.cfg, api) {
			providerType, _ := entry["provider_type"].(string)
			fm := fieldMapFor(g.prof, api, providerType)
			value, _ := mapAt(entry, "config")[fm.Endpoint].(string)
			m := envValue().FindStringSubmatch(value)
			if !fm.OpenAIPath || m == nil {
				continue
			}
			i, set := plain[m[1]]
			if !set {
				continue
			}
			if withPath, ok := openAIEndpoint(g.spec.Workload.Overrides.Env[i].Value); ok {
				g.warn(overridesEnvPath.Index(i).Child("value"),
					"%s is the endpoint of provider %s (%s) and has no path: the server calls <endpoint>/chat/completions, "+
						"which %s serves under /v1; write %s", m[1], entryID(entry["provider_id"]), providerType, providerType, withPath)
			}
		}
	}
}

func (g *generator) applyCredential(config, settings map[string]any, id, providerType string, fm fieldMap, p v1alpha2.ProviderSpec, path *field.Path) {
	if fm.Credential == "" {
		g.errs = append(g.errs, field.Invalid(path, p.APIKey.SecretKeyRef.Name, fmt.Sprintf(
			"%s takes no API key llsd knows: remove apiKey, or name the provider's config key in secretRefs", providerType)))
		return
	}
	// LLSD_<ID>_API_KEY whatever the provider calls the key: one name for users to know
	g.secretConfigKey(config, settings, fm.Credential, EnvName(id, "api_key"), p.APIKey.SecretKeyRef, path)
}

var postgresScheme = lazyre.New(`^postgres(ql)?://`)

// parsePostgresEndpoint reads host[:port][/db] or postgresql://host[:port][/db]. Credentials
// do not belong in an endpoint, which is written into the ConfigMap in clear.
func parsePostgresEndpoint(endpoint string) (host string, port int64, db string, err error) {
	bare := "postgresql"
	if postgresScheme().MatchString(endpoint) {
		bare = ""
	}
	u, err := v1alpha2.ParseEndpoint(endpoint, bare)
	if err != nil || u.Host == "" {
		return "", 0, "", fmt.Errorf("use host:port/database, for example pgvector.db.svc:5432/vectors")
	}
	if port, err = v1alpha2.PortOr(u, v1alpha2.DefaultPostgresPort); err != nil {
		return "", 0, "", err
	}
	host = u.Hostname()
	if host == "" {
		return "", 0, "", fmt.Errorf("the endpoint has no host: use host:port/database")
	}
	return host, port, strings.TrimPrefix(u.Path, "/"), nil
}
