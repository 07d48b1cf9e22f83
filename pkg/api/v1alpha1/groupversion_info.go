// SPDX-License-Identifier: Apache-2.0

// Package v1alpha1 is the upstream llama-stack-k8s-operator API, field for field, so that
// existing LlamaStackDistribution objects decode unchanged. It is served but not stored:
// the API server converts it to and from v1alpha2 through llsd's conversion webhook.
//
// +kubebuilder:object:generate=true
// +groupName=llamastack.io
package v1alpha1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of this API.
	GroupVersion = schema.GroupVersion{Group: "llamastack.io", Version: "v1alpha1"}

	// SchemeBuilder registers this version's types with a runtime.Scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds this version's types to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)
