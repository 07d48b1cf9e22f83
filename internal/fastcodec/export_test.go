// SPDX-License-Identifier: Apache-2.0

package fastcodec

// The fast paths and their references, for the differential tests of package fastcodec_test
// (which reads configs and renders objects through packages that import this one).
var (
	Emit        = emit         // the tree writer alone: ErrUnusual for a tree it leaves to yaml.v3
	EncodeTree  = marshalNodes // yaml.v3's rendering of a tree, which Emit reproduces
	SortNatural = sortNatural
	NaturalLess = naturalLess       // with its ASCII shortcut
	ByRuneLess  = naturalLessByRune // go-yaml v2's comparison, rune by rune
)
