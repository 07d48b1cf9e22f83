// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Defaults of the upstream operator, kept so converted objects mean the same thing.
const (
	DefaultContainerName   = "llama-stack"
	DefaultServerPort      = int32(8321)
	DefaultServicePortName = "http"
	DefaultMountPath       = "/.llama"
	DefaultCABundleKey     = "ca-bundle.crt"
)

// DefaultStorageSize is the PVC size used when storage.size is not set.
var DefaultStorageSize = resource.MustParse("10Gi")

// LlamaStackDistributionSpec defines the desired state of LlamaStackDistribution.
type LlamaStackDistributionSpec struct {
	// Replicas is the number of server pods.
	// +kubebuilder:default:=1
	// +kubebuilder:validation:Minimum=0
	Replicas int32 `json:"replicas,omitempty"`
	// Server configures the llama-stack server.
	Server ServerSpec `json:"server"`
	// Network configures how the server is reached.
	// +optional
	Network *NetworkSpec `json:"network,omitempty"`
}

// ServerSpec defines the desired state of the llama-stack server.
type ServerSpec struct {
	// Distribution selects the server image, by name or directly.
	Distribution DistributionType `json:"distribution"`
	// ContainerSpec configures the server container.
	// +optional
	ContainerSpec ContainerSpec `json:"containerSpec,omitempty"`
	// Workers is the number of uvicorn workers.
	// +kubebuilder:validation:Minimum=1
	// +optional
	Workers *int32 `json:"workers,omitempty"`
	// PodOverrides allows pod-level customization.
	// +optional
	PodOverrides *PodOverrides `json:"podOverrides,omitempty"`
	// PodDisruptionBudget configures the PodDisruptionBudget of the server pods.
	// +optional
	PodDisruptionBudget *PodDisruptionBudgetSpec `json:"podDisruptionBudget,omitempty"`
	// TopologySpreadConstraints spread the server pods.
	// +optional
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	// Autoscaling configures a HorizontalPodAutoscaler.
	// +optional
	Autoscaling *AutoscalingSpec `json:"autoscaling,omitempty"`
	// Storage defines the persistent storage configuration.
	// +optional
	Storage *StorageSpec `json:"storage,omitempty"`
	// UserConfig replaces the distribution's config.yaml with a user ConfigMap.
	// +optional
	UserConfig *UserConfigSpec `json:"userConfig,omitempty"`
	// TLSConfig configures outbound trust (CA bundle).
	// +optional
	TLSConfig *TLSConfig `json:"tlsConfig,omitempty"`
}

// DistributionType defines the distribution configuration for llama-stack.
// +kubebuilder:validation:XValidation:rule="!(has(self.name) && has(self.image))",message="Only one of name or image can be specified"
// +kubebuilder:validation:XValidation:rule="has(self.name) || has(self.image)",reason="FieldValueRequired",message="one of name or image is required: set name (for example starter) or image"
type DistributionType struct {
	// Name is the distribution name that maps to supported distributions.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name,omitempty"`
	// Image is the direct container image reference to use.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	Image string `json:"image,omitempty"`
}

// ContainerSpec defines the llama-stack server container configuration.
type ContainerSpec struct {
	// Name of the container.
	// +kubebuilder:default:="llama-stack"
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name,omitempty"`
	// Port the server listens on; 8321 when unset (0).
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=65535
	Port int32 `json:"port,omitempty"`
	// Resources of the container.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	// Env adds environment variables to the container.
	// +optional
	// +listType=map
	// +listMapKey=name
	Env []corev1.EnvVar `json:"env,omitempty"`
	// Command overrides the image entrypoint.
	// +optional
	Command []string `json:"command,omitempty"`
	// Args overrides the image arguments.
	// +optional
	Args []string `json:"args,omitempty"`
}

// PodOverrides allows advanced pod-level customization.
type PodOverrides struct {
	// ServiceAccountName replaces the generated ServiceAccount.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// TerminationGracePeriodSeconds of the server pods.
	// +optional
	// +kubebuilder:validation:Minimum=0
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// Volumes added to the pod.
	// +optional
	Volumes []corev1.Volume `json:"volumes,omitempty"`
	// VolumeMounts added to the server container.
	// +optional
	VolumeMounts []corev1.VolumeMount `json:"volumeMounts,omitempty"`
}

// PodDisruptionBudgetSpec configures the PodDisruptionBudget.
// +kubebuilder:validation:XValidation:rule="!(has(self.minAvailable) && has(self.maxUnavailable))",reason="FieldValueForbidden",message="minAvailable and maxUnavailable are mutually exclusive: set one"
// +kubebuilder:validation:XValidation:rule="has(self.minAvailable) || has(self.maxUnavailable)",reason="FieldValueRequired",message="set one of minAvailable or maxUnavailable (maxUnavailable: 1 keeps node drains working with one replica)"
type PodDisruptionBudgetSpec struct {
	// MinAvailable pods during a voluntary disruption.
	// +optional
	MinAvailable *intstr.IntOrString `json:"minAvailable,omitempty"`
	// MaxUnavailable pods during a voluntary disruption.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
}

// AutoscalingSpec configures a HorizontalPodAutoscaler.
// +kubebuilder:validation:XValidation:rule="!has(self.minReplicas) || self.maxReplicas >= self.minReplicas",fieldPath=".maxReplicas",message="maxReplicas must be greater than or equal to minReplicas"
type AutoscalingSpec struct {
	// MinReplicas of the autoscaler.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MinReplicas *int32 `json:"minReplicas,omitempty"`
	// MaxReplicas of the autoscaler.
	// +kubebuilder:validation:Minimum=1
	MaxReplicas int32 `json:"maxReplicas"`
	// TargetCPUUtilizationPercentage is the average CPU utilization to aim for.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	TargetCPUUtilizationPercentage *int32 `json:"targetCPUUtilizationPercentage,omitempty"`
	// TargetMemoryUtilizationPercentage is the average memory utilization to aim for.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	TargetMemoryUtilizationPercentage *int32 `json:"targetMemoryUtilizationPercentage,omitempty"`
}

// StorageSpec defines the persistent storage configuration.
type StorageSpec struct {
	// Size of the PersistentVolumeClaim; 10Gi when unset.
	// +optional
	Size *resource.Quantity `json:"size,omitempty"`
	// MountPath of the volume in the container; /.llama when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/`
	MountPath string `json:"mountPath,omitempty"`
}

// UserConfigSpec names a ConfigMap whose config.yaml replaces the distribution's.
type UserConfigSpec struct {
	// ConfigMapName is the name of the ConfigMap containing user configuration.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ConfigMapName string `json:"configMapName"`
	// ConfigMapNamespace is the namespace of the ConfigMap (defaults to the CR's namespace).
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	ConfigMapNamespace string `json:"configMapNamespace,omitempty"`
}

// TLSConfig defines the TLS configuration for the llama-stack server.
type TLSConfig struct {
	// CABundle defines the CA bundle configuration for custom certificates.
	// +optional
	CABundle *CABundleConfig `json:"caBundle,omitempty"`
}

// CABundleConfig defines the CA bundle configuration for custom certificates.
type CABundleConfig struct {
	// ConfigMapName is the name of the ConfigMap containing CA bundle certificates.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ConfigMapName string `json:"configMapName"`
	// ConfigMapNamespace is the namespace of the ConfigMap (defaults to the CR's namespace).
	// +optional
	// +kubebuilder:validation:MaxLength=63
	ConfigMapNamespace string `json:"configMapNamespace,omitempty"`
	// ConfigMapKeys are the keys holding certificates; ca-bundle.crt when unset.
	// +optional
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:Pattern="^[a-zA-Z0-9]([a-zA-Z0-9\\-_.]*[a-zA-Z0-9])?$"
	// +kubebuilder:validation:items:MaxLength=253
	ConfigMapKeys []string `json:"configMapKeys,omitempty"`
}

// NetworkSpec configures how the server is reached.
type NetworkSpec struct {
	// ExposeRoute creates an Ingress for the server.
	// +kubebuilder:default:=false
	// +optional
	ExposeRoute bool `json:"exposeRoute,omitempty"`
	// AllowedFrom restricts which namespaces may reach the server.
	// +optional
	AllowedFrom *AllowedFromSpec `json:"allowedFrom,omitempty"`
}

// AllowedFromSpec lists the namespaces allowed to reach the server.
type AllowedFromSpec struct {
	// Namespaces allowed by name; "*" allows every namespace.
	// +optional
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=63
	Namespaces []string `json:"namespaces,omitempty"`
	// Labels are namespace label keys; a namespace carrying any of them is allowed.
	// +optional
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=317
	// +kubebuilder:validation:items:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?(=([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?)?$`
	Labels []string `json:"labels,omitempty"`
}

// ProviderHealthStatus represents the health status of a provider.
type ProviderHealthStatus struct {
	Status  string `json:"status"`
	Message string `json:"message"`
}

// ProviderInfo represents a single provider from the server's providers endpoint.
type ProviderInfo struct {
	API          string               `json:"api"`
	ProviderID   string               `json:"provider_id"`
	ProviderType string               `json:"provider_type"`
	Config       apiextensionsv1.JSON `json:"config"`
	Health       ProviderHealthStatus `json:"health"`
}

// DistributionConfig represents the configuration reported by the server.
type DistributionConfig struct {
	// ActiveDistribution shows which distribution is currently being used.
	ActiveDistribution string `json:"activeDistribution,omitempty"`
	// Providers reported by the server.
	Providers []ProviderInfo `json:"providers,omitempty"`
	// AvailableDistributions lists all available distributions and their images.
	AvailableDistributions map[string]string `json:"availableDistributions,omitempty"`
}

// DistributionPhase represents the current phase of the LlamaStackDistribution.
// +kubebuilder:validation:Enum=Pending;Initializing;Ready;Failed;Terminating
type DistributionPhase string

// The phases of a LlamaStackDistribution.
const (
	LlamaStackDistributionPhasePending      DistributionPhase = "Pending"
	LlamaStackDistributionPhaseInitializing DistributionPhase = "Initializing"
	LlamaStackDistributionPhaseReady        DistributionPhase = "Ready"
	LlamaStackDistributionPhaseFailed       DistributionPhase = "Failed"
	LlamaStackDistributionPhaseTerminating  DistributionPhase = "Terminating"
)

// VersionInfo contains version-related information.
type VersionInfo struct {
	// OperatorVersion is the version of the operator managing this distribution.
	OperatorVersion string `json:"operatorVersion,omitempty"`
	// LlamaStackServerVersion is the version of the llama-stack server.
	LlamaStackServerVersion string `json:"llamaStackServerVersion,omitempty"`
	// LastUpdated is when the version information was last updated.
	LastUpdated metav1.Time `json:"lastUpdated,omitempty"`
}

// LlamaStackDistributionStatus defines the observed state of LlamaStackDistribution.
type LlamaStackDistributionStatus struct {
	// Phase represents the current phase of the distribution.
	Phase DistributionPhase `json:"phase,omitempty"`
	// Version contains version information for both operator and deployment.
	Version VersionInfo `json:"version,omitempty"`
	// DistributionConfig contains the configuration reported by the server.
	DistributionConfig DistributionConfig `json:"distributionConfig,omitempty"`
	// Conditions represent the latest available observations of the distribution's state.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// AvailableReplicas is the number of available replicas.
	AvailableReplicas int32 `json:"availableReplicas,omitempty"`
	// ServiceURL is the in-cluster URL of the server.
	ServiceURL string `json:"serviceURL,omitempty"`
	// RouteURL is the external URL when exposed; empty while the Ingress has no address.
	// +optional
	RouteURL *string `json:"routeURL,omitempty"`
}

// LlamaStackDistribution is the upstream v1alpha1 schema of a llama-stack server.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=llsd
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Phase",type="string",JSONPath=".status.phase"
// +kubebuilder:printcolumn:name="Operator Version",type="string",JSONPath=".status.version.operatorVersion"
// +kubebuilder:printcolumn:name="Server Version",type="string",JSONPath=".status.version.llamaStackServerVersion"
// +kubebuilder:printcolumn:name="Available",type="integer",JSONPath=".status.availableReplicas"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
// +kubebuilder:selectablefield:JSONPath=".spec.server.userConfig.configMapName"
// +kubebuilder:selectablefield:JSONPath=".spec.server.userConfig.configMapNamespace"
// +kubebuilder:selectablefield:JSONPath=".spec.server.tlsConfig.caBundle.configMapName"
// +kubebuilder:selectablefield:JSONPath=".spec.server.tlsConfig.caBundle.configMapNamespace"
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
