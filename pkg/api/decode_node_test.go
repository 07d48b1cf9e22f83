// SPDX-License-Identifier: Apache-2.0

package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	"sigs.k8s.io/yaml"
)

// asKubectl reads text as DecodeObject (and kubectl) does: sigs.k8s.io/yaml, strictly, then
// JSON's values.
func asKubectl(text string) (map[string]any, error) {
	data, err := yaml.YAMLToJSONStrict([]byte(text))
	if err != nil {
		return nil, err
	}
	var doc map[string]any
	return doc, json.Unmarshal(data, &doc)
}

// asNode reads text as the KRM function's node, then as DecodeNode does.
func asNode(t testing.TB, text string) (map[string]any, bool) {
	t.Helper()
	rn, err := kyaml.Parse(text)
	if err != nil {
		t.Skip("kyaml does not parse it: no node to read")
	}
	return nodeDocument(rn.YNode())
}

// A document read from its node has the values kubectl reads from its text (YAML 1.1), not
// yaml.v3's (YAML 1.2); what the node cannot settle the same way is left to the text path.
func TestDecodeNodeReadsAsKubectlDoes(t *testing.T) {
	for _, tc := range []struct {
		reason, text string
		asText       bool // the node is not enough: read as text
	}{
		{reason: "YAML 1.1 booleans", text: "a: yes\nb: No\nc: on\nd: OFF\ne: y\nf: true\ng: 'yes'\nh: \"on\"\n"},
		{reason: "nulls", text: "a: ~\nb: null\nc:\nd: NULL\ne: ''\n"},
		{reason: "ints in every base, underscores, signs", text: "a: 0777\nb: 0x1F\nc: 0b101\nd: -0b11\ne: 1_000\nf: +12\ng: 0o17\nh: -0x10\n"},
		{reason: "floats and what only looks like one", text: "a: 1.5\nb: .5\nc: 1e3\nd: -2.\ne: 1e400\nf: 1.2.3\ng: .\nh: +inf\ni: -.nan\n"},
		{reason: "big ints", text: "a: 9223372036854775807\nb: 18446744073709551615\nc: 99999999999999999999999\nd: -9223372036854775809\n"},
		{reason: "timestamps and dates stay strings", text: "a: 2024-01-02\nb: 2024-01-02T03:04:05Z\nc: 2024-13-45\nd: 1234-\n"},
		{reason: "block and quoted scalars are strings", text: "a: |\n  yes\nb: >\n  0777\nc: '12'\nd: \"1e3\"\n"},
		{reason: "version-like strings", text: "a: 1.3.0\nb: v1\nc: 0.10\nd: 1:20\ne: 08\nf: 0x\n"},
		{reason: "nested lists and maps", text: "spec:\n  list: [1, yes, x, {k: off}]\n  map: {a: {b: [null, 2.5]}}\n"},
		{reason: "a key written twice", text: "a: 1\na: 2\n", asText: true},
		{reason: "a key YAML 1.1 reads as a bool", text: "yes: 1\n", asText: true},
		{reason: "a number as a key", text: "1: x\n", asText: true},
		{reason: "an alias", text: "a: &x {b: 1}\nc: *x\n", asText: true},
		{reason: "a merge key", text: "a: &x {b: 1}\nc:\n  <<: *x\n", asText: true},
		{reason: "an explicit tag", text: "a: !!str 12\n", asText: true},
		{reason: "an infinity", text: "a: .inf\n", asText: true},
		{reason: "an empty value in a flow mapping (kyaml writes it as '')", text: "{a, b: 1}\n", asText: true},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got, ok := asNode(t, tc.text)
			if tc.asText {
				assert.False(t, ok, "read from the node, though its text says more")
				return
			}
			require.True(t, ok, "left to the text path")
			want, err := asKubectl(tc.text)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}

// Every LLSD and OGXServer of the repository's examples and tests reads the same from its node.
func TestDecodeNodeReadsTheRepositorysDocumentsAsKubectlDoes(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		want, err := asKubectl(string(data))
		if err != nil {
			continue // a document testdata holds for its error
		}
		got, ok := asNode(t, string(data))
		if ok {
			assert.Equal(t, want, got, f)
		}
	}
}

// Whatever the node reads, its text reads the same. (The node's text: what the KRM function
// read as text before, and the same as what was written but where kyaml's parse already
// settled it: "a: !" is a null to both.)
func FuzzDecodeNode(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: a}\nspec: {distribution: {name: starter}}\n",
		"a: yes\nb: 0777\nc: [1e3, .5, ~, 2024-01-02]\n", "a: '1'\nb: |\n  x\n", "a: -0b101\nb: 1_0\n",
		"A: !", "{A0}", // found by the fuzzer: a tag kyaml drops, an empty value kyaml writes quoted
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		rn, err := kyaml.Parse(text)
		if err != nil {
			return
		}
		got, ok := nodeDocument(rn.YNode())
		if !ok {
			return
		}
		want, err := asKubectl(rn.MustString())
		require.NoError(t, err, "the node read %v", got)
		assert.Equal(t, want, got)
	})
}

// BenchmarkDecodeNode: one LLSD read from the node the KRM function holds, against written out
// and read as text (what the function did before).
func BenchmarkDecodeNode(b *testing.B) {
	const text = "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s, namespace: ai}\n" +
		"spec:\n  distribution: {name: starter}\n  providers:\n    inference: {provider: vllm, endpoint: \"http://vllm:8000/v1\"}\n"
	rn, err := kyaml.Parse(text)
	require.NoError(b, err)
	b.Run("node", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, errs := DecodeNode(rn.Copy().YNode(), nil); len(errs) > 0 {
				b.Fatal(errs)
			}
		}
	})
	b.Run("text", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, errs := DecodeObject([]byte(rn.MustString())); len(errs) > 0 {
				b.Fatal(errs)
			}
		}
	})
}
