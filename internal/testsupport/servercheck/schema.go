// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"encoding/json"
	"fmt"
	neturl "net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/llamastack/llsd/internal/fastcodec"
)

// DataDir is testdata/server of this repository: each server release's JSON Schema, provider
// fields and distribution configs, written by hack/serverdata from the server's source
// (testdata/server/PROVENANCE.md names each release's commit).
func DataDir() string {
	return filepath.Join(repositoryRoot(), "testdata", "server")
}

func repositoryRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Releases names, for each supported server version, the release in DataDir whose schema and
// provider fields describe it. 0.8 is main a week after the 0.8.0 tag, which adds only two
// file_processors providers (inline::auto, inline::markitdown) to 0.8.0's.
var Releases = map[string]string{
	"0.6": "v0.6.0",
	"0.7": "v0.7.1",
	"0.8": "main-d1b6632",
	"1.0": "v1.0.0",
	"1.1": "v1.1.0",
	"1.2": "v1.2.1",
	"1.3": "v1.3.0",
}

// UpstreamConfig is the settings of a distribution config a release ships, named
// <release>/<distribution>_<stem>, e.g. UpstreamConfig("v0.7.1/starter_config"): the tree the
// server reads from that file, which hack/serverdata keeps as canonical JSON.
func UpstreamConfig(name string) (map[string]any, error) {
	data, err := os.ReadFile(upstreamConfigPath(name))
	if err != nil {
		return nil, err
	}
	return fastcodec.TreeFromJSON(data)
}

// UpstreamConfigs names the distribution configs a release ships, as UpstreamConfig takes them,
// sorted.
func UpstreamConfigs(release string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(DataDir(), release, "configs", "*.json"))
	names := make([]string, 0, len(files))
	for _, f := range files {
		names = append(names, release+"/"+strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	return names, err
}

func upstreamConfigPath(name string) string {
	release, stem, _ := strings.Cut(name, "/")
	return filepath.Join(DataDir(), release, "configs", stem+".json")
}

// SchemaDocument reads a release's JSON Schema (what the server accepts: unknown keys allowed).
func SchemaDocument(release string) (any, error) {
	f, err := os.Open(filepath.Join(DataDir(), release, "schema.json"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return jsonschema.UnmarshalJSON(f)
}

// Strict returns the schema with additionalProperties: false on every object schema that has
// properties and says nothing of other keys: keys the server would silently ignore (typos such
// as url for base_url, keys a newer server dropped) become errors.
func Strict(schema any) any {
	switch n := schema.(type) {
	case map[string]any:
		out := make(map[string]any, len(n)+1)
		for k, v := range n {
			out[k] = Strict(v)
		}
		_, hasProperties := n["properties"]
		_, saysOtherKeys := n["additionalProperties"]
		if hasProperties && !saysOtherKeys && n["type"] == "object" {
			out["additionalProperties"] = false
		}
		return out
	case []any:
		out := make([]any, len(n))
		for i, v := range n {
			out[i] = Strict(v)
		}
		return out
	}
	return schema
}

var (
	schemaMu    sync.Mutex
	schemaCache = map[string]*jsonschema.Schema{}
)

// StrictSchema compiles (once) the strict schema of a server version ("0.7", "1.3").
func StrictSchema(version string) (*jsonschema.Schema, error) {
	release, ok := Releases[version]
	if !ok {
		return nil, fmt.Errorf("no schema for server version %q", version)
	}
	schemaMu.Lock()
	defer schemaMu.Unlock()
	if s, ok := schemaCache[release]; ok {
		return s, nil
	}
	doc, err := SchemaDocument(release)
	if err != nil {
		return nil, err
	}
	url := "file:///" + release + ".strict.schema.json"
	c := jsonschema.NewCompiler()
	c.RegisterFormat(httpURL)
	c.AssertFormat()
	if err := c.AddResource(url, Strict(doc)); err != nil {
		return nil, err
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", release, err)
	}
	schemaCache[release] = s
	return s, nil
}

// httpURL is pydantic's HttpUrl, the one type the servers' schemas give format uri (each such
// string has HttpUrl's maximum length, 2083): an http or https URL with a host. The schemas'
// other formats (path, password) assert nothing.
var httpURL = &jsonschema.Format{Name: "uri", Validate: func(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	u, err := neturl.Parse(s)
	switch {
	case err != nil:
		return err
	case !strings.EqualFold(u.Scheme, "http") && !strings.EqualFold(u.Scheme, "https"):
		return fmt.Errorf("URL scheme should be 'http' or 'https'")
	case u.Hostname() == "":
		return fmt.Errorf("URL is missing a host")
	}
	return nil
}}

// ValidateStrict substitutes env (getenv) into the config tree and validates the result
// against the strict schema of the server version ("0.6", "0.7"): unknown keys, which the
// server silently ignores, are errors here.
func ValidateStrict(version string, tree any, getenv func(string) string) error {
	expanded, err := readAsServer(version, tree, getenv, "/")
	if err != nil {
		return err
	}
	return validateExpanded(version, expanded)
}

func validateExpanded(version string, expanded any) error {
	s, err := StrictSchema(version)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(expanded)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

// FixtureEnv is the environment of a test pod: the variables in values, and every LLSD_*
// variable llsd's env vars and launcher provide (ports are numbers, everything else a
// non-numeric string, like a real secret must be). All other variables are unset, so
// ${env.X:=default} and ${env.X:+id} take their unset branch, as on a pod nobody configured.
func FixtureEnv(values map[string]string) func(string) string {
	return func(name string) string {
		if v, ok := values[name]; ok {
			return v
		}
		if !strings.HasPrefix(name, "LLSD_") {
			return ""
		}
		if strings.HasSuffix(name, "_PORT") {
			return "5432"
		}
		return "fixture-" + strings.ToLower(name)
	}
}
