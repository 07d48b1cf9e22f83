// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/scheme"
)

var (
	// GroupVersion is the group and version of this API.
	GroupVersion = schema.GroupVersion{Group: "llamastack.io", Version: "v1alpha2"}

	// SchemeBuilder registers this version's types with a runtime.Scheme.
	SchemeBuilder = &scheme.Builder{GroupVersion: GroupVersion}

	// AddToScheme adds this version's types to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Kind is the kind of the API's one resource.
const Kind = "LlamaStackDistribution"
