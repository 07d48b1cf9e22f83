// SPDX-License-Identifier: Apache-2.0

// Package v1alpha1 is the upstream llama-stack-k8s-operator API, field for field, so that
// existing LlamaStackDistribution objects decode unchanged. It is served but not stored:
// the API server converts it to and from v1alpha2 through llsd's conversion webhook.
//
// +kubebuilder:object:generate=true
// +groupName=llamastack.io
package v1alpha1
