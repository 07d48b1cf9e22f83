// SPDX-License-Identifier: Apache-2.0

package configyaml_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// Strings that YAML 1.1 (PyYAML) reads as something else unless they are quoted, and
// scalars whose type must survive the trip.
var tricky = map[string]any{
	"bools":      []any{"yes", "No", "on", "OFF", "y", "n", "true", "False"},
	"numbers":    []any{"0755", "0x1F", "1_000", "12:30", "1.5", "1e5", "1.0e+5", ".inf", "-.5", "+1"},
	"nulls":      []any{"", "~", "null", "NULL"},
	"dates":      []any{"2026-11-22", "2026-11-22 10:00:00"},
	"others":     []any{"<<", "=", "${env.X:=}", "~/.llama/x", "a: b", "- item", "#c", "multi\nline\n", "tab\tand trailing "},
	"typed":      []any{int64(60), 60.0, 0.5, 1e20, -3.0, true, false, nil, int64(-1)},
	"empty_list": []any{},
	"empty_map":  map[string]any{},
	"on":         "key that YAML 1.1 reads as a bool",
}

func TestPyYAMLReadsBackWhatWasWritten(t *testing.T) {
	testenv.Need(t, servercheck.MissingPyYAML())
	out, err := configyaml.Marshal(tricky)
	require.NoError(t, err)
	read, err := servercheck.PyYAMLRead(out)
	require.NoError(t, err, string(out))
	assert.Equal(t, servercheck.Tagged(tricky), read, "PyYAML read a different tree from:\n%s", out)
}

func TestMarshalIsDeterministicAndRoundTrips(t *testing.T) {
	first, err := configyaml.Marshal(tricky)
	require.NoError(t, err)
	for range 20 {
		again, err := configyaml.Marshal(tricky)
		require.NoError(t, err)
		require.Equal(t, string(first), string(again), "map iteration order leaked into the output")
	}
	back, err := configyaml.Unmarshal(first)
	require.NoError(t, err)
	assert.Equal(t, tricky, back)
}

func TestUnmarshalReadsYAML11Like(t *testing.T) {
	tree, err := configyaml.UnmarshalMap([]byte(`a: yes
b: on
c: 60.0
d: 8
e: "on"
`))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": true, "b": true, "c": 60.0, "d": int64(8), "e": "on"}, tree)

	_, err = configyaml.UnmarshalMap([]byte("- a\n- b\n"))
	assert.ErrorContains(t, err, "not a mapping")
	_, err = configyaml.UnmarshalMap([]byte(`a:
  1: x
`))
	assert.ErrorContains(t, err, "a: key 1 is not a string")
}

// Aliases that would expand a small config a hundredfold are an error before anything expands
// them (F8); a config that shares a block by an
// anchor, as people write them, reads as before.
func TestAliasesAreBoundedByWhatTheyExpandTo(t *testing.T) {
	// Just inside the YAML library's own alias ratio (below 99% of the nodes from aliases, under
	// 400,000 nodes): 270 KB that expand to 25 MB.
	_, err := configyaml.Unmarshal([]byte(laughsWith(95)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "its aliases (*name) expand it to more than 1 MiB or 100000 nodes, more than a ConfigMap holds: write the config without them")

	// Round four's F13: under the old 8 MiB bound, 28 copies (7.8 MiB) went on to a render that
	// took seconds and hundreds of MB before the ConfigMap was found too large; and a list of
	// one-letter scalars copied 3 times is 300,000 nodes in 1 MiB.
	for name, doc := range map[string]string{
		"copies":      laughsWith(28),
		"tiny nodes":  "letters: &l [" + strings.Repeat("a, ", 99_999) + "a]\ncopies: [*l, *l]\n",
		"just inside": "letters: &l [" + strings.Repeat("a, ", 30_000) + "a]\ncopies: [*l, *l]\n",
	} {
		_, err := configyaml.Unmarshal([]byte(doc))
		if name == "just inside" {
			assert.NoError(t, err, name)
			continue
		}
		assert.ErrorContains(t, err, "more than a ConfigMap holds", name)
	}

	shared := `defaults: &tls {verify: true, min_version: TLSv1.2}
providers:
  inference:
  - {provider_id: a, config: {network: {tls: *tls}}}
  - {provider_id: b, config: {network: {tls: *tls}}}
`
	tree, err := configyaml.UnmarshalMap([]byte(shared))
	require.NoError(t, err)
	b := tree["providers"].(map[string]any)["inference"].([]any)[1].(map[string]any)
	assert.Equal(t, true, b["config"].(map[string]any)["network"].(map[string]any)["tls"].(map[string]any)["verify"])
}

// laughsWith is a block of 4,000 strings of 64 characters and copies aliases of it.
func laughsWith(copies int) string {
	var b strings.Builder
	b.WriteString("block: &block\n")
	for i := range 4000 {
		fmt.Fprintf(&b, "- %s%04d\n", strings.Repeat("ha", 30), i)
	}
	b.WriteString("copies:\n")
	for range copies {
		b.WriteString("- *block\n")
	}
	return b.String()
}

// A copy of a base config is the same tree, and changing any map or list of it leaves the
// cached base as it was: the scalars it shares are never changed in place.
func TestDeepCopy(t *testing.T) {
	base, err := configyaml.Unmarshal([]byte(`providers:
  inference:
  - {provider_id: vllm, config: {url: "${env.VLLM_URL:=}", tls: [a, b]}}
empty_map: {}
empty_list: []
port: 8321
`))
	require.NoError(t, err)
	before, err := configyaml.Marshal(base)
	require.NoError(t, err)
	copied := configyaml.DeepCopy(base).(map[string]any)
	after, err := configyaml.Marshal(copied)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "the copy is the same tree")

	entry := copied["providers"].(map[string]any)["inference"].([]any)[0].(map[string]any)
	entry["provider_id"] = "changed"
	entry["config"].(map[string]any)["tls"].([]any)[0] = "changed"
	copied["providers"].(map[string]any)["inference"] = append(copied["providers"].(map[string]any)["inference"].([]any), "more")
	copied["empty_map"].(map[string]any)["k"] = "v"
	copied["port"] = 1
	unchanged, err := configyaml.Marshal(base)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(unchanged), "the base is untouched")
}

// EachString visits the strings WalkStrings visits, in its order; AnyString finds one.
func TestEachStringIsWalkStringsWithoutPaths(t *testing.T) {
	tree := map[string]any{"b": []any{"x", map[string]any{"d": "y", "c": "z"}, 1}, "a": "w", "e": map[string]any{}}
	var walked, each []string
	configyaml.WalkStrings(tree, func(_ configyaml.Path, s string) { walked = append(walked, s) })
	configyaml.EachString(tree, func(s string) { each = append(each, s) })
	assert.Equal(t, []string{"w", "x", "z", "y"}, walked)
	assert.Equal(t, walked, each)
	assert.True(t, configyaml.AnyString(tree, func(s string) bool { return s == "y" }))
	assert.False(t, configyaml.AnyString(tree, func(s string) bool { return s == "1" }), "a number is no string")
}
