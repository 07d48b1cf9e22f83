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
		{reason: "a missing letter", name: "max_token", want: "max_tokens", found: true},
		{reason: "a part of the right name", name: "url", want: "base_url", found: true},
		{reason: "a different case", name: "Base_URL", want: "base_url", found: true},
		{reason: "a swap of two letters", name: "api_tokne", want: "api_token", found: true},
		{reason: "nothing alike", name: "temperature", want: "", found: false},
		{reason: "a short name far from all", name: "xy", want: "", found: false},
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
