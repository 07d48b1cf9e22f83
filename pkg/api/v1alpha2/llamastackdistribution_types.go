// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"cmp"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// LlamaStackDistributionSpec is what a user asks for: a distribution, the providers and
// resources to add to its config.yaml, and how to run it on Kubernetes.
type LlamaStackDistributionSpec struct {
	// Distribution selects the llama-stack server image and its base config.yaml.
	Distribution DistributionSpec `json:"distribution"`

	// Providers are added to the distribution's config.yaml, per API. A provider whose id
	// matches a provider of the base config replaces it; others are appended.
	// +optional
	Providers *ProvidersSpec `json:"providers,omitempty"`

	// Resources (models, tools, shields) registered when the server starts.
	// +optional
	Resources *ResourcesSpec `json:"resources,omitempty"`

	// Storage selects the server's key-value and SQL backends. When absent, the
	// distribution's storage is kept as it is.
	// +optional
	Storage *StateStorageSpec `json:"storage,omitempty"`

	// Disabled APIs are removed from the config.yaml together with their providers and the
	// resources registered with them.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	// +listType=set
	Disabled []APIName `json:"disabled,omitempty"`

	// Networking configures the port, TLS, external exposure and who may connect.
	// +optional
	Networking *NetworkingSpec `json:"networking,omitempty"`

	// Authentication says who may call the server (a token from an OIDC issuer, the
	// cluster's API server, GitHub, an endpoint of yours, or a proxy's header) and what
	// each caller may do. Without it the server answers anyone who reaches it.
	// +optional
	Authentication *AuthenticationSpec `json:"authentication,omitempty"`

	// Workload configures the Deployment and the objects around it.
	// +optional
	Workload *WorkloadSpec `json:"workload,omitempty"`

	// Telemetry exports the server's traces and metrics with OpenTelemetry (OTLP).
	// +optional
	Telemetry *TelemetrySpec `json:"telemetry,omitempty"`

	// Monitoring serves the server's Prometheus metrics on a port of their own (OGX 1.2 on)
	// and tells the Prometheus Operator to scrape them.
	// +optional
	Monitoring *MonitoringSpec `json:"monitoring,omitempty"`

	// ExternalProviders are providers packaged as Python modules in images, loaded by the
	// server next to its own.
	// +optional
	ExternalProviders *ExternalProvidersSpec `json:"externalProviders,omitempty"`

	// OverrideConfig mounts a user ConfigMap as config.yaml instead of generating one.
	// It cannot be combined with providers, resources, storage, disabled, vectorStores,
	// authentication or distribution.baseConfig.
	// +optional
	OverrideConfig *OverrideConfigSpec `json:"overrideConfig,omitempty"`

	// VectorStores sets the server's vector store defaults (vector_stores in config.yaml); the
	// distribution's stay where unset.
	// +optional
	VectorStores *VectorStoresSpec `json:"vectorStores,omitempty"`
}

// MonitoringSpec is how the server's metrics are served and scraped:
//
//	monitoring: {alerts: true, scraperNamespaces: [openshift-user-workload-monitoring]}
type MonitoringSpec struct {
	// Port of the metrics endpoint, the container and Service port named metrics; 9464 (the
	// server's default) when unset.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// ServiceMonitor: false leaves out the ServiceMonitor (monitoring.coreos.com/v1), for a
	// cluster without the Prometheus Operator; written when unset.
	// +optional
	ServiceMonitor *bool `json:"serviceMonitor,omitempty"`

	// Alerts adds a PrometheusRule: the server down, more than 5% of requests failing, the
	// 95th percentile of request time above 10 seconds.
	// +optional
	Alerts bool `json:"alerts,omitempty"`

	// ScraperNamespaces are the namespaces from which the NetworkPolicy (networking.allowedFrom
	// on) admits the metrics port, where Prometheus runs; the server's own namespace always may.
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:MaxLength=63
	// +kubebuilder:validation:items:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	// +listType=set
	ScraperNamespaces []string `json:"scraperNamespaces,omitempty"`
}

// VectorStoresSpec are the defaults new vector stores take:
//
//	vectorStores: {defaultEmbeddingModel: granite-embedding, defaultProvider: pgvector}
type VectorStoresSpec struct {
	// DefaultEmbeddingModel is the name of an embedding model of spec.resources.models that
	// new vector stores embed with; the server refuses to start when the model is not registered.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	DefaultEmbeddingModel string `json:"defaultEmbeddingModel,omitempty"`

	// DefaultProvider is the id of the vector_io provider new vector stores go to when a
	// request names none.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`
	DefaultProvider string `json:"defaultProvider,omitempty"`
}

// DistributionSpec selects the server image: a distribution name from llsd's catalog, or an
// image. Exactly one is set.
type DistributionSpec struct {
	// Name of a distribution in llsd's catalog, for example starter or postgres-demo.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name,omitempty"`

	// Image is a container image reference of a llama-stack distribution.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=512
	Image string `json:"image,omitempty"`

	// ServerVersion is the llama-stack server version of the image, major.minor (0.7), for a
	// mirror or custom image whose version llsd cannot read: from the image's version label,
	// the tag of an official image, or the structure of its config. When the image states
	// its version too, the two must agree.
	// +optional
	// +kubebuilder:validation:MaxLength=16
	// +kubebuilder:validation:Pattern=`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`
	ServerVersion string `json:"serverVersion,omitempty"`

	// BaseConfig names a ConfigMap of the object's namespace whose key holds the config.yaml
	// the image ships, for an image llsd has no base config for (no config labels): llsd
	// generates from it as from a catalog distribution's. The ConfigMap must be among the
	// render's inputs.
	//
	//	distribution:
	//	  image: quay.io/acme/llama-stack:2.1
	//	  baseConfig: {configMapName: acme-base, key: run.yaml}
	// +optional
	BaseConfig *BaseConfigSpec `json:"baseConfig,omitempty"`
}

// BaseConfigSpec names a ConfigMap key that holds an image's own config.yaml.
type BaseConfigSpec struct {
	// ConfigMapName of the ConfigMap.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ConfigMapName string `json:"configMapName"`
	// Key of the ConfigMap that holds the config; config.yaml when unset.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	Key string `json:"key,omitempty"`
}

// ConfigKey is the key of the ConfigMap that holds the config.
func (b *BaseConfigSpec) ConfigKey() string { return cmp.Or(b.Key, DefaultOverrideConfigKey) }

// ProvidersSpec lists providers per API. When a list has more than one provider, each
// needs an id. Ids (given or derived from the provider name) are unique across all APIs
// (ProvidersRules, which hack/crdpatch writes into the CRD).
type ProvidersSpec struct {
	// Inference providers serve models, for example vllm, ollama or openai.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Inference []ProviderSpec `json:"inference,omitempty"`

	// Safety providers run shields, for example llama-guard.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Safety []ProviderSpec `json:"safety,omitempty"`

	// VectorIo providers store vectors, for example pgvector, milvus or faiss.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	VectorIo []ProviderSpec `json:"vectorIo,omitempty"`

	// ToolRuntime providers run tools, for example brave-search or model-context-protocol.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	ToolRuntime []ProviderSpec `json:"toolRuntime,omitempty"`

	// Telemetry providers. Servers since 0.4 have no telemetry API (they use OTEL_*
	// environment variables): set spec.telemetry instead; llsd reports an error here.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Telemetry []ProviderSpec `json:"telemetry,omitempty"`

	// Files providers store uploaded files, for example s3 (remote::s3: settings.bucket_name,
	// endpoint for an S3-compatible store, secretRefs aws_access_key_id and
	// aws_secret_access_key) or localfs. The server serves the files API with one provider,
	// so this list replaces the distribution's files providers; llsd fills the provider's
	// metadata store from spec.storage.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Files []ProviderSpec `json:"files,omitempty"`

	// Batches providers run OpenAI-compatible batch jobs (reference). This list replaces the
	// distribution's batches providers; llsd fills the provider's store from spec.storage.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Batches []ProviderSpec `json:"batches,omitempty"`

	// Responses providers serve the Responses API (builtin): settings such as
	// moderation_endpoint (OGX 1.0 on), vector_stores_config or compaction_config. This list
	// replaces the distribution's responses providers; the persistence of the distribution's
	// provider of the same type is kept.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Responses []ProviderSpec `json:"responses,omitempty"`

	// FileProcessors turn uploaded files into text, for example docling-serve (endpoint),
	// docling, pypdf or, from OGX 1.0, auto. This list replaces the distribution's file
	// processors; the server serves the API with the last one (auto dispatches to the others).
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	FileProcessors []ProviderSpec `json:"fileProcessors,omitempty"`
}

// ProviderSpec is one provider of an API:
//
//   - id: vllm-primary
//     provider: vllm
//     endpoint: http://vllm:8000/v1
//     apiKey:
//     secretKeyRef: {name: vllm-creds, key: token}
//     settings:
//     max_tokens: 8192
type ProviderSpec struct {
	// ID is the provider_id in config.yaml. Optional when the list has one entry: it is then
	// derived from provider (remote::vllm and vllm both give vllm). A base-config provider
	// with the same id is replaced.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`
	ID string `json:"id,omitempty"`

	// Provider names the implementation: a name from llsd's provider catalog (vllm,
	// openai, pgvector, llama-guard, ...) or an explicit provider_type such as
	// remote::vllm or inline::faiss.
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^((remote|inline)::)?[a-z0-9]([a-z0-9_-]*[a-z0-9])?(::[a-z0-9]([a-z0-9_-]*[a-z0-9])?)?$`
	Provider string `json:"provider"`

	// Endpoint is where the provider is reached; llsd writes it into the config key the
	// provider uses (base_url for vllm, uri for milvus, url for qdrant, ...).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	Endpoint string `json:"endpoint,omitempty"`

	// APIKey is the provider's credential, read from a Secret into an environment variable;
	// llsd writes it into the config key the provider uses (api_key, api_token, token, ...).
	// +optional
	APIKey *SecretKeySource `json:"apiKey,omitempty"`

	// InferenceService names the KServe InferenceService (or llm-d's LLMInferenceService)
	// that serves this vllm provider's models, instead of endpoint: llsd reads it (and its
	// ServingRuntime or Gateway) among the inputs and derives the URL, the served model and,
	// where OpenShift AI checks a token, the token and the CA it asks for.
	// +optional
	InferenceService *InferenceServiceRef `json:"inferenceService,omitempty"`

	// SecretRefs maps provider config keys to Secret keys. Each becomes an environment
	// variable LLSD_<ID>_<KEY> and the config holds ${env.LLSD_<ID>_<KEY>}.
	// +optional
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=32
	SecretRefs map[string]SecretKeySource `json:"secretRefs,omitempty"`

	// Settings are merged into the provider's config as they are. They are never searched
	// for secrets: put credentials in apiKey or secretRefs.
	// +optional
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Settings *apiextensionsv1.JSON `json:"settings,omitempty"`

	// ClientCertificate is the certificate and key the server presents to the provider
	// (mutual TLS), from a Secret: network.tls.client_cert and client_key of the providers that
	// have network settings (the remote inference providers).
	// +optional
	ClientCertificate *ClientCertificateSpec `json:"clientCertificate,omitempty"`
}

// InferenceServiceRef names an InferenceService (serving.kserve.io/v1beta1) or an
// LLMInferenceService (serving.kserve.io/v1alpha1 or v1alpha2, llm-d):
//
//	inferenceService: {name: granite}                    # in the LlamaStackDistribution's namespace
//	inferenceService: {name: granite, namespace: models}
//	inferenceService: {name: qwen, kind: LLMInferenceService}
type InferenceServiceRef struct {
	// Kind is InferenceService (when unset) or LLMInferenceService.
	// +optional
	// +kubebuilder:validation:Enum=InferenceService;LLMInferenceService
	Kind string `json:"kind,omitempty"`

	// Name of the InferenceService.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name"`

	// Namespace of the InferenceService; the LlamaStackDistribution's when unset. One that
	// is not among the inputs is not checked: llsd says so and assumes KServe's defaults.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Namespace string `json:"namespace,omitempty"`
}

// The kinds an InferenceServiceRef names.
const (
	KindInferenceService    = "InferenceService"
	KindLLMInferenceService = "LLMInferenceService"
)

// ClientCertificateSpec names a Secret holding a certificate and its key: tls.crt and tls.key
// (a kubernetes.io/tls Secret), or the keys named.
type ClientCertificateSpec struct {
	// SecretName of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	SecretName string `json:"secretName"`
	// CertificateKey is the Secret's key holding the PEM certificate; tls.crt when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	CertificateKey string `json:"certificateKey,omitempty"`
	// PrivateKeyKey is the Secret's key holding the PEM private key; tls.key when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	PrivateKeyKey string `json:"privateKeyKey,omitempty"`
}

// SecretKeySource points at a key of a Secret in the LlamaStackDistribution's namespace.
type SecretKeySource struct {
	// SecretKeyRef names the Secret and the key.
	SecretKeyRef SecretKeyRef `json:"secretKeyRef"`
}

// SecretKeyRef names a key of a Secret in the same namespace.
type SecretKeyRef struct {
	// Name of the Secret.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// Key in the Secret's data.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	Key string `json:"key"`
}

// ResourcesSpec lists resources the server registers at start.
type ResourcesSpec struct {
	// Models to register. A model goes to the first inference provider unless provider
	// names one.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=64
	Models []ModelSpec `json:"models,omitempty"`

	// Tools are tool groups, for example websearch or rag.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=253
	// +listType=set
	Tools []string `json:"tools,omitempty"`

	// Shields are registered with the first safety provider.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=253
	// +listType=set
	Shields []string `json:"shields,omitempty"`

	// MCPServers are Model Context Protocol servers the server may call, registered as
	// connectors (connectors in config.yaml, every supported server version): a Responses API
	// request names one by its id ({type: mcp, connector_id: <id>}) and passes its
	// credentials itself, as the config has no place for them. The list is the whole set: the
	// server removes connectors it does not list when it starts. On llama-stack 0.6, which
	// registers tool groups from the config, each is also the tool group mcp::<id>.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=32
	MCPServers []MCPServerSpec `json:"mcpServers,omitempty"`
}

// MCPServerSpec is one Model Context Protocol server:
//
//   - id: github
//     url: http://github-mcp.tools.svc:8080/mcp
type MCPServerSpec struct {
	// ID is the connector_id clients name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`
	ID string `json:"id"`

	// URL is the server's MCP endpoint, http:// or https://, without credentials (a request
	// passes those).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^https?://[^\s@]+$`
	URL string `json:"url"`

	// Label is the server_label a model sees; the server's default when unset.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Label string `json:"label,omitempty"`
}

// ModelSpec is a model to register. In authoring shorthand a plain string is a model name.
type ModelSpec struct {
	// Name is the model_id clients use.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// Provider is the id of the inference provider serving the model; the first inference
	// provider when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`
	Provider string `json:"provider,omitempty"`

	// ProviderModelID is the model's name at the provider, when it differs from name.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ProviderModelID string `json:"providerModelId,omitempty"`

	// ModelType is llm (the server's default), embedding or rerank.
	// +optional
	// +kubebuilder:validation:Enum=llm;embedding;rerank
	ModelType string `json:"modelType,omitempty"`

	// EmbeddingDimension is the vector size of an embedding model (required for one).
	// +optional
	// +kubebuilder:validation:Minimum=1
	EmbeddingDimension *int32 `json:"embeddingDimension,omitempty"`

	// ContextLength is recorded in the model's metadata.
	// +optional
	// +kubebuilder:validation:Minimum=1
	ContextLength *int32 `json:"contextLength,omitempty"`

	// Quantization is recorded in the model's metadata.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Quantization string `json:"quantization,omitempty"`
}

// APIName is a llama-stack API, written in camelCase.
//
// +kubebuilder:validation:Enum=agents;batches;datasetio;eval;fileProcessors;files;inference;interactions;messages;postTraining;responses;safety;scoring;telemetry;toolRuntime;vectorIo
type APIName string

// NetworkingSpec configures how the server is reached.
type NetworkingSpec struct {
	// Port the server listens on; 8321 when unset.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`

	// TLS configures the server's certificate and the CA bundle it trusts.
	// +optional
	TLS *TLSSpec `json:"tls,omitempty"`

	// Expose creates an Ingress. In authoring shorthand, true or {} enables it.
	// +optional
	Expose *ExposeSpec `json:"expose,omitempty"`

	// AllowedFrom restricts which namespaces may connect (a NetworkPolicy).
	// +optional
	AllowedFrom *AllowedFromSpec `json:"allowedFrom,omitempty"`
	// Egress restricts where the server may connect (the NetworkPolicy's egress): DNS, the
	// in-cluster endpoints the spec names, and cidrs.
	// +optional
	Egress *EgressSpec `json:"egress,omitempty"`
	// CORS lets web pages of other origins call the server from a browser (llama-stack 0.6
	// to OGX 0.8: OGX 1.0 removed it, and the Ingress answers instead).
	// +optional
	CORS *CORSSpec `json:"cors,omitempty"`
}

// CORSSpec is the server's answer to a browser's cross-origin requests:
//
//	cors: {allowOrigins: [https://chat.example.com], allowHeaders: [authorization, content-type]}
type CORSSpec struct {
	// AllowOrigins are the origins whose pages may call the server; "*" for any.
	// +optional
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=253
	AllowOrigins []string `json:"allowOrigins,omitempty"`
	// AllowOriginRegex admits the origins it matches (Python's re.fullmatch).
	// +optional
	// +kubebuilder:validation:MaxLength=512
	AllowOriginRegex string `json:"allowOriginRegex,omitempty"`
	// AllowMethods are the HTTP methods allowed; OPTIONS alone when unset.
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:items:Enum=GET;POST;PUT;PATCH;DELETE;OPTIONS;HEAD;*
	AllowMethods []string `json:"allowMethods,omitempty"`
	// AllowHeaders are the request headers allowed (authorization, content-type).
	// +optional
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=128
	AllowHeaders []string `json:"allowHeaders,omitempty"`
	// ExposeHeaders are the response headers a page may read.
	// +optional
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=128
	ExposeHeaders []string `json:"exposeHeaders,omitempty"`
	// AllowCredentials lets pages send cookies and authorization; not with the "*" origin.
	// +optional
	AllowCredentials bool `json:"allowCredentials,omitempty"`
	// MaxAge is how long, in seconds, a browser keeps a preflight's answer; 600 when unset.
	// +optional
	// +kubebuilder:validation:Minimum=0
	MaxAge *int32 `json:"maxAge,omitempty"`
}

// TLSSpec configures TLS. caBundle (outbound trust) is valid on its own.
type TLSSpec struct {
	// Enabled makes the server speak HTTPS with the certificate in secretName.
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// SecretName of the Secret holding the server certificate and key: a kubernetes.io/tls
	// Secret, or any Secret with certificateKey and privateKeyKey.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	SecretName string `json:"secretName,omitempty"`
	// CertificateKey is the Secret's key holding the PEM certificate chain; tls.crt when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	CertificateKey string `json:"certificateKey,omitempty"`
	// PrivateKeyKey is the Secret's key holding the PEM private key; tls.key when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	PrivateKeyKey string `json:"privateKeyKey,omitempty"`
	// CABundle is a ConfigMap of CA certificates the server trusts for outbound calls.
	// +optional
	CABundle *CABundleSpec `json:"caBundle,omitempty"`
	// CABundles are more ConfigMaps of CA certificates the server trusts, joined with
	// caBundle's into one bundle: a team's CA next to the cluster's (on OpenShift, a
	// ConfigMap labelled config.openshift.io/inject-trusted-cabundle=true gets the cluster's
	// trusted CAs in ca-bundle.crt).
	// +optional
	// +kubebuilder:validation:MaxItems=8
	CABundles []CABundleSpec `json:"caBundles,omitempty"`
	// ClusterTrustedCAs trusts the CAs an OpenShift cluster trusts (its proxy's and the
	// platform's): llsd writes a ConfigMap <name>-trusted-ca labelled
	// config.openshift.io/inject-trusted-cabundle, which the cluster fills, and joins it to
	// the CA bundle. OpenShift only (render option platform: openshift).
	// +optional
	ClusterTrustedCAs bool `json:"clusterTrustedCAs,omitempty"`
	// Ciphers are the TLS 1.2 cipher suites the server offers (OpenSSL names), among the
	// FIPS-approved ones OGX accepts; all six when unset. OGX 1.2 and later.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=6
	// +kubebuilder:validation:items:Enum=ECDHE-ECDSA-AES128-GCM-SHA256;ECDHE-RSA-AES128-GCM-SHA256;ECDHE-ECDSA-AES256-GCM-SHA384;ECDHE-RSA-AES256-GCM-SHA384;DHE-RSA-AES128-GCM-SHA256;DHE-RSA-AES256-GCM-SHA384
	Ciphers []string `json:"ciphers,omitempty"`
	// HSTSMaxAge is how long, in seconds, browsers keep to HTTPS for the server's host
	// (Strict-Transport-Security); 0 sends no header. A year when unset. OGX 1.2 and later.
	// +optional
	// +kubebuilder:validation:Minimum=0
	HSTSMaxAge *int32 `json:"hstsMaxAge,omitempty"`
}

// CABundleSpec names a ConfigMap of CA certificates.
type CABundleSpec struct {
	// ConfigMapName of the ConfigMap.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ConfigMapName string `json:"configMapName"`
	// ConfigMapNamespace of the ConfigMap; the LlamaStackDistribution's when unset.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	ConfigMapNamespace string `json:"configMapNamespace,omitempty"`
	// ConfigMapKeys holding certificates; ca-bundle.crt when unset.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=50
	// +kubebuilder:validation:items:Pattern=`^[a-zA-Z0-9]([a-zA-Z0-9\-_.]*[a-zA-Z0-9])?$`
	// +kubebuilder:validation:items:MaxLength=253
	ConfigMapKeys []string `json:"configMapKeys,omitempty"`
}

// ExposeSpec configures the Ingress.
type ExposeSpec struct {
	// Enabled creates the Ingress; true when expose is present.
	// +optional
	// +kubebuilder:default:=true
	Enabled *bool `json:"enabled,omitempty"`
	// Hostname of the Ingress rule; derived from the render option's domain when unset.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	Hostname string `json:"hostname,omitempty"`
	// ClassName is the Ingress class; the render option's ingress class when unset.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ClassName string `json:"className,omitempty"`
	// Annotations are added to the Ingress or Route (cert-manager issuers, rate limits, ...).
	// +optional
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=64
	Annotations map[string]string `json:"annotations,omitempty"`
	// Route makes it an OpenShift Route instead of an Ingress: TLS terminated at the router
	// (edge), or re-encrypted to the server when networking.tls is enabled. The render option
	// platform: openshift makes it the default.
	// +optional
	Route *bool `json:"route,omitempty"`
	// TLSSecretName is the Secret of the hostname's certificate (kubernetes.io/tls): the Ingress
	// terminates TLS with it (edge), also while the server speaks plain HTTP behind it; a
	// cert-manager issuer annotation fills it. Without it the Ingress serves the server's own
	// certificate when networking.tls is enabled, and plain HTTP otherwise.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	TLSSecretName string `json:"tlsSecretName,omitempty"`
}

// AllowedFromSpec lists who may connect to the server, besides its own namespace.
type AllowedFromSpec struct {
	// Namespaces allowed by name; "*" allows every namespace.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=63
	Namespaces []string `json:"namespaces,omitempty"`
	// Labels select namespaces by label: key (any value) or key=value, as the upstream
	// operator documents them; namespaces matching any of them are allowed.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=317
	// +kubebuilder:validation:items:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?(=([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?)?$`
	Labels []string `json:"labels,omitempty"`
	// CIDRs are networks outside the pod network allowed to connect (a load balancer's or an
	// office's addresses).
	// +optional
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=43
	CIDRs []string `json:"cidrs,omitempty"`
	// Pods are pods of another namespace allowed to connect, by their labels: a gateway's pods
	// without the rest of its namespace (OpenShift AI's Praxis gateway:
	// {namespace: openshift-ingress, labels: [app=payload-processing]}).
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Pods []PodsPeer `json:"pods,omitempty"`
}

// PodsPeer selects the pods of one namespace that carry every one of its labels.
type PodsPeer struct {
	// Namespace of the pods.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Namespace string `json:"namespace"`
	// Labels the pods carry, each key=value.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=317
	// +kubebuilder:validation:items:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?=([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$`
	Labels []string `json:"labels"`
}

// EgressSpec lets the server reach DNS, the endpoints of the spec that are in the cluster
// (<service>.<namespace>.svc names, a bare Service name of its own namespace), literal IP
// addresses, and these networks:
//
//	egress: {cidrs: [10.20.0.0/16, 203.0.113.7/32]}
type EgressSpec struct {
	// CIDRs the server may also reach: a provider outside the cluster, a database whose
	// address is in a Secret.
	// +optional
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=43
	CIDRs []string `json:"cidrs,omitempty"`
}

// WorkloadSpec configures the Deployment and the objects around it.
type WorkloadSpec struct {
	// Replicas of the server; 1 when unset, ignored when autoscaling is set.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Replicas *int32 `json:"replicas,omitempty"`
	// Workers is the number of server worker processes (server.workers).
	// +optional
	// +kubebuilder:validation:Minimum=1
	Workers *int32 `json:"workers,omitempty"`
	// Resources of the server container.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
	// Autoscaling creates a HorizontalPodAutoscaler.
	// +optional
	Autoscaling *AutoscalingSpec `json:"autoscaling,omitempty"`
	// Storage creates a PersistentVolumeClaim mounted into the server.
	// +optional
	Storage *PVCStorageSpec `json:"storage,omitempty"`
	// PodDisruptionBudget creates a PodDisruptionBudget.
	// +optional
	PodDisruptionBudget *PodDisruptionBudgetSpec `json:"podDisruptionBudget,omitempty"`
	// TopologySpreadConstraints of the server pods.
	// +optional
	// +kubebuilder:validation:MinItems=1
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	// Overrides of the pod and container.
	// +optional
	Overrides *WorkloadOverrides `json:"overrides,omitempty"`
	// Pod sets what a platform decides about the server pods: where they run, what pulls
	// their image, their labels and annotations.
	// +optional
	Pod *PodSettings `json:"pod,omitempty"`
}

// PodSettings are the pod fields a platform team sets (scheduling, registries, mesh and
// cost labels). They go into the Deployment's pod template as they are.
type PodSettings struct {
	// Labels added to the pods.
	// +optional
	// +kubebuilder:validation:MaxProperties=64
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations added to the pods (sidecar injection, scraping, ...).
	// +optional
	// +kubebuilder:validation:MaxProperties=64
	Annotations map[string]string `json:"annotations,omitempty"`
	// ImagePullSecrets for the server and init container images (a private mirror).
	// +optional
	// +kubebuilder:validation:MaxItems=16
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty"`
	// NodeSelector of the pods.
	// +optional
	// +kubebuilder:validation:MaxProperties=32
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// Tolerations of the pods.
	// +optional
	// +kubebuilder:validation:MaxItems=32
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// Affinity of the pods. Its schema is left to the Deployment the API server validates it
	// in (a core/v1 Affinity); here it would take the CRD past the 256 KB that client-side
	// apply (Argo CD's default) can store.
	// +optional
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:validation:Type=object
	// +kubebuilder:pruning:PreserveUnknownFields
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// PriorityClassName of the pods.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// ResourceClaims are dynamic resource allocation claims (a GPU for an inline provider) the
	// server container uses: each from a ResourceClaim or a ResourceClaimTemplate of the
	// namespace (resource.k8s.io, on clusters with dynamic resource allocation).
	// +optional
	// +kubebuilder:validation:MaxItems=8
	// +listType=map
	// +listMapKey=name
	ResourceClaims []ResourceClaimSpec `json:"resourceClaims,omitempty"`
	// AutomountServiceAccountToken says whether the server pods get their service account's
	// token for the API server. Unset, llsd keeps it only where something needs it: a service
	// account the spec names (workload.overrides.serviceAccountName), and a provider that
	// creates Kubernetes objects (TrustyAI LMEval with use_k8s); otherwise the pods have none.
	// +optional
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty"`
}

// ResourceClaimSpec is one claim of the pod, from a claim or a claim template.
type ResourceClaimSpec struct {
	// Name of the claim in the pod.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	Name string `json:"name"`
	// ResourceClaimName is a ResourceClaim the pods share.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ResourceClaimName string `json:"resourceClaimName,omitempty"`
	// ResourceClaimTemplateName is a ResourceClaimTemplate each pod gets a claim of its own from.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ResourceClaimTemplateName string `json:"resourceClaimTemplateName,omitempty"`
}

// AutoscalingSpec configures a HorizontalPodAutoscaler.
type AutoscalingSpec struct {
	// MinReplicas of the autoscaler; 1 when unset.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MinReplicas *int32 `json:"minReplicas,omitempty"`
	// MaxReplicas of the autoscaler.
	// +kubebuilder:validation:Minimum=1
	MaxReplicas int32 `json:"maxReplicas"`
	// TargetCPUUtilizationPercentage to aim for; 80 when neither target is set.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	TargetCPUUtilizationPercentage *int32 `json:"targetCPUUtilizationPercentage,omitempty"`
	// TargetMemoryUtilizationPercentage to aim for.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	TargetMemoryUtilizationPercentage *int32 `json:"targetMemoryUtilizationPercentage,omitempty"`
}

// PVCStorageSpec configures the server's PersistentVolumeClaim.
type PVCStorageSpec struct {
	// Size of the claim; 10Gi when unset.
	// +optional
	Size *resource.Quantity `json:"size,omitempty"`
	// MountPath in the container; the server's state directory when unset (/.llama, /.ogx
	// from 0.8).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/`
	MountPath string `json:"mountPath,omitempty"`
	// StorageClassName of the claim; the cluster's default class when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	StorageClassName *string `json:"storageClassName,omitempty"`
	// AccessModes of the claim; ReadWriteOnce when unset. With ReadWriteMany, several
	// replicas can share the volume.
	// +optional
	// +kubebuilder:validation:MaxItems=2
	// +listType=set
	AccessModes []StorageAccessMode `json:"accessModes,omitempty"`
}

// StorageAccessMode is an access mode of the server's volume: it is written to, so
// ReadOnlyMany is not one.
//
// +kubebuilder:validation:Enum=ReadWriteOnce;ReadWriteMany;ReadWriteOncePod
type StorageAccessMode string

// PodDisruptionBudgetSpec configures the PodDisruptionBudget: set exactly one field.
type PodDisruptionBudgetSpec struct {
	// MinAvailable pods during a voluntary disruption.
	// +optional
	MinAvailable *intstr.IntOrString `json:"minAvailable,omitempty"`
	// MaxUnavailable pods during a voluntary disruption.
	// +optional
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
}

// WorkloadOverrides customise the pod and the server container.
type WorkloadOverrides struct {
	// ServiceAccountName replaces the generated ServiceAccount.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ServiceAccountName string `json:"serviceAccountName,omitempty"`
	// TerminationGracePeriodSeconds of the server pods.
	// +optional
	// +kubebuilder:validation:Minimum=0
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
	// Env adds environment variables to the server container. A name llsd sets itself
	// (LLAMA_STACK_PORT, RUN_CONFIG_PATH, SSL_CERT_FILE, the LLSD_* secrets) is an error
	// that names the field that sets it.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +listType=map
	// +listMapKey=name
	Env []corev1.EnvVar `json:"env,omitempty"`
	// Command replaces the container command.
	// +optional
	// +kubebuilder:validation:MinItems=1
	Command []string `json:"command,omitempty"`
	// Args replaces the container arguments.
	// +optional
	// +kubebuilder:validation:MinItems=1
	Args []string `json:"args,omitempty"`
	// Volumes added to the pod.
	// +optional
	// +kubebuilder:validation:MinItems=1
	Volumes []corev1.Volume `json:"volumes,omitempty"`
	// VolumeMounts added to the server container.
	// +optional
	// +kubebuilder:validation:MinItems=1
	VolumeMounts []corev1.VolumeMount `json:"volumeMounts,omitempty"`
}

// ExternalProvidersSpec lists, per API, providers packaged as Python modules in images
// (the upstream operator's deploy-time providers). They are added to the distribution's
// providers; one with the id of another provider replaces it, with a warning when that one is
// from spec.providers.
type ExternalProvidersSpec struct {
	// Inference providers from images.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Inference []ExternalProviderRef `json:"inference,omitempty"`
	// Safety providers from images.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Safety []ExternalProviderRef `json:"safety,omitempty"`
	// VectorIo providers from images.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	VectorIo []ExternalProviderRef `json:"vectorIo,omitempty"`
	// ToolRuntime providers from images.
	// +optional
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	ToolRuntime []ExternalProviderRef `json:"toolRuntime,omitempty"`
}

// ExternalProviderRef is a provider packaged as an image: the image holds the provider's
// Python package (installed with pip install --target <path>), which an init container copies
// where the server imports it from; config.yaml names it in the provider's module key.
//
//	externalProviders:
//	  inference:
//	    - providerId: acme
//	      image: registry.example.com/acme-provider:1.0
//	      module: acme_provider
//	      providerType: remote::acme
//	      settings: {base_url: http://acme:8080}
type ExternalProviderRef struct {
	// ProviderID of the provider in config.yaml.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`
	ProviderID string `json:"providerId"`
	// Image containing the provider.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=512
	Image string `json:"image"`
	// Module is the provider's Python package as the server imports it (it loads
	// <module>.provider and calls get_provider_spec); a pinned requirement such as
	// acme_provider==1.0 is allowed. Unset, it is the packageName of the image's
	// /lls-provider/lls-provider-spec.yaml; an image without that file needs module and
	// providerType, and its package is copied from path.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(==[A-Za-z0-9.+!_-]+)?$`
	Module string `json:"module,omitempty"`
	// ProviderType the module provides, remote::<name> or inline::<name>. Unset, it is the
	// providerType of the image's lls-provider-spec.yaml.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^(remote|inline)::[a-z0-9][a-z0-9_.-]*$`
	ProviderType string `json:"providerType,omitempty"`
	// Path of the installed package in an image without lls-provider-spec.yaml; /opt/provider
	// when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	// +kubebuilder:validation:Pattern=`^/[^:]*$`
	Path string `json:"path,omitempty"`
	// SecretRefs maps provider config keys to Secret keys, as for spec.providers.
	// +optional
	// +kubebuilder:validation:MaxProperties=32
	SecretRefs map[string]SecretKeySource `json:"secretRefs,omitempty"`
	// Settings are the provider's config, as they are.
	// +optional
	Settings *apiextensionsv1.JSON `json:"settings,omitempty"`
}

// TelemetrySpec sets the OpenTelemetry environment the server image reads: with any OTEL_*
// variable set, its entrypoint runs the server under opentelemetry-instrument, which
// exports traces and metrics over OTLP.
//
//	telemetry:
//	  endpoint: http://otel-collector.observability:4318
//	  protocol: http/protobuf
//	  samplingPercent: 10
//	  headers:
//	    authorization: {secretKeyRef: {name: otel, key: token}}
type TelemetrySpec struct {
	// Endpoint of the OTLP collector (OTEL_EXPORTER_OTLP_ENDPOINT).
	// +kubebuilder:validation:MaxLength=2048
	// +kubebuilder:validation:Pattern=`^https?://[^\s@]+$`
	Endpoint string `json:"endpoint"`
	// Protocol of the exporters (OTEL_EXPORTER_OTLP_PROTOCOL); http/protobuf when unset, the
	// one a server started without opentelemetry-instrument also exports its metrics with.
	// +optional
	// +kubebuilder:validation:Enum=grpc;http/protobuf;http/json
	Protocol string `json:"protocol,omitempty"`
	// ServiceName of the server's telemetry; the LlamaStackDistribution's name when unset.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	ServiceName string `json:"serviceName,omitempty"`
	// SamplingPercent of the traces to keep (parent-based); all when unset.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	SamplingPercent *int32 `json:"samplingPercent,omitempty"`
	// Headers sent to the collector, each from a Secret (OTEL_EXPORTER_OTLP_HEADERS).
	// +optional
	// +kubebuilder:validation:MaxProperties=16
	Headers map[string]SecretKeySource `json:"headers,omitempty"`
}

// The OTLP protocols of spec.telemetry.protocol.
const (
	TelemetryProtocolGRPC = "grpc"
	TelemetryProtocolHTTP = "http/protobuf"
)

// OverrideConfigSpec names a ConfigMap in the same namespace whose config.yaml key (or Key)
// is used as the server's config.yaml.
//
//	overrideConfig: {configMapName: my-stack, key: run.yaml}
type OverrideConfigSpec struct {
	// ConfigMapName of the ConfigMap.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ConfigMapName string `json:"configMapName"`
	// Key of the ConfigMap that holds the config; config.yaml when unset. Older upstream
	// releases read run.yaml.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[-._a-zA-Z0-9]+$`
	Key string `json:"key,omitempty"`
}

// DefaultOverrideConfigKey is the key of an override or base config ConfigMap read when Key
// is unset.
const DefaultOverrideConfigKey = "config.yaml"

// ConfigKey is the key of the ConfigMap that holds the config.
func (o *OverrideConfigSpec) ConfigKey() string { return cmp.Or(o.Key, DefaultOverrideConfigKey) }
