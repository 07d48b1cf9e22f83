// SPDX-License-Identifier: Apache-2.0

package servercheck_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// referenceNames are the names the reference data gives each release of testdata/server:
// its schema files' stem, provider-fields file and configs directory.
var referenceNames = map[string]struct{ schema, fields, configs string }{
	"v0.2.14":      {configs: "v0.2.14"},
	"v0.4.5":       {configs: "v0.4.5"},
	"v0.6.0":       {schema: "llama-stack-0.6.0", fields: "provider-config-fields-v0.6.0.txt", configs: "v0.6.0"},
	"v0.7.1":       {schema: "llama-stack-0.7.1", fields: "provider-config-fields-v0.7.1.txt", configs: "v0.7.1"},
	"v0.8.0":       {schema: "ogx-0.8.0", fields: "provider-config-fields-v0.8.0.txt", configs: "v0.8.0"},
	"main-d1b6632": {schema: "ogx-0.8-HEAD-d1b6632", fields: "provider-config-fields-HEAD.txt", configs: "HEAD"},
	"v1.0.0":       {schema: "ogx-1.0.0", fields: "provider-config-fields-v1.0.0.txt", configs: "v1.0.0"},
	"v1.1.0":       {schema: "ogx-1.1.0", fields: "provider-config-fields-v1.1.0.txt", configs: "v1.1.0"},
	"v1.2.1":       {schema: "ogx-1.2.1", fields: "provider-config-fields-v1.2.1.txt", configs: "v1.2.1"},
	"v1.3.0":       {schema: "ogx-1.3.0", fields: "provider-config-fields-v1.3.0.txt", configs: "v1.3.0"},
}

// referenceGaps are providers the reference's field list of a release lacks and ours has: the
// 0.6 registry adds its torchtune providers in a loop, which the reference's export missed
// (its schema has them).
var referenceGaps = map[string][]string{
	"v0.6.0": {"post_training / inline::torchtune-cpu", "post_training / inline::torchtune-gpu"},
}

// The repository's server data (hack/serverdata, from the server's source) is the reference
// data beside the repository: the same schemas as parsed documents, the strict schemas derived
// as the reference's, the same provider fields and the same configs as parsed documents.
func TestServerDataEqualsTheReference(t *testing.T) {
	reference := testenv.Reference(t)
	releases, err := os.ReadDir(servercheck.DataDir())
	require.NoError(t, err)
	var labels []string
	for _, r := range releases {
		if r.IsDir() {
			labels = append(labels, r.Name())
		}
	}
	require.ElementsMatch(t, slices.Collect(maps.Keys(referenceNames)), labels, "every release of testdata/server has its reference")
	for label, names := range referenceNames {
		t.Run(label, func(t *testing.T) {
			configsEqual(t, filepath.Join(reference, "configs", names.configs), label)
			if names.schema == "" {
				return
			}
			ours := readJSON(t, servercheck.DataDir(), label, "schema.json")
			assert.Empty(t, differences(comparable(readJSON(t, reference, "schemas", names.schema+".stackconfig.schema.json")), comparable(ours), ""),
				"schema.json differs from the reference at these paths (reference, ours)")
			assert.Empty(t, differences(comparable(readJSON(t, reference, "schemas", names.schema+".stackconfig.strict.schema.json")),
				comparable(servercheck.Strict(ours)), ""), "the strict schema differs from the reference's at these paths (reference, ours)")
			fieldsEqual(t, filepath.Join(reference, "provider-fields", names.fields), label)
		})
	}
}

// configsEqual holds the configs of a release equal to the reference's as parsed documents:
// ours are the settings in canonical JSON, the reference keeps the files (ours may hold configs
// the reference left out).
func configsEqual(t *testing.T, dir, label string) {
	files, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, f.Name()))
		require.NoError(t, err)
		want, err := configyaml.UnmarshalMap(data)
		require.NoError(t, err, f.Name())
		name := label + "/" + strings.TrimSuffix(f.Name(), ".yaml")
		got, err := servercheck.UpstreamConfig(name)
		if assert.NoError(t, err, "testdata/server lacks a config of the reference") {
			assert.Empty(t, differences(want, got, ""), "%s differs from the reference at these paths (reference, ours)", name)
		}
	}
}

// fieldsEqual holds every provider block of the reference's field list equal to ours; ours may
// have only the blocks of referenceGaps in addition.
func fieldsEqual(t *testing.T, referenceFile, label string) {
	want := fieldBlocks(t, referenceFile)
	got := fieldBlocks(t, filepath.Join(servercheck.DataDir(), label, "provider-fields.txt"))
	for _, gap := range referenceGaps[label] {
		assert.NotContains(t, want, gap, "the reference now has %s: drop it from referenceGaps", gap)
		assert.Contains(t, got, gap)
		delete(got, gap)
	}
	assert.Equal(t, want, got, "provider fields")
}

// fieldBlocks reads "- <api> / <type> (<Class>):" headers and their lines.
func fieldBlocks(t *testing.T, file string) map[string]string {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	blocks := map[string]string{}
	var header string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "- ") {
			header, _, _ = strings.Cut(strings.TrimPrefix(line, "- "), " (")
		}
		blocks[header] += line + "\n"
	}
	return blocks
}

// differences lists the first few JSON pointers at which two documents differ, with both values.
func differences(want, got any, at string) []string {
	var out []string
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		for _, k := range slices.Sorted(maps.Keys(w)) {
			out = append(out, differences(w[k], g[k], at+"/"+k)...)
		}
		for _, k := range slices.Sorted(maps.Keys(g)) {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s/%s: absent, %.80v", at, k, g[k]))
			}
		}
		return out[:min(len(out), 5)]
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			break
		}
		for i := range w {
			out = append(out, differences(w[i], g[i], fmt.Sprintf("%s/%d", at, i))...)
		}
		return out[:min(len(out), 5)]
	default:
		if reflect.DeepEqual(want, got) {
			return nil
		}
	}
	return []string{fmt.Sprintf("%s: %.80v, %.80v", at, want, got)}
}

func readJSON(t *testing.T, parts ...string) any {
	data, err := os.ReadFile(filepath.Join(parts...))
	require.NoError(t, err)
	var doc any
	require.NoError(t, json.Unmarshal(data, &doc))
	return doc
}

// comparable drops what the reference and our export may differ in without a validator seeing
// it: discriminator annotations (OpenAPI's; JSON Schema validators ignore them; the reference
// left some naming models by their un-prefixed names, which do not exist) and the order of
// allOf and enum lists (the reference's 0.6 export listed the post_training providers in
// another order).
func comparable(node any) any {
	switch n := node.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, v := range n {
			if k == "discriminator" {
				continue
			}
			out[k] = comparable(v)
			if k == "allOf" || k == "enum" {
				out[k] = sortedByJSON(out[k].([]any))
			}
		}
		return out
	case []any:
		out := make([]any, len(n))
		for i, v := range n {
			out[i] = comparable(v)
		}
		return out
	}
	return node
}

func sortedByJSON(list []any) []any {
	key := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	return slices.SortedFunc(slices.Values(list), func(a, b any) int { return strings.Compare(key(a), key(b)) })
}
