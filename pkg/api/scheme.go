// SPDX-License-Identifier: Apache-2.0

package api

import (
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// NewScheme returns a scheme with both versions of LlamaStackDistribution.
func NewScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	utilruntime.Must(v1alpha2.AddToScheme(scheme))
	return scheme
}
