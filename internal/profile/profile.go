// SPDX-License-Identifier: Apache-2.0

package profile

import (
	"cmp"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Version is a server version, major.minor: "0.7".
type Version string

// Default is the version of a distribution named without serverVersion or an image: the
// newest supported. Pin spec.distribution.serverVersion (or name an image) to stay on a
// version across llsd upgrades; docs/upgrading.md says what each step changes.
const Default Version = "1.3"

// Profile describes one server version.
type Profile struct {
	Version Version
	// Product is the server's name in messages: llama-stack, or OGX from 0.8.
	Product string
	// Release is the release llsd pins for this version: the tag of its catalog images.
	Release string
	// ImageRepositories are the official repositories of the distribution images, each
	// followed by the distribution name; the first names the catalog's images.
	ImageRepositories []string
	// Entrypoint is the image's entrypoint: it starts the server on $RUN_CONFIG_PATH, under
	// opentelemetry-instrument when any OTEL_* variable is set.
	Entrypoint string
	// StateDir is where the server keeps its files in the image: ~/.llama (~/.ogx from 0.8)
	// with the image's HOME of /.
	StateDir string
	// PortEnv is the variable the server's CLI takes its port from (it ignores server.port).
	PortEnv string
	// CLI is the command line that runs a config, which container arguments reach.
	CLI CLI
	// Dependencies are the APIs a provider cannot start without, keyed "api provider_type"
	// or "api *" for every provider of an API (the api_dependencies of the server's provider
	// registry; optional ones left out).
	Dependencies map[string][]string
	// ModelTypes are the model types the server registers.
	ModelTypes []string
	// IdentifiesModelsByID: a registered model's identifier is provider_id/model_id (0.8);
	// before, provider_id/provider_model_id.
	IdentifiesModelsByID bool
	// MultiWorkerHost is the server.host llsd sets for several workers when the server's CLI
	// cannot bind its default host list with them (0.6: "::", as 0.7 does by itself).
	MultiWorkerHost string
	// AliasProviderID is the provider_id of a model registered as an unprefixed alias on the
	// first inference provider ("all" from 0.8; "" before, where it is an unknown provider).
	AliasProviderID string
	// ToolGroups are the toolgroup_id of each built-in tool group (websearch, rag,
	// wolfram_alpha), which config.yaml must register; nil when the server registers them
	// itself from its tool_runtime providers (0.7 on).
	ToolGroups map[string]string
	// KVStores are the server's stores (storage.stores) on a key-value backend; the others
	// are on SQL backends. OGX 1.0 moved prompts and connectors to SQL.
	KVStores []string
	// MigratedStores are the SQL stores the server still reads in their key-value form of
	// earlier releases ({backend: kv_x, namespace: n} read as {backend: sql_x, table_name: n}):
	// prompts and connectors in OGX 1.x (_migrate_kv_to_sql, src/ogx/core/storage/datatypes.py).
	MigratedStores []string
	// PostgresBackendKeys are the optional keys the server accepts on each type of named
	// Postgres backend (kv_postgres, sql_postgres) beyond type, host, port, db, user and
	// password (PostgresKVStoreConfig and PostgresSqlStoreConfig of the server's schema); nil
	// before OGX 1.0, whose prompts and connectors stores are key-value stores.
	PostgresBackendKeys map[string][]string
	// TLSRequired: the server refuses to start without a TLS certificate and key unless
	// server.insecure is set (1.2 on), which llsd writes when TLS ends outside the pod.
	TLSRequired bool
	// MetricsEndpoint: the server serves Prometheus metrics on a port of its own when
	// OGX_METRICS_ENDPOINT_ENABLED is set (OGX_METRICS_PORT, OGX_METRICS_HOST; 1.2 on).
	MetricsEndpoint bool
	// Marks tell this version's configs by their structure (distribution.Fingerprint), for
	// base configs that come without a version label or tag.
	Marks Marks
	// Upstream locates this version's server data in testdata/server (written from the server's
	// source by hack/serverdata), read by hack/importbase, hack/providerfields and tests.
	Upstream Upstream

	catalogOnce sync.Once
	catalog     map[string]map[string][]Field
	file        ProviderFile
	catalogErr  error
}

// Upstream names the releases in testdata/server that describe a version.
type Upstream struct {
	// Configs is the release whose distribution configs the version's images ship.
	Configs string
	// Server is the release whose schema and provider fields describe the version.
	Server string
}

// Marks are what a config of one version has and the versions around it do not: First what the
// version brought (newer 1.x versions keep it: a config that uses it is of this version or
// later), Last what it is the last supported version to have (a config that uses it is of this
// version or older).
type Marks struct {
	// Evidence says what was seen, for messages.
	Evidence    string
	First, Last Mark
}

// Mark is a set of structures, any of which a config may have.
type Mark struct {
	// APIs are provider sections (providers.<api>).
	APIs []string
	// ProviderTypes are provider types of any section.
	ProviderTypes []string
	// ProviderKeys are "<api>.<key>": a provider of the API with the config key.
	ProviderKeys []string
	// ServerKeys are keys of server.
	ServerKeys []string
	// Stores are dotted paths under storage.stores ("prompts.table_name": the prompts store has a table_name).
	Stores []string
	// Strings is a regular expression some string of the config matches (default paths,
	// database names).
	Strings *regexp.Regexp
}

// Field is one config key of a provider.
type Field struct {
	Name string `json:"name"`
	// Required keys have no default: the provider cannot start without them.
	Required bool `json:"required,omitempty"`
	// Secret keys hold credentials (pydantic SecretStr).
	Secret bool `json:"secret,omitempty"`
	// Store says the key references the server's storage: "kv" (a KVStoreReference: backend
	// and namespace), "sql" (a SqlStoreReference: backend and table_name) or "composite" (a
	// persistence block of several references).
	Store string `json:"store,omitempty"`
	// NullRefused keys are a string, number or boolean that takes no null: a value
	// ${env.X:=} with X unset gives them null, and the provider does not start.
	NullRefused bool `json:"nullRefused,omitempty"`
	// Kinds are the YAML kinds the key takes (string, integer, number, boolean, null, object,
	// array); none: any value.
	Kinds []string `json:"kinds,omitempty"`
	// URL keys are an http or https URL with a host (pydantic HttpUrl, "string(uri)" in the
	// field list): any other string stops the provider at start.
	URL bool `json:"url,omitempty"`
	// Enum are the only strings the key takes (a Literal or an Enum of the server's), exactly
	// as written: any other stops the provider at start.
	Enum []string `json:"enum,omitempty"`
	// Minimum, ExclusiveMinimum and Maximum bound a number key (pydantic's ge, gt and le).
	Minimum          *float64 `json:"minimum,omitempty"`
	ExclusiveMinimum *float64 `json:"exclusiveMinimum,omitempty"`
	Maximum          *float64 `json:"maximum,omitempty"`
	// Fields are the keys of the config class the key takes (network: its tls, proxy, timeout,
	// ...), each with its own facts; none for a key of another type.
	Fields []Field `json:"fields,omitempty"`
}

// ProviderFile is the format of providers/<version>.json, written by hack/providerfields.
type ProviderFile struct {
	Source string                        `json:"source"`
	APIs   map[string]map[string][]Field `json:"apis"`
	// ConfigKeys are the top-level keys of config.yaml the server reads (its schema's
	// properties); the server ignores any other key without a word.
	ConfigKeys []string `json:"config_keys"`
	// RegisteredResources are the kinds under registered_resources (models, ...).
	RegisteredResources []string `json:"registered_resources"`
}

//go:embed providers/*.json
var providerFiles embed.FS

// profiles are the supported server versions, oldest first.
var profiles = []*Profile{v06, v07, v08, v10, v11, v12, v13}

// Supported lists the server versions llsd generates configs for.
func Supported() []Version {
	out := make([]Version, len(profiles))
	for i, p := range profiles {
		out[i] = p.Version
	}
	return out
}

// For returns the profile of a server version.
func For(v Version) (*Profile, bool) {
	i := slices.IndexFunc(profiles, func(p *Profile) bool { return p.Version == v })
	if i < 0 {
		return nil, false
	}
	return profiles[i], true
}

// Compatible returns the profile to generate a config for a server version with: the
// version's own, or, for a minor release newer than the newest profile of its major version,
// that newest profile. OGX's stability policy says a config that loads on 1.N loads on every
// later 1.x, and its CI enforces it (docs/docs/concepts/apis/api_leveling.mdx at v1.3.0,
// "Configuration files"); note says so when that rule was used. A version of another major,
// or older than every profile, has none.
func Compatible(v Version) (p *Profile, note string, ok bool) {
	if p, ok := For(v); ok {
		return p, "", true
	}
	major, minor, ok := v.parts()
	if !ok || major < 1 {
		return nil, "", false
	}
	var newest *Profile
	for _, q := range profiles {
		if qMajor, qMinor, _ := q.Version.parts(); qMajor == major && qMinor < minor {
			newest = q
		}
	}
	if newest == nil {
		return nil, "", false
	}
	return newest, fmt.Sprintf("%s %s is newer than the newest %s llsd knows (%s): its config is generated for %s, "+
		"as the server's stability policy says a config that loads on %d.N loads on every later %d.x; llsd cannot check "+
		"what %s added", newest.Product, v, newest.Product, newest.Version, newest, major, major, v), true
}

// Compare orders two major.minor versions: -1 when v is older than w, 0 when equal, +1 when
// newer. A version that is no major.minor sorts before every one that is.
func (v Version) Compare(w Version) int {
	vMajor, vMinor, vOK := v.parts()
	wMajor, wMinor, wOK := w.parts()
	switch {
	case vOK != wOK:
		if vOK {
			return 1
		}
		return -1
	case vMajor != wMajor:
		return cmp.Compare(vMajor, wMajor)
	}
	return cmp.Compare(vMinor, wMinor)
}

// parts splits a major.minor version.
func (v Version) parts() (major, minor int, ok bool) {
	n, err := fmt.Sscanf(string(v), "%d.%d", &major, &minor)
	return major, minor, err == nil && n == 2 && fmt.Sprintf("%d.%d", major, minor) == string(v)
}

// All returns the supported profiles, oldest first.
func All() []*Profile { return slices.Clone(profiles) }

// String names the server version in messages: "llama-stack 0.7", "OGX 0.8".
func (p *Profile) String() string { return p.Product + " " + string(p.Version) }

// Image is the catalog image of a distribution at this version.
func (p *Profile) Image(distribution string) string {
	return p.ImageRepositories[0] + distribution + ":" + p.Release
}

// HomeStateDir is StateDir as the server's defaults write it: ~/.llama.
func (p *Profile) HomeStateDir() string { return "~" + p.StateDir }

// APIs lists the server's APIs that take providers, sorted.
func (p *Profile) APIs() []string { return slices.Sorted(maps.Keys(p.providers())) }

// HasAPI reports whether the server has an API that takes providers.
func (p *Profile) HasAPI(api string) bool { _, ok := p.providers()[api]; return ok }

// ModelIdentifier is the identifier the server gives a registered model, by which other
// parts of the config (a Llama Guard shield) and clients name it.
func (p *Profile) ModelIdentifier(providerID, modelID, providerModelID string) string {
	if p.IdentifiesModelsByID {
		if strings.HasPrefix(modelID, providerID+"/") {
			return modelID
		}
		return providerID + "/" + modelID
	}
	if providerModelID == "" {
		providerModelID = modelID
	}
	return providerID + "/" + providerModelID
}

// Load reads the profile's embedded provider catalog (once); call it before the other methods,
// which see an empty catalog when it fails.
func (p *Profile) Load() error {
	p.catalogOnce.Do(func() {
		data, err := providerFiles.ReadFile("providers/" + string(p.Version) + ".json")
		var file ProviderFile
		if err == nil {
			err = json.Unmarshal(data, &file)
		}
		if err != nil {
			p.catalogErr = fmt.Errorf("provider catalog of llama-stack %s: %w", p.Version, err)
			return
		}
		p.catalog, p.file = file.APIs, file
	})
	return p.catalogErr
}

func (p *Profile) providers() map[string]map[string][]Field {
	_ = p.Load()
	return p.catalog
}

// ConfigKeys are the top-level keys of config.yaml the server reads, sorted.
func (p *Profile) ConfigKeys() []string { _ = p.Load(); return p.file.ConfigKeys }

// RegisteredResources are the kinds of resource config.yaml registers, sorted.
func (p *Profile) RegisteredResources() []string { _ = p.Load(); return p.file.RegisteredResources }

// ProviderTypes lists the provider types the server has for an API, sorted.
func (p *Profile) ProviderTypes(api string) []string {
	types := make([]string, 0, len(p.providers()[api]))
	for t := range p.providers()[api] {
		types = append(types, t)
	}
	slices.Sort(types)
	return types
}

// Fields returns the config keys of a provider type of an API; ok is false when the server
// has no such provider.
func (p *Profile) Fields(api, providerType string) (fields []Field, ok bool) {
	fields, ok = p.providers()[api][providerType]
	return fields, ok
}

// FieldNamed is the field of fields with that name.
func FieldNamed(fields []Field, name string) (Field, bool) {
	i := slices.IndexFunc(fields, func(f Field) bool { return f.Name == name })
	if i < 0 {
		return Field{}, false
	}
	return fields[i], true
}

// FieldNames are the names of fields, in their order.
func FieldNames(fields []Field) []string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	return names
}

// Needs lists the APIs a provider of an API depends on.
func (p *Profile) Needs(api, providerType string) []string {
	if deps, ok := p.Dependencies[api+" "+providerType]; ok {
		return deps
	}
	return p.Dependencies[api+" *"]
}

// withVectorIO marks every vector_io provider as depending on inference (each embeds text).
// The catalog is not read here: it loads lazily, and the vector_io rule needs no list.
func withVectorIO(deps map[string][]string) map[string][]string {
	deps["vector_io *"] = []string{"inference"}
	return deps
}

// apiReplacements say what to use instead of an API a version does not have.
var apiReplacements = map[string]string{
	"safety": "responses screen text through the moderation endpoint of the responses provider (its moderation_endpoint " +
		"setting, from OGX 1.0)",
	"agents":        "the responses API replaced it in llama-stack 0.7",
	"post_training": "fine-tune outside the server",
	"datasetio":     "evaluate outside the server",
	"eval":          "evaluate outside the server",
	"scoring":       "evaluate outside the server",
	"telemetry":     "llama-stack removed it in 0.4; traces and metrics go to an OpenTelemetry collector: set ⟦spec.telemetry⟧: {endpoint: http://collector:4318}",
}

// Removed reports whether the version lacks an API an older supported version has.
func (p *Profile) Removed(api string) bool {
	if p.HasAPI(api) {
		return false
	}
	for _, q := range profiles[:slices.Index(profiles, p)] {
		if q.HasAPI(api) {
			return true
		}
	}
	return false
}

// WithoutAPI explains, for a message, that the version has no API api: which supported
// versions have it, and what to use instead. "" when the version has the API.
func (p *Profile) WithoutAPI(api string) string {
	if p.HasAPI(api) {
		return ""
	}
	var have []*Profile
	for _, q := range profiles {
		if q.HasAPI(api) {
			have = append(have, q)
		}
	}
	msg := fmt.Sprintf("%s has no %s API", p, api)
	switch len(have) {
	case 0:
	case 1:
		msg += " (only " + have[0].String() + " has it)"
	default:
		msg += fmt.Sprintf(" (%s to %s have it)", have[0], have[len(have)-1])
	}
	if r := apiReplacements[api]; r != "" {
		msg += ": " + r
	}
	return msg
}

// Having names the supported versions for which has holds, oldest first: "OGX 1.2 to OGX 1.3".
func Having(has func(*Profile) bool) string {
	var have []*Profile
	for _, p := range profiles {
		if has(p) {
			have = append(have, p)
		}
	}
	switch len(have) {
	case 0:
		return "no supported version"
	case 1:
		return have[0].String()
	}
	return have[0].String() + " to " + have[len(have)-1].String()
}

// ServerWithAPI says how to get a server that has api, for the message about a spec that
// asks a version without it for one; "" when no supported version has it.
func (p *Profile) ServerWithAPI(api string) string {
	var have []*Profile
	for _, q := range profiles {
		if q.HasAPI(api) {
			have = append(have, q)
		}
	}
	switch {
	case len(have) == 0:
		return ""
	case slices.Index(profiles, have[0]) > slices.Index(profiles, p):
		return fmt.Sprintf("it arrived in %s: set ⟦spec.distribution.serverVersion⟧: %q or later", have[0], string(have[0].Version))
	}
	return fmt.Sprintf("to keep it, pin an older server with ⟦spec.distribution.serverVersion⟧: %q", string(have[len(have)-1].Version))
}
