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
		{"$(VAR_A)", "A"},
		{"___$(VAR_A)___", "___A___"},
		{"$(VAR_EMPTY)", ""},
		{"$(UNKNOWN)", "$(UNKNOWN)"},
		{"$$(VAR_A)", "$(VAR_A)"},
		{"$$$(VAR_A)", "$A"},
		{"$(VAR_A", "$(VAR_A"},
		{"$VAR_A", "$VAR_A"},
		{"$", "$"},
		{"$$", "$"},
		{"${VAR_A}", "${VAR_A}"},
	} {
		assert.Equal(t, tc.want, KubeletExpand(tc.in, env), tc.in)
	}
}
