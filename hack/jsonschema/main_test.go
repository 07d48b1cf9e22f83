// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

var root = filepath.Join("..", "..")

// schemas compiles the repository's schemas/ by file name.
func schemas(t *testing.T) map[string]*jsonschema.Schema {
	files, err := filepath.Glob(filepath.Join(root, "schemas", "*.json"))
	require.NoError(t, err)
	require.Len(t, files, 3)
	out := map[string]*jsonschema.Schema{}
	for _, f := range files {
		c := jsonschema.NewCompiler()
		doc, err := readJSON(f)
		require.NoError(t, err)
		url := "file:///" + filepath.Base(f)
		require.NoError(t, c.AddResource(url, doc))
		out[filepath.Base(f)], err = c.Compile(url)
		require.NoError(t, err, f)
	}
	return out
}

func readJSON(path string) (any, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

// document reads a YAML document as the schema validates it, and the schema file of its kind
// and version.
func document(t *testing.T, data []byte) (any, string) {
	var meta struct{ APIVersion, Kind string }
	require.NoError(t, yaml.Unmarshal(data, &meta))
	js, err := yaml.YAMLToJSON(data)
	require.NoError(t, err)
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	require.NoError(t, err)
	_, version, _ := strings.Cut(meta.APIVersion, "/")
	return doc, strings.ToLower(meta.Kind) + "-" + version + ".json"
}

// fixture is a parity fixture of pkg/api: the API server and llsd refuse each invalid one at
// field with a message containing error.
type fixture struct {
	name, field, error string
	data               []byte
}

func fixtures(t *testing.T, kind string) []fixture {
	files, err := filepath.Glob(filepath.Join(root, "pkg", "api", "testdata", kind, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var out []fixture
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		fx := fixture{name: filepath.Base(f), data: data}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "# field: "); ok {
				fx.field = v
			}
			if v, ok := strings.CutPrefix(line, "# error: "); ok {
				fx.error = v
			}
		}
		out = append(out, fx)
	}
	return out
}

// Every object the CRD takes, the schema takes: the parity suite's valid fixtures and the
// examples' LlamaStackDistributions.
func TestSchemasAcceptWhatTheCRDAccepts(t *testing.T) {
	compiled := schemas(t)
	docs := fixtures(t, "valid")
	valid := len(docs)
	require.NoError(t, filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, doc := range strings.Split(string(data), "\n---\n") {
			if regexp.MustCompile(`(?m)^kind: (LlamaStackDistribution|RenderOptions)$`).MatchString(doc) {
				docs = append(docs, fixture{name: path, data: []byte(doc)})
			}
		}
		return nil
	}))
	require.Greater(t, len(docs), valid+10, "the examples' documents are read")
	for _, fx := range docs {
		doc, schema := document(t, fx.data)
		require.Contains(t, compiled, schema, fx.name)
		assert.NoError(t, compiled[schema].Validate(doc), "%s", fx.name)
	}
}

// Every object the CRD refuses, the schema refuses at the same field, but for what the CRD's
// rules say beyond what JSON Schema can (two fields compared, uniqueness by a key, a CIDR):
// there the schema says so, in a $comment on the field or an object above it, and the API
// server and llsd validate refuse it.
func TestSchemasRefuseWhatTheCRDRefuses(t *testing.T) {
	compiled := schemas(t)
	var refused, beyond []string
	for _, fx := range fixtures(t, "invalid") {
		doc, schema := document(t, fx.data)
		err := compiled[schema].Validate(doc)
		if err == nil {
			comment := commentOnPath(t, schema, fx.field)
			assert.NotEmpty(t, comment, "%s: the schema takes it, and says nothing at %s of what the CRD checks (%q)", fx.name, fx.field, fx.error)
			beyond = append(beyond, fx.name)
			continue
		}
		var invalid *jsonschema.ValidationError
		require.True(t, errors.As(err, &invalid))
		locations := leaves(invalid, nil)
		assert.True(t, within(locations, fx.field), "%s: refused at %v, the CRD refuses it at %s", fx.name, locations, fx.field)
		refused = append(refused, fx.name)
	}
	t.Logf("the schemas refuse %d of the %d invalid fixtures; for %d the CRD's rules go beyond JSON Schema: %s",
		len(refused), len(refused)+len(beyond), len(beyond), strings.Join(beyond, ", "))
	assert.Greater(t, len(refused), 3*len(beyond), "most of what the CRD refuses, the schema does")
}

// commentOnPath is what the schema file says in $comment on the field path (spec.a[0].b) or an
// object above it.
func commentOnPath(t *testing.T, file, field string) string {
	data, err := os.ReadFile(filepath.Join(root, "schemas", file))
	require.NoError(t, err)
	var node map[string]any
	require.NoError(t, json.Unmarshal(data, &node))
	var comments []string
	for _, part := range strings.Split(dotted(field), ".") {
		if c, ok := node["$comment"].(string); ok {
			comments = append(comments, c)
		}
		var next any
		if props, ok := node["properties"].(map[string]any); ok && props[part] != nil {
			next = props[part]
		} else if items, ok := node["items"]; ok {
			next = items
		} else {
			next = node["additionalProperties"]
		}
		if node, _ = next.(map[string]any); node == nil {
			break
		}
	}
	if c, ok := node["$comment"].(string); ok && node != nil {
		comments = append(comments, c)
	}
	return strings.Join(comments, " / ")
}

// dotted writes a field path's indexes and keys as fields: a[0].b[k] is a.0.b.k.
func dotted(field string) string {
	return strings.NewReplacer("[", ".", "]", "").Replace(field)
}

// leaves are the dotted field paths (spec.a.0.b) of the innermost errors; an error about a map's
// keys has its map's.
func leaves(err *jsonschema.ValidationError, parent []string) []string {
	location := err.InstanceLocation
	if len(location) == 0 {
		location = parent
	}
	if len(err.Causes) == 0 {
		return []string{strings.Join(location, ".")}
	}
	var out []string
	for _, c := range err.Causes {
		out = append(out, leaves(c, location)...)
	}
	return out
}

// within says whether one of the locations is the field or under it, or the field under it (a
// rule of the object above).
func within(locations []string, field string) bool {
	field = dotted(field)
	for _, l := range locations {
		if l == field || strings.HasPrefix(l, field+".") || strings.HasPrefix(field, l+".") {
			return true
		}
	}
	return false
}

// The RenderOptions schema is the options llsd reads: a misspelt option and a choice outside
// the ones llsd takes are refused by both.
func TestRenderOptionsSchema(t *testing.T) {
	schema := schemas(t)["renderoptions-v1alpha1.json"]
	for _, tc := range []struct {
		reason, spec string
		valid        bool
	}{
		{reason: "the options of a platform team", valid: true,
			spec: "{platform: openshift, podSecurity: restricted, requireAuthentication: true, openshiftAI: {release: \"3.4\"}, ingress: {className: nginx}, limits: {llsds: 10}}"},
		{reason: "a misspelt option", spec: "{podSecurty: restricted}"},
		{reason: "a platform llsd does not know", spec: "{platform: gke}"},
		{reason: "a Pod Security Standard that does not exist", spec: "{podSecurity: strict}"},
		{reason: "an OpenShift AI release llsd does not know", spec: "{openshiftAI: {release: \"9.9\"}}"},
	} {
		data := []byte("apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata: {name: llsd}\nspec: " + tc.spec + "\n")
		doc, _ := document(t, data)
		_, parseErr := krm.ParseOptions(data)
		if tc.valid {
			assert.NoError(t, schema.Validate(doc), tc.reason)
			assert.NoError(t, parseErr, tc.reason)
			continue
		}
		assert.Error(t, schema.Validate(doc), tc.reason)
		assert.Error(t, parseErr, "%s: llsd refuses it too", tc.reason)
	}
}

// What llsd reads from the public files others wrote, an editor with the schema takes too: a
// schema that flagged a file llsd renders would teach authors to ignore it.
func TestSchemasTakeThePublicFilesLLSDTakes(t *testing.T) {
	dir := testenv.Shared(t, "wild-llsd")
	compiled := schemas(t)
	read, taken := 0, 0
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") && !strings.HasSuffix(path, ".yml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, doc := range strings.Split(string(data), "\n---") {
			if !regexp.MustCompile(`(?m)^kind: LlamaStackDistribution\s*$`).MatchString(doc) ||
				!regexp.MustCompile(`(?m)^apiVersion: llamastack\.io/v1alpha[12]\s*$`).MatchString(doc) {
				continue
			}
			read++
			obj, errs := api.Decode([]byte(doc))
			if len(errs) > 0 || len(v1alpha2.Validate(obj)) > 0 {
				continue // llsd refuses it: the schema may take it (a CEL rule) or not
			}
			taken++
			instance, schema := document(t, []byte(doc))
			assert.NoError(t, compiled[schema].Validate(instance), "%s: llsd takes it", path)
		}
		return nil
	}))
	t.Logf("%d of the %d public LlamaStackDistributions llsd takes; the schemas take each", taken, read)
	require.Positive(t, taken)
}
