// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// SharedDir is ../shared next to the repository (override with LLSD_SHARED_DIR): the
// llama-stack schemas and upstream configs tests read and the project never copies.
func SharedDir() string {
	if dir := os.Getenv("LLSD_SHARED_DIR"); dir != "" {
		return dir
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
}

// MissingShared explains why the shared llama-stack data cannot be read, or is empty.
func MissingShared() string {
	dir := filepath.Join(SharedDir(), "llama-stack", "schemas")
	if _, err := os.Stat(dir); err != nil {
		return fmt.Sprintf("llama-stack schemas not found at %s (set LLSD_SHARED_DIR): %v", dir, err)
	}
	return ""
}

// SchemaFiles names the strict schema of each supported server version.
var SchemaFiles = map[string]string{
	"0.6": "llama-stack-0.6.0.stackconfig.strict.schema.json",
	"0.7": "llama-stack-0.7.1.stackconfig.strict.schema.json",
	"0.8": "ogx-0.8-HEAD-d1b6632.stackconfig.strict.schema.json",
	"1.0": "ogx-1.0.0.stackconfig.strict.schema.json",
	"1.1": "ogx-1.1.0.stackconfig.strict.schema.json",
	"1.2": "ogx-1.2.1.stackconfig.strict.schema.json",
	"1.3": "ogx-1.3.0.stackconfig.strict.schema.json",
}

var (
	schemaMu    sync.Mutex
	schemaCache = map[string]*jsonschema.Schema{}
)

// Schema compiles (once) a schema file from ../shared/llama-stack/schemas.
func Schema(file string) (*jsonschema.Schema, error) {
	schemaMu.Lock()
	defer schemaMu.Unlock()
	if s, ok := schemaCache[file]; ok {
		return s, nil
	}
	f, err := os.Open(filepath.Join(SharedDir(), "llama-stack", "schemas", file))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("file:///"+file, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile("file:///" + file)
	if err != nil {
		return nil, err
	}
	schemaCache[file] = s
	return s, nil
}

// ValidateStrict substitutes env (getenv) into the config tree and validates the result
// against the strict schema of the server version ("0.6", "0.7"): unknown keys, which the
// server silently ignores, are errors here.
func ValidateStrict(version string, tree any, getenv func(string) string) error {
	expanded, err := SubstituteFor(version, tree, getenv, "/")
	if err != nil {
		return err
	}
	return validateExpanded(version, expanded)
}

func validateExpanded(version string, expanded any) error {
	file, ok := SchemaFiles[version]
	if !ok {
		return fmt.Errorf("no schema for server version %q", version)
	}
	return validateFile(file, expanded)
}

func validateFile(file string, expanded any) error {
	s, err := Schema(file)
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
