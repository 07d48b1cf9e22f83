// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LlamaStackDistributionStatus is written by the companion controller from the render
// receipt and the live objects.
type LlamaStackDistributionStatus struct {
	// Phase summarises the conditions.
	// +optional
	Phase DistributionPhase `json:"phase,omitempty"`
	// ObservedGeneration is the metadata.generation the status describes.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions: ConfigGenerated, SecretsResolved, DeploymentUpdated, Available.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ConfigGeneration describes the generated config.yaml.
	// +optional
	ConfigGeneration *ConfigGenerationStatus `json:"configGeneration,omitempty"`
	// ResolvedDistribution is the image and base config the config was generated from.
	// +optional
	ResolvedDistribution *ResolvedDistributionStatus `json:"resolvedDistribution,omitempty"`

	// Version of the operator and server (v1alpha1-compatible).
	// +optional
	Version VersionInfo `json:"version,omitempty"`
	// DistributionConfig as reported by the server (v1alpha1-compatible).
	// +optional
	DistributionConfig DistributionConfig `json:"distributionConfig,omitempty"`
	// AvailableReplicas of the Deployment.
	// +optional
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// ServiceURL is the in-cluster URL of the server.
	// +optional
	ServiceURL string `json:"serviceURL,omitempty"`
	// RouteURL is the external URL when exposed; empty while the Ingress has no address.
	// +optional
	RouteURL *string `json:"routeURL,omitempty"`
}

// DistributionPhase is the phase of a LlamaStackDistribution.
// +kubebuilder:validation:Enum=Pending;Initializing;Ready;Failed;Terminating
type DistributionPhase string

// The phases of a LlamaStackDistribution.
const (
	PhasePending      DistributionPhase = "Pending"
	PhaseInitializing DistributionPhase = "Initializing"
	PhaseReady        DistributionPhase = "Ready"
	PhaseFailed       DistributionPhase = "Failed"
	PhaseTerminating  DistributionPhase = "Terminating"
)

// ConfigGenerationStatus describes the generated config.yaml.
type ConfigGenerationStatus struct {
	// ConfigMapName of the generated, immutable ConfigMap.
	// +optional
	ConfigMapName string `json:"configMapName,omitempty"`
	// GeneratedAt is when the controller first saw this config.
	// +optional
	GeneratedAt metav1.Time `json:"generatedAt,omitempty"`
	// ProviderCount is the number of providers in the config.
	// +optional
	ProviderCount int32 `json:"providerCount,omitempty"`
	// ResourceCount is the number of registered resources in the config.
	// +optional
	ResourceCount int32 `json:"resourceCount,omitempty"`
	// ConfigVersion is the llama-stack server version the config targets.
	// +optional
	ConfigVersion string `json:"configVersion,omitempty"`
}

// ResolvedDistributionStatus is what distribution.name or distribution.image resolved to.
type ResolvedDistributionStatus struct {
	// Image the server runs.
	// +optional
	Image string `json:"image,omitempty"`
	// ConfigSource is where the base config came from: embedded, oci-label, configmap (a
	// base config ConfigMap), override (the user's whole config) or image (the image's own).
	// +optional
	ConfigSource string `json:"configSource,omitempty"`
	// ConfigHash is the sha256 of the generated config.yaml.
	// +optional
	ConfigHash string `json:"configHash,omitempty"`
}

// VersionInfo contains version information (v1alpha1-compatible).
type VersionInfo struct {
	// OperatorVersion is the version of llsd that rendered the objects.
	// +optional
	OperatorVersion string `json:"operatorVersion,omitempty"`
	// LlamaStackServerVersion is the version of the llama-stack server.
	// +optional
	LlamaStackServerVersion string `json:"llamaStackServerVersion,omitempty"`
	// LastUpdated is when the version information was last updated.
	// +optional
	LastUpdated metav1.Time `json:"lastUpdated,omitempty"`
}

// DistributionConfig is the configuration reported by the server (v1alpha1-compatible).
type DistributionConfig struct {
	// ActiveDistribution is the distribution name, or "custom" for an image.
	// +optional
	ActiveDistribution string `json:"activeDistribution,omitempty"`
	// Providers reported by the server.
	// +optional
	Providers []ProviderInfo `json:"providers,omitempty"`
	// AvailableDistributions maps the catalog's names to images.
	// +optional
	AvailableDistributions map[string]string `json:"availableDistributions,omitempty"`
}

// ProviderInfo is one provider reported by the server.
type ProviderInfo struct {
	API          string               `json:"api"`
	ProviderID   string               `json:"provider_id"`
	ProviderType string               `json:"provider_type"`
	Config       apiextensionsv1.JSON `json:"config"`
	Health       ProviderHealthStatus `json:"health"`
}

// ProviderHealthStatus is the health of a provider.
type ProviderHealthStatus struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// LlamaStackDistribution is a llama-stack server: the distribution it runs, the providers
// and resources added to its config.yaml, and how it runs on Kubernetes.
//
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
// +kubebuilder:resource:shortName=llsd
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Phase",type="string",JSONPath=".status.phase"
// +kubebuilder:printcolumn:name="Distribution",type="string",JSONPath=".status.resolvedDistribution.image",priority=1
// +kubebuilder:printcolumn:name="Config",type="string",JSONPath=".status.configGeneration.configMapName",priority=1
// +kubebuilder:printcolumn:name="Providers",type="integer",JSONPath=".status.configGeneration.providerCount"
// +kubebuilder:printcolumn:name="Available",type="integer",JSONPath=".status.availableReplicas"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type LlamaStackDistribution struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   LlamaStackDistributionSpec   `json:"spec"`
	Status LlamaStackDistributionStatus `json:"status,omitempty"`
}

// LlamaStackDistributionList contains a list of LlamaStackDistribution.
//
// +kubebuilder:object:root=true
type LlamaStackDistributionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LlamaStackDistribution `json:"items"`
}

func init() {
	SchemeBuilder.Register(&LlamaStackDistribution{}, &LlamaStackDistributionList{})
}

// Hub marks v1alpha2 as the conversion hub.
func (*LlamaStackDistribution) Hub() {}
