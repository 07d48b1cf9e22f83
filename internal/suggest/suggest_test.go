// SPDX-License-Identifier: Apache-2.0

package suggest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNearest(t *testing.T) {
	keys := []string{"base_url", "api_token", "max_tokens", "tls_verify", "allowed_models"}
	for _, tc := range []struct {
		reason, name, want string
		found              bool
	}{
		{"a missing letter", "max_token", "max_tokens", true},
		{"a part of the right name", "url", "base_url", true},
		{"a different case", "Base_URL", "base_url", true},
		{"a swap of two letters", "api_tokne", "api_token", true},
		{"nothing alike", "temperature", "", false},
		{"a short name far from all", "xy", "", false},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got, ok := Nearest(tc.name, keys)
			assert.Equal(t, tc.found, ok, tc.reason)
			if tc.found {
				assert.Equal(t, tc.want, got, tc.reason)
			}
		})
	}
	assert.Equal(t, " (did you mean configMapKeys?)", DidYouMean("configMapKey", []string{"configMapName", "configMapKeys"}))
	assert.Empty(t, DidYouMean("zzz", nil))
}
