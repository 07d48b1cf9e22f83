// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/testsupport/yamlbomb"
)

// ReadResourceList gives what fn.ParseResourceList gives, from one read of the input: the
// same items, function config and results, or the same error.
func TestReadResourceListIsTheSDKs(t *testing.T) {
	for _, tc := range []struct{ reason, input string }{
		{"items and a function config", `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap # a comment stays
  metadata: {name: a, annotations: {x: "1"}}
  data: {k: v}
- {apiVersion: llamastack.io/v1alpha2, kind: LlamaStackDistribution, metadata: {name: s}, spec: {distribution: {name: starter}}}
functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}, data: {a: b}}
`},
		{"no function config (kpt fn render)", "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: [{kind: ConfigMap}]\n"},
		{"no items (generator mode)", "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig: {kind: ConfigMap}\n"},
		{"empty items", "kind: ResourceList\nitems: []\n"},
		{"results, which the SDK decodes", "kind: ResourceList\nitems: []\nresults: [{message: hi, severity: info, tags: {a: b}}]\n"},
		{"results in the old form", "kind: ResourceList\nresults: {items: [{message: hi}]}\n"},
		{"empty input", ""},
		{"another kind", "kind: ConfigMap\n"},
		{"two documents", "kind: ResourceList\n---\nkind: ResourceList\n"},
		{"a leading empty document", "---\n---\nkind: ResourceList\nitems: [{kind: ConfigMap}]\n"},
		{"a syntax error", "kind: ResourceList\nitems: [\n"},
		{"an item that is no mapping", "kind: ResourceList\nitems: [a]\n"},
		{"items that are no list", "kind: ResourceList\nitems: {a: b}\n"},
		{"a function config that is no mapping", "kind: ResourceList\nfunctionConfig: a\n"},
		{"a key written twice", "kind: ResourceList\nitems: [{kind: A}]\nitems: [{kind: B}]\n"},
		{"a kind that is a number", "kind: 1\n"},
		{"a kind written as a tagged string", "kind: !!str ResourceList\nitems: [{kind: A}]\n"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			want, wantErr := fn.ParseResourceList([]byte(tc.input))
			got, err := krm.ReadResourceList([]byte(tc.input))
			if wantErr != nil {
				require.Error(t, err, tc.reason)
				assert.Equal(t, wantErr.Error(), err.Error(), tc.reason)
				return
			}
			require.NoError(t, err, tc.reason)
			assert.Equal(t, resourceListText(t, want), resourceListText(t, got), tc.reason)
		})
	}
}

// resourceListText is everything of a ResourceList a function reads and writes.
func resourceListText(t *testing.T, rl *fn.ResourceList) string {
	t.Helper()
	out, err := rl.ToYAML()
	require.NoError(t, err)
	return string(out) + "functionConfig: " + rl.FunctionConfig.String()
}

// An input a reader would take time quadratic in is refused before it is read into objects,
// results too (fn.ParseResourceList decodes them into maps, checking each key against the
// others: 200,000 tags took over two minutes); so is one whose aliases expand it past what an
// object holds, before anything expands them.
func TestReadResourceListRefuses(t *testing.T) {
	for _, tc := range []struct{ reason, input, want string }{
		{"items over the limit", resourceList(krm.MaxDocuments + 1), "more than 20000 documents"},
		{"annotations over the limit", "kind: ResourceList\nitems:\n- " + strings.ReplaceAll(withMetadata("annotations", krm.MaxMetadataKeys+1), "\n", "\n  "),
			"has 257 annotations"},
		{"a result's tags over the limit", "kind: ResourceList\nresults:\n- message: hi\n  tags:\n" + keys("    ", krm.MaxSpecMapKeys+1),
			"the ResourceList has 4097 keys at results[0].tags, more than 4096"},
		{"an object whose aliases expand past what an object holds", "kind: ResourceList\nitems:\n- {kind: ConfigMap, metadata: {name: x}, data: {" + yamlbomb.Laughs(9) + "}}\n",
			"object 1: its aliases (*name) expand it to more than 1 MiB or 100000 nodes"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, err := krm.ReadResourceList([]byte(tc.input))
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
}

// FuzzReadResourceList holds ReadResourceList to fn.ParseResourceList of the input with its
// aliases expanded, on any input within the bounds: the same ResourceList or the same error
// (where the SDK panics, ReadResourceList returns an error or panics too; it never returns a
// ResourceList the SDK would not).
func FuzzReadResourceList(f *testing.F) {
	f.Add("kind: ResourceList\nitems: [{kind: ConfigMap, metadata: {name: a}}]\nfunctionConfig: {kind: ConfigMap}\n")
	f.Add("kind: ResourceList\nitems: [&a {kind: A}, *a]\nresults: [{message: hi}]\n")
	f.Add("---\nkind: ResourceList\n---\n")
	f.Fuzz(func(t *testing.T, input string) {
		expanded, err := krm.ExpandAliases([]byte(input))
		if err != nil {
			_, err := krm.ReadResourceList([]byte(input))
			assert.ErrorIs(t, err, krm.ErrTooMany, "aliases past their bounds are refused")
			return
		}
		want, sdkPanicked, wantErr := parseBySDK(string(expanded)) // what kustomize would pass
		got, err := func() (rl *fn.ResourceList, err error) {
			defer func() {
				if r := recover(); r != nil && sdkPanicked {
					rl, err = nil, nil
				} else if r != nil {
					panic(r)
				}
			}()
			return krm.ReadResourceList([]byte(input))
		}()
		switch {
		case sdkPanicked:
			assert.Nil(t, got, "the SDK panics on this input")
		case err != nil && (wantErr == nil || err.Error() != wantErr.Error()):
			assert.ErrorIs(t, err, krm.ErrTooMany, "an error of its own is a refused bound")
		case wantErr != nil:
			assert.EqualError(t, err, wantErr.Error())
		default:
			require.NoError(t, err)
			assert.Equal(t, resourceListText(t, want), resourceListText(t, got))
		}
	})
}

// parseBySDK is fn.ParseResourceList, and whether it panicked.
func parseBySDK(input string) (rl *fn.ResourceList, panicked bool, err error) {
	defer func() {
		if recover() != nil {
			panicked = true
		}
	}()
	rl, err = fn.ParseResourceList([]byte(input))
	return rl, false, err
}

// Aliases are expanded before anything reads the objects, as kustomize expands them: the
// ResourceList kpt passes (aliases as written) gives the objects kustomize's would, and the SDK,
// which panics on an alias where it looks a field up, never sees one.
func TestReadResourceListExpandsAliases(t *testing.T) {
	for _, tc := range []struct{ reason, input, expanded string }{
		{"the metadata the SDK reads", "kind: ResourceList\nitems:\n- {kind: ConfigMap, metadata: {name: &n x, namespace: *n}}\n",
			"kind: ResourceList\nitems:\n- {kind: ConfigMap, metadata: {name: x, namespace: x}}\n"},
		{"a spec across items", "kind: ResourceList\nitems:\n- {kind: A, spec: &s {a: 1}}\n- {kind: B, spec: *s}\n",
			"kind: ResourceList\nitems:\n- {kind: A, spec: {a: 1}}\n- {kind: B, spec: {a: 1}}\n"},
		{"a function config", "kind: ResourceList\nx: &a {kind: ConfigMap, data: {k: v}}\nfunctionConfig: *a\n",
			"kind: ResourceList\nx: {kind: ConfigMap, data: {k: v}}\nfunctionConfig: {kind: ConfigMap, data: {k: v}}\n"},
		{"an item used again", "kind: ResourceList\nitems: [&a {kind: A}, *a]\n", "kind: ResourceList\nitems: [{kind: A}, {kind: A}]\n"},
		{"a merge key (its keys after the mapping's own, as kustomize merges them)", "kind: ResourceList\nitems:\n- {kind: A, x: &m {a: 1}, y: {<<: *m, b: 2}}\n",
			"kind: ResourceList\nitems:\n- {kind: A, x: {a: 1}, y: {b: 2, a: 1}}\n"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			want, err := fn.ParseResourceList([]byte(tc.expanded))
			require.NoError(t, err)
			got, err := krm.ReadResourceList([]byte(tc.input))
			require.NoError(t, err, tc.reason)
			assert.Equal(t, resourceListText(t, want), resourceListText(t, got), tc.reason)
		})
	}
}
