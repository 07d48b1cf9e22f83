// SPDX-License-Identifier: Apache-2.0

package v1beta1

import (
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// GroupVersion is the successor operator's API: ogx.io/v1beta1.
var GroupVersion = schema.GroupVersion{Group: "ogx.io", Version: "v1beta1"}

// Kind is the kind llsd reads of it.
const Kind = "OGXServer"

// The successor's defaults, as its API documents them.
const (
	DefaultPort        int32 = 8321
	DefaultMetricsPort int32 = 9464
	DefaultMountPath         = "/.ogx"
	DefaultStorageSize       = "10Gi"
	// AdoptStorage and AdoptNetworking name, on an OGXServer, the LlamaStackDistribution whose
	// PVC, or Service and Ingress, the successor operator takes over.
	AdoptStorage    = "ogx.io/adopt-storage"
	AdoptNetworking = "ogx.io/adopt-networking"
)

// OGXServer is one OGX server as the successor operator describes it:
//
//	apiVersion: ogx.io/v1beta1
//	kind: OGXServer
//	metadata: {name: chat}
//	spec:
//	  distribution: {name: starter}
//	  providers:
//	    inference:
//	      remote:
//	        vllm: [{endpoint: "http://vllm:8000/v1"}]
//	  resources:
//	    models: [{name: llama3}]
type OGXServer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              OGXServerSpec `json:"spec"`
	// Status is the operator's; llsd neither reads nor writes it.
	Status map[string]any `json:"status,omitempty"`
}

// OGXServerSpec is what the server runs and how it is deployed.
type OGXServerSpec struct {
	// Distribution is the image: a name the operator maps to one, or the image itself.
	Distribution DistributionSpec `json:"distribution"`
	// Providers are typed per API, remote or inline; custom lists take any provider type.
	Providers *ProvidersSpec `json:"providers,omitempty"`
	// Resources are registered at start-up.
	Resources *ResourcesSpec `json:"resources,omitempty"`
	// Storage is where the server keeps its state: the legacy kv/sql form, or named backends
	// and stores (not both).
	Storage *StorageSpec `json:"storage,omitempty"`
	// DisabledAPIs are left out of the config.
	DisabledAPIs []string `json:"disabledAPIs,omitempty"`
	// RegistryRefreshIntervalSeconds is how often the server refreshes its model registry.
	RegistryRefreshIntervalSeconds *int32 `json:"registryRefreshIntervalSeconds,omitempty"`
	// Network is the server's port, TLS, external access and NetworkPolicy.
	Network *NetworkSpec `json:"network,omitempty"`
	// TLS is what the server trusts and presents on its outbound connections.
	TLS *ClientTLSSpec `json:"tls,omitempty"`
	// Workload is the Deployment and the objects around it.
	Workload *WorkloadSpec `json:"workload,omitempty"`
	// Monitoring is on unless enabled is false.
	Monitoring *MonitoringSpec `json:"monitoring,omitempty"`
	// BaseConfig is the config generation starts from, instead of the image's.
	BaseConfig *ConfigMapKeyRef `json:"baseConfig,omitempty"`
	// OverrideConfig is a whole config.yaml of the user's, run as it is.
	OverrideConfig *ConfigMapKeyRef `json:"overrideConfig,omitempty"`
	// PraxisMode puts the server behind Praxis, the operator's multi-tenant gateway.
	PraxisMode *PraxisModeSpec `json:"praxisMode,omitempty"`
}

// DistributionSpec is a distribution name or an image, exactly one.
type DistributionSpec struct {
	Name  string `json:"name,omitempty"`
	Image string `json:"image,omitempty"`
}

// SecretKeyRef is a key of a Secret of the OGXServer's namespace.
type SecretKeyRef struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

// ConfigMapKeyRef is a key of a ConfigMap of the OGXServer's namespace.
type ConfigMapKeyRef struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

// ResourcesSpec registers models.
type ResourcesSpec struct {
	Models []ModelSpec `json:"models,omitempty"`
}

// ModelSpec is a model to register; provider is a provider id, the first inference
// provider's when unset.
type ModelSpec struct {
	Name          string `json:"name"`
	Provider      string `json:"provider,omitempty"`
	ContextLength *int   `json:"contextLength,omitempty"`
	ModelType     string `json:"modelType,omitempty"`
	Quantization  string `json:"quantization,omitempty"`
}

// StorageSpec is the server's state: kv and sql (the legacy form), or backends and stores.
type StorageSpec struct {
	KV       *KVStorageSpec            `json:"kv,omitempty"`
	SQL      *SQLStorageSpec           `json:"sql,omitempty"`
	Backends map[string]StorageBackend `json:"backends,omitempty"`
	Stores   *StoresSpec               `json:"stores,omitempty"`
}

// KVStorageSpec is the legacy key-value store: sqlite (default) or redis.
type KVStorageSpec struct {
	Type     string        `json:"type,omitempty"`
	Endpoint string        `json:"endpoint,omitempty"`
	Password *SecretKeyRef `json:"password,omitempty"`
}

// SQLStorageSpec is the legacy SQL store: sqlite (default) or postgres.
type SQLStorageSpec struct {
	Type             string        `json:"type,omitempty"`
	ConnectionString *SecretKeyRef `json:"connectionString,omitempty"`
}

// StorageBackend is a named Postgres backend: kv_postgres or sql_postgres. The numbers may be
// ${env.X} substitutions in the successor's API.
type StorageBackend struct {
	Type           string              `json:"type"`
	Host           string              `json:"host,omitempty"`
	Port           *intstr.IntOrString `json:"port,omitempty"`
	DB             string              `json:"db,omitempty"`
	User           string              `json:"user"`
	Password       *SecretKeyRef       `json:"password,omitempty"`
	SSLMode        string              `json:"sslMode,omitempty"`
	CACertPath     string              `json:"caCertPath,omitempty"`
	TableName      string              `json:"tableName,omitempty"`
	PoolSize       *intstr.IntOrString `json:"poolSize,omitempty"`
	MaxOverflow    *intstr.IntOrString `json:"maxOverflow,omitempty"`
	CommandTimeout *intstr.IntOrString `json:"commandTimeout,omitempty"`
	PoolRecycle    *intstr.IntOrString `json:"poolRecycle,omitempty"`
	PoolPrePing    *bool               `json:"poolPrePing,omitempty"`
	PoolPrePingEnv string              `json:"poolPrePingEnv,omitempty"`
}

// StoresSpec names the backend of each of the server's stores.
type StoresSpec struct {
	Metadata      *KVStoreMapping        `json:"metadata,omitempty"`
	Inference     *InferenceStoreMapping `json:"inference,omitempty"`
	Conversations *SQLStoreMapping       `json:"conversations,omitempty"`
	Responses     *ResponsesStoreMapping `json:"responses,omitempty"`
	Prompts       *SQLStoreMapping       `json:"prompts,omitempty"`
	Connectors    *SQLStoreMapping       `json:"connectors,omitempty"`
	VectorStores  *SQLStoreMapping       `json:"vectorStores,omitempty"`
}

// KVStoreMapping is a store in a key-value backend.
type KVStoreMapping struct {
	Backend   string `json:"backend"`
	Namespace string `json:"namespace"`
}

// SQLStoreMapping is a store in a SQL backend.
type SQLStoreMapping struct {
	Backend   string `json:"backend"`
	TableName string `json:"tableName"`
}

// InferenceStoreMapping is the inference store; enabled is an OGX 1.4 setting.
type InferenceStoreMapping struct {
	Backend           string `json:"backend"`
	TableName         string `json:"tableName"`
	MaxWriteQueueSize *int32 `json:"maxWriteQueueSize,omitempty"`
	NumWriters        *int32 `json:"numWriters,omitempty"`
	Enabled           *bool  `json:"enabled,omitempty"`
}

// ResponsesStoreMapping is the responses store.
type ResponsesStoreMapping struct {
	Backend           string `json:"backend"`
	TableName         string `json:"tableName,omitempty"`
	MaxWriteQueueSize *int32 `json:"maxWriteQueueSize,omitempty"`
	NumWriters        *int32 `json:"numWriters,omitempty"`
}

// NetworkSpec is the server's port, TLS, external access and NetworkPolicy.
type NetworkSpec struct {
	Port           int32               `json:"port,omitempty"`
	TLS            *ServerTLSSpec      `json:"tls,omitempty"`
	ExternalAccess *ExternalAccessSpec `json:"externalAccess,omitempty"`
	Policy         *NetworkPolicySpec  `json:"policy,omitempty"`
}

// ServerTLSSpec is the Secret of the server's own certificate.
type ServerTLSSpec struct {
	SecretName string `json:"secretName"`
}

// ExternalAccessSpec exposes the server through an Ingress; it needs a hostname and TLS.
type ExternalAccessSpec struct {
	Enabled  bool           `json:"enabled,omitempty"`
	Hostname string         `json:"hostname,omitempty"`
	TLS      *ServerTLSSpec `json:"tls,omitempty"`
}

// NetworkPolicySpec is the NetworkPolicy: on unless enabled is false, with the operator's
// default peers and these rules added.
type NetworkPolicySpec struct {
	Enabled     *bool                                   `json:"enabled,omitempty"`
	PolicyTypes []networkingv1.PolicyType               `json:"policyTypes,omitempty"`
	Ingress     []networkingv1.NetworkPolicyIngressRule `json:"ingress,omitempty"`
	Egress      []networkingv1.NetworkPolicyEgressRule  `json:"egress,omitempty"`
}

// ClientTLSSpec is what the server trusts and presents when it connects out.
type ClientTLSSpec struct {
	Trust    *TrustSpec    `json:"trust,omitempty"`
	Identity *IdentitySpec `json:"identity,omitempty"`
}

// TrustSpec lists CA certificates the server trusts.
type TrustSpec struct {
	CACertificates []ConfigMapKeyRef `json:"caCertificates,omitempty"`
}

// IdentitySpec is a client certificate and its key.
type IdentitySpec struct {
	Cert ConfigMapKeyRef `json:"cert"`
	Key  SecretKeyRef    `json:"key"`
}

// WorkloadSpec is the Deployment and the objects around it.
type WorkloadSpec struct {
	Replicas                  *int32                            `json:"replicas,omitempty"`
	Workers                   *int32                            `json:"workers,omitempty"`
	Resources                 *corev1.ResourceRequirements      `json:"resources,omitempty"`
	ResourceClaims            []corev1.PodResourceClaim         `json:"resourceClaims,omitempty"`
	Autoscaling               *AutoscalingSpec                  `json:"autoscaling,omitempty"`
	Storage                   *PVCStorageSpec                   `json:"storage,omitempty"`
	PodDisruptionBudget       *PodDisruptionBudgetSpec          `json:"podDisruptionBudget,omitempty"`
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	Overrides                 *WorkloadOverrides                `json:"overrides,omitempty"`
}

// AutoscalingSpec is the HorizontalPodAutoscaler.
type AutoscalingSpec struct {
	MinReplicas                       *int32 `json:"minReplicas,omitempty"`
	MaxReplicas                       int32  `json:"maxReplicas"`
	TargetCPUUtilizationPercentage    *int32 `json:"targetCPUUtilizationPercentage,omitempty"`
	TargetMemoryUtilizationPercentage *int32 `json:"targetMemoryUtilizationPercentage,omitempty"`
}

// PVCStorageSpec is the PersistentVolumeClaim: 10Gi at /.ogx unless set.
type PVCStorageSpec struct {
	Size      *resource.Quantity `json:"size,omitempty"`
	MountPath string             `json:"mountPath,omitempty"`
}

// PodDisruptionBudgetSpec is minAvailable or maxUnavailable, one of them.
type PodDisruptionBudgetSpec struct {
	MinAvailable   *intstr.IntOrString `json:"minAvailable,omitempty"`
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
}

// WorkloadOverrides change the pod and its container.
type WorkloadOverrides struct {
	ServiceAccountName string               `json:"serviceAccountName,omitempty"`
	Env                []corev1.EnvVar      `json:"env,omitempty"`
	Command            []string             `json:"command,omitempty"`
	Args               []string             `json:"args,omitempty"`
	Volumes            []corev1.Volume      `json:"volumes,omitempty"`
	VolumeMounts       []corev1.VolumeMount `json:"volumeMounts,omitempty"`
}

// MonitoringSpec is the metrics endpoint, ServiceMonitor and PrometheusRule: on unless enabled
// is false, on port 9464 unless metricsPort is set.
type MonitoringSpec struct {
	Enabled     *bool  `json:"enabled,omitempty"`
	MetricsPort *int32 `json:"metricsPort,omitempty"`
}

// PraxisModeSpec puts the server behind the Praxis gateway and may migrate its data. Present,
// it is enabled unless enabled is false.
type PraxisModeSpec struct {
	Enabled        *bool           `json:"enabled,omitempty"`
	PraxisSelector *PraxisSelector `json:"praxisSelector,omitempty"`
	MigrationJob   map[string]any  `json:"migrationJob,omitempty"`
}

// PraxisSelector are the Praxis gateway's pods, the only callers the server admits in Praxis
// mode: app: payload-processing in openshift-ingress unless set.
type PraxisSelector struct {
	Namespace   string                `json:"namespace,omitempty"`
	PodSelector *metav1.LabelSelector `json:"podSelector,omitempty"`
}

// The Praxis gateway's pods when praxisSelector does not name them (the successor's defaults).
const (
	DefaultPraxisNamespace = "openshift-ingress"
	DefaultPraxisPodLabel  = "app=payload-processing"
)
