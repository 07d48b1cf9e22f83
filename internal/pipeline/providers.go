// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// providerPackages reads what the images of the external providers that do not name their
// module and provider type say of themselves (/lls-provider/lls-provider-spec.yaml): the
// module, type and API the config needs, and the wheels the pod installs. A provider whose
// spec names both is an image without the file: its package is copied from its path.
func providerPackages(obj *v1alpha2.LlamaStackDistribution, reader oci.ProviderReader) (map[string]*oci.ProviderPackage, field.ErrorList) {
	var out map[string]*oci.ProviderPackage
	var errs field.ErrorList
	for _, list := range obj.Spec.ExternalProviders.APIs() {
		for i, ref := range list.Providers {
			if ref.Module != "" && ref.ProviderType != "" {
				continue
			}
			path := field.NewPath("spec", "externalProviders", string(list.Name)).Index(i).Child("image")
			if reader == nil {
				reader = oci.OfflineCache{Cache: &oci.Cache{Dir: oci.DefaultCacheDir()}}
			}
			p, err := reader.ProviderPackage(ref.Image)
			if err != nil {
				errs = append(errs, field.Invalid(path, redact.URL(ref.Image), redact.Text(err.Error())))
				continue
			}
			if out == nil {
				out = map[string]*oci.ProviderPackage{}
			}
			out[ref.ProviderID] = p
		}
	}
	return out, errs
}
