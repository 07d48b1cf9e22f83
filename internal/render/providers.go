// SPDX-License-Identifier: Apache-2.0

package render

import (
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/kubeexpand"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// External providers (spec.externalProviders) reach the server as Python packages: an init
// container from each provider's image copies the installed package (pip install --target
// <path>) into a volume shared with the server, under providersDir/<id>, and PYTHONPATH lists
// those directories, so that the server imports <module>.provider as config.yaml's module
// key asks.

const (
	providersDir        = "/opt/llsd/providers"
	defaultProviderPath = "/opt/provider"
)

func hasExternalProviders(obj *v1alpha2.LlamaStackDistribution) bool {
	for _, list := range obj.Spec.ExternalProviders.APIs() {
		if len(list.Providers) > 0 {
			return true
		}
	}
	return false
}

// providerCopies are the init containers that copy each external provider's package.
func providerCopies(in Input) []corev1.Container {
	var out []corev1.Container
	for _, list := range in.Object.Spec.ExternalProviders.APIs() {
		for _, p := range list.Providers {
			src := p.Path
			if src == "" {
				src = defaultProviderPath
			}
			out = append(out, corev1.Container{
				Name:            "provider-" + p.ProviderID,
				Image:           p.Image,
				Command:         []string{"cp", "-R", kubeexpand.Literal(src) + "/.", path.Join(providersDir, p.ProviderID)},
				SecurityContext: containerSecurityContext(),
				VolumeMounts:    []corev1.VolumeMount{{Name: volumeProviders, MountPath: providersDir}},
			})
		}
	}
	return out
}

// providersPath is the server's PYTHONPATH: each external provider's directory, in spec order.
func providersPath(obj *v1alpha2.LlamaStackDistribution) string {
	var dirs []string
	for _, list := range obj.Spec.ExternalProviders.APIs() {
		for _, p := range list.Providers {
			dirs = append(dirs, path.Join(providersDir, p.ProviderID))
		}
	}
	return strings.Join(dirs, ":")
}
