// SPDX-License-Identifier: Apache-2.0

package v1alpha1

// Default sets the defaults the upstream CRD declares, as the API server would.
func Default(obj *LlamaStackDistribution) {
	if obj.Spec.Replicas == 0 {
		obj.Spec.Replicas = 1
	}
	if obj.Spec.Server.ContainerSpec.Name == "" {
		obj.Spec.Server.ContainerSpec.Name = DefaultContainerName
	}
}
