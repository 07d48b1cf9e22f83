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

// A config llsd did not write (a live ConfigMap, compared as objects) may hold anything where a
// provider or a model is: what is not an object is passed over, never a panic.
func TestConfigEntriesThatAreNoObjects(t *testing.T) {
	config := map[string]any{
		"providers":            map[string]any{"inference": []any{"vllm", map[string]any{"provider_id": "openai"}}, "files": "none"},
		"registered_resources": map[string]any{"models": []any{"granite", map[string]any{"model_id": "llama", "provider_id": "openai"}}},
	}
	assert.Equal(t, []string{"inference/openai"}, providerIDs(config))
	assert.Equal(t, []string{"llama"}, ids(config))
	assert.Equal(t, []string{"openai/llama"}, qualifiedModels(config))
}
