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
		{reason: "a reference", value: "$(A)", want: []string{"A"}},
		{reason: "references inside text", value: "x=$(A),y=$(B_2)", want: []string{"A", "B_2"}},
		{reason: "an escaped reference is text", value: "$$(A)", want: nil},
		{reason: "an escaped $ before a reference", value: "$$$(A)", want: []string{"A"}},
		{reason: "an unclosed reference is text", value: "$(A", want: nil},
		{reason: "a lone $ is text", value: "$ $x ${A}", want: nil},
		{reason: "the server's own syntax is no kubelet reference", value: "${env.A}", want: nil},
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
