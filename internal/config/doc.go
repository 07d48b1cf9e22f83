// SPDX-License-Identifier: Apache-2.0

// Package config generates a server's config.yaml from a LlamaStackDistribution.
//
// It is pure: a defaulted, validated v1alpha2 object and its resolved distribution (image,
// server profile, base config) go in; the config.yaml bytes, the container environment
// (secrets as secretKeyRefs, never values), the start-up launcher when the pod must split
// a storage secret, and counts come out. What differs between server versions is read from
// the profile (internal/profile), never decided here by comparing versions. For
//
//	spec:
//	  distribution: {name: starter}
//	  providers:
//	    inference: {provider: vllm, endpoint: http://vllm:8000/v1, apiKey: {secretKeyRef: {name: vllm, key: token}}}
//	  resources:
//	    models: [llama3]
//
// the starter's base config keeps every provider it has, and its vllm entry becomes
//
//	inference:
//	  - provider_id: vllm
//	    provider_type: remote::vllm
//	    config: {base_url: http://vllm:8000/v1, api_token: "${env.LLSD_VLLM_API_KEY}"}
//
// the container gets LLSD_VLLM_API_KEY from the Secret, and llama3 is registered with vllm.
package config
