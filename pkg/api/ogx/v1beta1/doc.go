// SPDX-License-Identifier: Apache-2.0

// Package v1beta1 is the successor operator's OGXServer (ogx.io/v1beta1), as llsd reads it:
// Go types with the successor's field names and defaults, its CEL and webhook rules
// (Validate), and where each typed provider's fields go in config.yaml. llsd neither installs
// nor serves this API; it validates OGXServers and renders them for clusters without the
// operator (pkg/api converts them into the LlamaStackDistribution llsd renders).
//
// +kubebuilder:skip
package v1beta1
