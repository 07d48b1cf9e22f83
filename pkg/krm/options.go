// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/suggest"
	"github.com/llamastack/llsd/pkg/distribution"
	"github.com/llamastack/llsd/pkg/oci"
	"github.com/llamastack/llsd/pkg/pipeline"
	"github.com/llamastack/llsd/pkg/render"
)

// Render options are a function config of this group and kind:
//
//	apiVersion: fn.llamastack.io/v1alpha1
//	kind: RenderOptions
//	metadata: {name: llsd}
//	spec:
//	  imageOverrides: {starter: registry.internal/llamastack/distribution-starter:0.7.1}
//	  ingress: {className: nginx, domain: apps.example.com, controllerNamespace: ingress-nginx}
//	  registry: {enabled: false, insecureHosts: []}
const (
	OptionsAPIVersion = "fn.llamastack.io/v1alpha1"
	OptionsKind       = "RenderOptions"
)

// RenderOptions is the function config that tunes a render.
type RenderOptions struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   map[string]any    `json:"metadata,omitempty"`
	Spec       RenderOptionsSpec `json:"spec"`
}

// RenderOptionsSpec are the options.
type RenderOptionsSpec struct {
	// ImageOverrides maps distribution names to images (mirrors, air-gapped registries).
	ImageOverrides map[string]string `json:"imageOverrides,omitempty"`
	Ingress        IngressOptions    `json:"ingress,omitempty"`
	Registry       RegistryOptions   `json:"registry,omitempty"`
}

// IngressOptions shape the Ingress and NetworkPolicy of exposed servers.
type IngressOptions struct {
	ClassName           string `json:"className,omitempty"`
	Domain              string `json:"domain,omitempty"`
	ControllerNamespace string `json:"controllerNamespace,omitempty"`
}

// RegistryOptions allow reading base configs from image labels (pkg/oci). Off by default:
// an offline render never touches the network.
type RegistryOptions struct {
	// Enabled reads each distribution image's config labels; they take precedence over the
	// embedded configs. Results are cached by digest in $LLSD_CACHE_DIR or ~/.cache/llsd/oci.
	Enabled bool `json:"enabled,omitempty"`
	// InsecureHosts are registries (host:port) reached over plain HTTP.
	InsecureHosts []string `json:"insecureHosts,omitempty"`
}

// ParseOptions reads a RenderOptions document strictly: a misspelled option is an error,
// not ignored.
func ParseOptions(data []byte) (RenderOptions, error) {
	var o RenderOptions
	if err := yaml.UnmarshalStrict(data, &o); err != nil {
		return o, fmt.Errorf("%s %s: %v", OptionsKind, OptionsAPIVersion, err)
	}
	return o, o.Validate()
}

// Validate refuses options that would render objects the API server rejects, and image
// overrides of distributions the catalog does not have (a typo would be ignored).
func (o RenderOptions) Validate() error {
	var problems []string
	check := func(field, value string, rule func(string) []string) {
		if value == "" {
			return
		}
		for _, p := range rule(value) {
			problems = append(problems, fmt.Sprintf("spec.%s %q: %s", field, value, p))
		}
	}
	check("ingress.domain", o.Spec.Ingress.Domain, k8svalidation.IsDNS1123Subdomain)
	check("ingress.className", o.Spec.Ingress.ClassName, k8svalidation.IsDNS1123Subdomain)
	check("ingress.controllerNamespace", o.Spec.Ingress.ControllerNamespace, k8svalidation.IsDNS1123Label)
	for _, name := range slices.Sorted(maps.Keys(o.Spec.ImageOverrides)) {
		if !slices.Contains(distribution.Names(), name) {
			problems = append(problems, fmt.Sprintf("spec.imageOverrides[%s]: no distribution has this name%s: use one of %s",
				name, suggest.DidYouMean(name, distribution.Names()), strings.Join(distribution.Names(), ", ")))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s %s: %s", OptionsKind, OptionsAPIVersion, strings.Join(problems, "; "))
	}
	return nil
}

// PipelineOptions turns render options into the pipeline's.
func (o RenderOptions) PipelineOptions(version string) pipeline.Options {
	dist := distribution.Options{ImageOverrides: o.Spec.ImageOverrides}
	if o.Spec.Registry.Enabled {
		dist.Labels = &oci.Client{InsecureHosts: o.Spec.Registry.InsecureHosts, Cache: &oci.Cache{Dir: oci.DefaultCacheDir()}}
	}
	return pipeline.Options{
		Distribution: dist,
		Render: render.Options{
			IngressClassName:           o.Spec.Ingress.ClassName,
			IngressDomain:              o.Spec.Ingress.Domain,
			IngressControllerNamespace: o.Spec.Ingress.ControllerNamespace,
		},
		RendererVersion: version,
	}
}
