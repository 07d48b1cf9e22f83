// SPDX-License-Identifier: Apache-2.0

package review

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A provider's address is its host, never the user information an address may carry (a config
// of someone's own, compared as live objects, is not held to llsd's rules).
func TestProviderAddressesCarryNoCredential(t *testing.T) {
	config := map[string]any{"providers": map[string]any{"inference": []any{
		map[string]any{"provider_id": "url", "provider_type": "remote::vllm", "config": map[string]any{"base_url": "http://llsd:hunter2@vllm.models:8000/v1"}},
		map[string]any{"provider_id": "bare", "provider_type": "remote::vllm", "config": map[string]any{"base_url": "llsd:hunter2@vllm.other:8000"}},
		map[string]any{"provider_id": "env", "provider_type": "remote::vllm", "config": map[string]any{"base_url": "${env.VLLM_URL}"}},
	}}}
	assert.Equal(t, map[string]string{"inference/url": "vllm.models:8000", "inference/bare": "vllm.other:8000"}, providerAddresses(config))
}
