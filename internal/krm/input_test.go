// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/krm"
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
		{"an anchored item used again", "kind: ResourceList\nitems: [&a {kind: A}, *a]\n"},
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
// others: 200,000 tags took over two minutes); aliases where the SDK looks up a field are
// refused where the SDK panics.
func TestReadResourceListRefuses(t *testing.T) {
	for _, tc := range []struct{ reason, input, want string }{
		{"items over the limit", resourceList(krm.MaxDocuments + 1), "more than 20000 documents"},
		{"annotations over the limit", "kind: ResourceList\nitems:\n- " + strings.ReplaceAll(withMetadata("annotations", krm.MaxMetadataKeys+1), "\n", "\n  "),
			"has 257 annotations"},
		{"a result's tags over the limit", "kind: ResourceList\nresults:\n- message: hi\n  tags:\n" + keys("    ", krm.MaxSpecMapKeys+1),
			"the ResourceList has 4097 keys at results[0].tags, more than 4096"},
		{"a function config that is an alias", "kind: ResourceList\nx: &a {kind: ConfigMap}\nfunctionConfig: *a\n",
			"reading the ResourceList: functionConfig is an alias (*a): write the value out in its place"},
		{"results that are an alias", "kind: ResourceList\nx: &r [{message: hi}]\nresults: *r\n", "results is an alias (*r)"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, err := krm.ReadResourceList([]byte(tc.input))
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
}

// FuzzReadResourceList holds ReadResourceList to fn.ParseResourceList on any input within the
// bounds: the same ResourceList or the same error (where the SDK panics, ReadResourceList
// returns an error or panics too; it never returns a ResourceList the SDK would not).
func FuzzReadResourceList(f *testing.F) {
	f.Add("kind: ResourceList\nitems: [{kind: ConfigMap, metadata: {name: a}}]\nfunctionConfig: {kind: ConfigMap}\n")
	f.Add("kind: ResourceList\nitems: [&a {kind: A}, *a]\nresults: [{message: hi}]\n")
	f.Add("---\nkind: ResourceList\n---\n")
	f.Fuzz(func(t *testing.T, input string) {
		want, sdkPanicked, wantErr := parseBySDK(input)
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
