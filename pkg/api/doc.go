// SPDX-License-Identifier: Apache-2.0

// Package api reads LlamaStackDistributions as users write them. Decode accepts both API
// versions and the v1alpha2 authoring shorthand, and returns the canonical, defaulted
// v1alpha2 object (the hub) or errors that carry field paths:
//
//	spec:
//	  distribution: {name: starter}
//	  providers:
//	    inference:              # one provider: an object is a list of one
//	      provider: vllm
//	      endpoint: http://vllm:8000/v1
//	  resources:
//	    models: [llama3.2-8b]   # a string is {name: llama3.2-8b}
//	  networking:
//	    expose: true            # a bool is {enabled: true}; {} means enabled too
package api
