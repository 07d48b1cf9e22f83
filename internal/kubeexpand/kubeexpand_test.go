// SPDX-License-Identifier: Apache-2.0

package kubeexpand_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/kubeexpand"
)

func TestReferences(t *testing.T) {
	for _, tc := range []struct {
		reason, value string
		want          []string
	}{
		{"a reference", "$(A)", []string{"A"}},
		{"references inside text", "x=$(A),y=$(B_2)", []string{"A", "B_2"}},
		{"an escaped reference is text", "$$(A)", nil},
		{"an escaped $ before a reference", "$$$(A)", []string{"A"}},
		{"an unclosed reference is text", "$(A", nil},
		{"a lone $ is text", "$ $x ${A}", nil},
		{"the server's own syntax is no kubelet reference", "${env.A}", nil},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, kubeexpand.References(tc.value), tc.reason)
		})
	}
}

func TestLiteralHasNoReferences(t *testing.T) {
	for _, value := range []string{"$(A)", "$$(A)", "a$", "$(A)$(B", "http://h/$(LLSD_X)?q=$"} {
		assert.Empty(t, kubeexpand.References(kubeexpand.Literal(value)), value)
	}
}
