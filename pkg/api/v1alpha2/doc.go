// SPDX-License-Identifier: Apache-2.0

// Package v1alpha2 is llsd's LlamaStackDistribution API: the hub and storage version.
//
// A short v1alpha2 object is all a user writes:
//
//	apiVersion: llamastack.io/v1alpha2
//	kind: LlamaStackDistribution
//	metadata:
//	  name: my-stack
//	spec:
//	  distribution:
//	    name: starter
//	  providers:
//	    inference:
//	      - provider: vllm
//	        endpoint: http://vllm:8000/v1
//	  resources:
//	    models:
//	      - name: llama3.2-8b
//
// The types here are the canonical, fully typed form stored by the API server. The
// authoring shorthand (a provider as a single object, a model as a string, expose as a
// bool) is accepted by [Decode] and rewritten into this form.
//
// +kubebuilder:object:generate=true
// +groupName=llamastack.io
package v1alpha2
