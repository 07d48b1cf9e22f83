// SPDX-License-Identifier: Apache-2.0

package render

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/kubeexpand"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// External providers (spec.externalProviders) reach the server as Python packages in a volume
// shared with the server, under providersDir/<id>, and PYTHONPATH lists those directories, so
// that the server imports <module>.provider as config.yaml's module key asks. An image built
// to the provider contract (/lls-provider/lls-provider-spec.yaml and its wheels) has its
// /lls-provider directory copied into the volume by an init container of its own, and an init
// container of the server image installs the wheels with the server's Python (pip install
// --no-deps --no-index --target): the wheels meet the interpreter that imports them. Another
// image has its installed package (pip install --target <path>) copied from its path.

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

// providerCopies are the init containers that put each external provider's package where
// the server imports it from, in spec order.
func providerCopies(in Input) []corev1.Container {
	var out []corev1.Container
	for _, list := range in.Object.Spec.ExternalProviders.APIs() {
		for _, p := range list.Providers {
			target := path.Join(providersDir, p.ProviderID)
			pkg := in.Distribution.ProviderPackages[p.ProviderID]
			if pkg == nil {
				src := cmp.Or(p.Path, defaultProviderPath)
				out = append(out, providerContainer("provider-", p.ProviderID, p.Image, "cp", "-R", kubeexpand.Literal(src)+"/.", target))
				continue
			}
			staged := path.Join(providersDir, ".package-"+p.ProviderID)
			install := []string{"python3", "-m", "pip", "install", "--no-deps", "--no-index", "--no-cache-dir",
				"--disable-pip-version-check", "--target", target}
			for _, wheel := range pkg.Wheels() {
				install = append(install, kubeexpand.Literal(path.Join(staged, strings.TrimPrefix(wheel, oci.ProviderDir+"/"))))
			}
			out = append(out,
				providerContainer("provider-", p.ProviderID, p.Image, "cp", "-R", oci.ProviderDir+"/.", staged),
				providerContainer("install-", p.ProviderID, in.Distribution.Image, install...))
		}
	}
	return out
}

// providerContainer is an init container that works in the providers volume.
func providerContainer(prefix, id, image string, command ...string) corev1.Container {
	return corev1.Container{
		Name:            containerName(prefix, id),
		Image:           image,
		Command:         command,
		SecurityContext: containerSecurityContext(),
		VolumeMounts:    []corev1.VolumeMount{{Name: volumeProviders, MountPath: providersDir}},
	}
}

// containerName is prefix+id, shortened with a hash of id where it would pass the 63
// characters a container name may have (a provider id may have 63 itself).
func containerName(prefix, id string) string {
	if len(prefix+id) <= 63 {
		return prefix + id
	}
	sum := sha256.Sum256([]byte(id))
	return prefix + strings.TrimRight(id[:63-len(prefix)-9], "-") + "-" + hex.EncodeToString(sum[:4])
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
