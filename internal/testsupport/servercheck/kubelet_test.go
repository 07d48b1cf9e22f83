// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The cases of the kubelet's own expansion tests that matter here
// (third_party/forked/golang/expansion/expand_test.go).
func TestKubeletExpand(t *testing.T) {
	env := map[string]string{"VAR_A": "A", "VAR_EMPTY": ""}
	for _, tc := range []struct{ in, want string }{
		{in: "$(VAR_A)", want: "A"},
		{in: "___$(VAR_A)___", want: "___A___"},
		{in: "$(VAR_EMPTY)", want: ""},
		{in: "$(UNKNOWN)", want: "$(UNKNOWN)"},
		{in: "$$(VAR_A)", want: "$(VAR_A)"},
		{in: "$$$(VAR_A)", want: "$A"},
		{in: "$(VAR_A", want: "$(VAR_A"},
		{in: "$VAR_A", want: "$VAR_A"},
		{in: "$", want: "$"},
		{in: "$$", want: "$"},
		{in: "${VAR_A}", want: "${VAR_A}"},
	} {
		assert.Equal(t, tc.want, KubeletExpand(tc.in, env), tc.in)
	}
}
