// SPDX-License-Identifier: Apache-2.0

package v1alpha2

// bounds are the OpenAPI constraints of one field of the schema (zz_generated.bounds.go has
// them for every field, as the markers on the types say).
//
// +kubebuilder:object:generate=false
type bounds struct {
	required                     bool
	minLength, maxLength         *int64
	pattern                      string
	enum                         []string
	minimum, maximum             *int64
	minItems, maxItems           *int64
	minProperties, maxProperties *int64
	listType                     string
	listMapKeys                  []string
	items                        *bounds
}

func limit(n int64) *int64 { return &n }
