// SPDX-License-Identifier: Apache-2.0

// providerfields writes the provider catalog of each server profile
// (internal/profile/providers/<version>.json) from the servers' provider field lists in
// testdata/server/<release>/provider-fields.txt: every provider type per API with its config keys, the
// required ones and the secret ones; and from each version's strict schema, the top-level keys
// of config.yaml and the kinds of registered_resources. A test proves the checked-in files equal to a fresh run.
// Run from the repository root: go run ./hack/providerfields
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
)

func main() {
	for _, p := range profile.All() {
		out, err := generate(p)
		if err == nil {
			err = os.WriteFile(filepath.Join("internal", "profile", "providers", string(p.Version)+".json"), out, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "providerfields:", err)
			os.Exit(1)
		}
	}
}

// generate reads one version's field list and schema and returns the catalog file's bytes.
func generate(p *profile.Profile) ([]byte, error) {
	src := filepath.Join(servercheck.DataDir(), p.Upstream.Server, "provider-fields.txt")
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, err
	}
	catalog, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	file := profile.ProviderFile{Source: "server provider fields " + p.Upstream.Server, APIs: catalog}
	schema, err := readSchema(p.Upstream.Server)
	if err == nil {
		file.ConfigKeys, file.RegisteredResources, err = configKeys(schema)
	}
	if err != nil {
		return nil, fmt.Errorf("%s schema: %w", p.Upstream.Server, err)
	}
	addSchemaFacts(catalog, schema)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", " ")
	err = enc.Encode(file)
	return buf.Bytes(), err
}

// serverSchema is what the catalog reads of a server release's JSON Schema of config.yaml.
type serverSchema struct {
	Properties map[string]schemaNode `json:"properties"`
	Defs       map[string]schemaNode `json:"$defs"`
}

// readSchema reads a server release's schema once for configKeys and addSchemaFacts.
func readSchema(release string) (serverSchema, error) {
	var schema serverSchema
	data, err := os.ReadFile(filepath.Join(servercheck.DataDir(), release, "schema.json"))
	if err == nil {
		err = json.Unmarshal(data, &schema)
	}
	return schema, err
}

// configKeys are the top-level keys of config.yaml and the kinds of registered_resources.
func configKeys(schema serverSchema) (keys, resources []string, err error) {
	registered, ok := schema.Defs["RegisteredResources"]
	if len(schema.Properties) == 0 || !ok {
		return nil, nil, fmt.Errorf("no properties, or no $defs.RegisteredResources")
	}
	return slices.Sorted(maps.Keys(schema.Properties)), slices.Sorted(maps.Keys(registered.Properties)), nil
}

// addSchemaFacts sets what the field list does not say from the server's schema, where a
// provider's config class is <api>__<remote|inline>__<name>__Config: the bounds of each number
// key, and the fields of the config class a key takes (network: NetworkConfig).
func addSchemaFacts(catalog map[string]map[string][]profile.Field, schema serverSchema) {
	for api, providers := range catalog {
		for providerType, fields := range providers {
			class := schema.Defs[api+"__"+strings.ReplaceAll(providerType, "::", "__")+"__Config"]
			for i, f := range fields {
				p := class.Properties[f.Name]
				addBounds(&fields[i], p)
				if f.Store == "" {
					fields[i].Fields = nestedFields(p, schema.Defs, 1)
				}
			}
		}
	}
}

// enumValues are the strings of an enum type in the field list: enum["COSINE", "L2"] | null.
func enumValues(fieldType string) []string {
	m := enumType.FindStringSubmatch(fieldType)
	if m == nil {
		return nil
	}
	var values []string
	for v := range strings.SplitSeq(m[1], ", ") {
		if s, err := strconv.Unquote(v); err == nil {
			values = append(values, s)
		}
	}
	return values
}

var (
	enumType = regexp.MustCompile(`^enum\[([^\]]*)\]`)
	// - inference / remote::vllm (VLLMInferenceAdapterConfig):
	providerLine = regexp.MustCompile(`^- ([a-z_]+) / ([a-z0-9:_-]+) \(\w+\):$`)
	// base_url: string(uri) | null = null    kvstore*: KVStoreReference
	fieldLine = regexp.MustCompile(`^    ([A-Za-z0-9_]+)(\*?): (.*)$`)
)

// parse reads "- <api> / <type> (<ConfigClass>):" headers, each followed by its fields
// "    <key>[*]: <type>[ = <default>]" (* = required, string(password) = a secret).
func parse(data []byte) (map[string]map[string][]profile.Field, error) {
	catalog := map[string]map[string][]profile.Field{}
	var api, providerType string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), " ")
		if m := providerLine.FindStringSubmatch(line); m != nil {
			api, providerType = m[1], m[2]
			if catalog[api] == nil {
				catalog[api] = map[string][]profile.Field{}
			}
			catalog[api][providerType] = []profile.Field{}
			continue
		}
		if m := fieldLine.FindStringSubmatch(line); m != nil && providerType != "" {
			catalog[api][providerType] = append(catalog[api][providerType], profile.Field{
				Name: m[1], Required: m[2] == "*", Secret: strings.Contains(m[3], "(password)"), Store: storeKind(m[3]),
				NullRefused: refusesNull(m[3]), Kinds: kinds(m[3]), URL: strings.Contains(m[3], "string(uri)"), Enum: enumValues(m[3]),
			})
			continue
		}
		if line != "" {
			return nil, fmt.Errorf("line %d: unexpected %q", n, line)
		}
	}
	return catalog, sc.Err()
}

// refusesNull tells a scalar key that takes no null by its type in the field list:
// "string = \"Strong\"", "integer", "boolean = false", "string(uri)" (not "string | null").
func refusesNull(fieldType string) bool {
	kind, _, _ := strings.Cut(fieldType, " = ")
	kind, _, _ = strings.Cut(kind, "(")
	switch strings.TrimSpace(kind) {
	case "string", "integer", "number", "boolean":
		return !strings.Contains(fieldType, "| null")
	}
	return false
}

// kinds are the YAML kinds a key takes by its type in the field list, alternatives split on
// " | ": "string(uri) | null" is string and null, "list[string]" an array, "dict[str,string]"
// and a config class (NetworkConfig) an object; nil for "any", which takes every value.
func kinds(fieldType string) []string {
	kind, _, _ := strings.Cut(fieldType, " = ")
	var out []string
	for alt := range strings.SplitSeq(kind, " | ") {
		alt = strings.TrimSpace(alt)
		name, _, _ := strings.Cut(alt, "(")
		name, _, _ = strings.Cut(name, "[")
		var k string
		switch name {
		case "string", "enum":
			k = "string"
		case "integer", "number", "boolean", "null":
			k = name
		case "list":
			k = "array"
		case "dict", "object":
			k = "object"
		case "any":
			return nil
		default:
			if name == "" || !unicode.IsUpper(rune(name[0])) {
				return nil // a type this reading does not know: take every value
			}
			k = "object" // a config class
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// storeKind tells a key that references the server's storage by its type in the field list.
func storeKind(fieldType string) string {
	kind, _, _ := strings.Cut(fieldType, " ")
	switch {
	case kind == "KVStoreReference":
		return "kv"
	case kind == "SqlStoreReference":
		return "sql"
	case strings.HasSuffix(kind, "PersistenceConfig"):
		return "composite"
	}
	return ""
}
