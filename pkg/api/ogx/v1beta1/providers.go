// SPDX-License-Identifier: Apache-2.0

package v1beta1

import "encoding/json"

// ProvidersSpec are the providers, typed: per API a remote and an inline group, in each a list (or one object)
// per provider, and custom lists for any other provider type. The struct tags carry what
// llsd needs to write each into config.yaml:
//
//   - provider (on a group's field): the provider type in the server's spelling, and id the
//     provider id the successor derives when the entry names none;
//   - config (on a provider's field): the config key it is written to; role:"endpoint" and
//     role:"credential" mark the URL and the credential, which llsd writes as an LLSD's
//     endpoint and apiKey (a Secret reference becomes a variable the config reads).
//
// Field names and config keys are the successor's (ogx-ai/ogx-k8s-operator api/v1beta1
// provider_types_*.go and pkg/config/provider.go at 1784464); provider types are the server's
// (OGX 1.3: tool_runtime file-search is inline::file-search, batches inline::reference,
// responses inline::builtin).
type ProvidersSpec struct {
	Inference      *InferenceProviders      `json:"inference,omitempty" api:"inference"`
	VectorIo       *VectorIOProviders       `json:"vectorIo,omitempty" api:"vector_io"`
	ToolRuntime    *ToolRuntimeProviders    `json:"toolRuntime,omitempty" api:"tool_runtime"`
	Files          *FilesProviders          `json:"files,omitempty" api:"files"`
	Batches        *BatchesProviders        `json:"batches,omitempty" api:"batches"`
	Responses      *ResponsesProviders      `json:"responses,omitempty" api:"responses"`
	FileProcessors *FileProcessorsProviders `json:"fileProcessors,omitempty" api:"file_processors"`
}

// CustomProvider is any provider type: its settings are written as they are, each secretRef
// becomes a variable the config key of its name reads.
type CustomProvider struct {
	ID         string                  `json:"id,omitempty"`
	Type       string                  `json:"type"`
	SecretRefs map[string]SecretKeyRef `json:"secretRefs,omitempty"`
	Settings   json.RawMessage         `json:"settings,omitempty"`
}

// RemoteInferenceCommon are the fields every typed remote inference provider has.
type RemoteInferenceCommon struct {
	AllowedModels []string       `json:"allowedModels,omitempty" config:"allowed_models"`
	RefreshModels *bool          `json:"refreshModels,omitempty" config:"refresh_models"`
	Network       *NetworkConfig `json:"network,omitempty" config:"network"`
}

// NetworkConfig is how a remote provider connects: TLS, proxy, timeouts, headers.
type NetworkConfig struct {
	TLS     *ProviderTLS      `json:"tls,omitempty" config:"tls"`
	Proxy   *ProviderProxy    `json:"proxy,omitempty" config:"proxy"`
	Timeout *ProviderTimeout  `json:"timeout,omitempty" config:"timeout"`
	Headers map[string]string `json:"headers,omitempty" config:"headers"`
}

// ProviderTLS is whether a provider's certificate is verified, and how.
type ProviderTLS struct {
	Verify     *bool    `json:"verify,omitempty" config:"verify"`
	MinVersion string   `json:"minVersion,omitempty" config:"min_version"`
	Ciphers    []string `json:"ciphers,omitempty" config:"ciphers"`
}

// ProviderProxy is the proxy a provider is reached through.
type ProviderProxy struct {
	URL     string   `json:"url,omitempty" config:"url"`
	HTTP    string   `json:"http,omitempty" config:"http"`
	HTTPS   string   `json:"https,omitempty" config:"https"`
	CACert  string   `json:"cacert,omitempty" config:"cacert"`
	NoProxy []string `json:"noProxy,omitempty" config:"no_proxy"`
}

// ProviderTimeout are a provider's connect and read timeouts, in seconds.
type ProviderTimeout struct {
	Connect *int `json:"connect,omitempty" config:"connect"`
	Read    *int `json:"read,omitempty" config:"read"`
}

// InferenceProviders are the inference API's providers.
type InferenceProviders struct {
	Remote *InferenceRemote `json:"remote,omitempty"`
	Inline *CustomOnly      `json:"inline,omitempty"`
}

// CustomOnly is a group that has only custom providers.
type CustomOnly struct {
	Custom []CustomProvider `json:"custom,omitempty"`
}

// InferenceRemote are the typed remote inference providers.
type InferenceRemote struct {
	VLLM     []VLLMProvider     `json:"vllm,omitempty" provider:"remote::vllm" id:"remote-vllm"`
	OpenAI   []OpenAIProvider   `json:"openai,omitempty" provider:"remote::openai" id:"remote-openai"`
	Azure    []AzureProvider    `json:"azure,omitempty" provider:"remote::azure" id:"remote-azure"`
	Bedrock  []BedrockProvider  `json:"bedrock,omitempty" provider:"remote::bedrock" id:"remote-bedrock"`
	VertexAI []VertexAIProvider `json:"vertexai,omitempty" provider:"remote::vertexai" id:"remote-vertexai"`
	Watsonx  []WatsonxProvider  `json:"watsonx,omitempty" provider:"remote::watsonx" id:"remote-watsonx"`
	Custom   []CustomProvider   `json:"custom,omitempty"`
}

// VLLMProvider is remote::vllm.
type VLLMProvider struct {
	ID                    string `json:"id,omitempty"`
	RemoteInferenceCommon `json:",inline"`
	Endpoint              string        `json:"endpoint" config:"base_url" role:"endpoint"`
	APIToken              *SecretKeyRef `json:"apiToken,omitempty" config:"api_token" role:"credential"`
	MaxTokens             *int          `json:"maxTokens,omitempty" config:"max_tokens"`
}

// OpenAIProvider is remote::openai.
type OpenAIProvider struct {
	ID                    string `json:"id,omitempty"`
	RemoteInferenceCommon `json:",inline"`
	Endpoint              string       `json:"endpoint,omitempty" config:"base_url" role:"endpoint"`
	APIKey                SecretKeyRef `json:"apiKey" config:"api_key" role:"credential"`
}

// AzureProvider is remote::azure.
type AzureProvider struct {
	ID                    string `json:"id,omitempty"`
	RemoteInferenceCommon `json:",inline"`
	Endpoint              string       `json:"endpoint" config:"base_url" role:"endpoint"`
	APIKey                SecretKeyRef `json:"apiKey" config:"api_key" role:"credential"`
	APIVersion            string       `json:"apiVersion,omitempty" config:"api_version"`
	APIType               string       `json:"apiType,omitempty" config:"api_type"`
}

// BedrockProvider is remote::bedrock.
type BedrockProvider struct {
	ID                      string `json:"id,omitempty"`
	RemoteInferenceCommon   `json:",inline"`
	Region                  string        `json:"region" config:"region_name"`
	APIKey                  *SecretKeyRef `json:"apiKey,omitempty" config:"api_key" role:"credential"`
	AWSAccessKeyID          *SecretKeyRef `json:"awsAccessKeyId,omitempty" config:"aws_access_key_id"`
	AWSSecretAccessKey      *SecretKeyRef `json:"awsSecretAccessKey,omitempty" config:"aws_secret_access_key"`
	AWSSessionToken         *SecretKeyRef `json:"awsSessionToken,omitempty" config:"aws_session_token"`
	AWSRoleArn              string        `json:"awsRoleArn,omitempty" config:"aws_role_arn"`
	AWSWebIdentityTokenFile string        `json:"awsWebIdentityTokenFile,omitempty" config:"aws_web_identity_token_file"`
	AWSRoleSessionName      string        `json:"awsRoleSessionName,omitempty" config:"aws_role_session_name"`
	ProfileName             string        `json:"profileName,omitempty" config:"profile_name"`
	TotalMaxAttempts        *int          `json:"totalMaxAttempts,omitempty" config:"total_max_attempts"`
	RetryMode               string        `json:"retryMode,omitempty" config:"retry_mode"`
	ConnectTimeout          *int          `json:"connectTimeout,omitempty" config:"connect_timeout"`
	ReadTimeout             *int          `json:"readTimeout,omitempty" config:"read_timeout"`
	SessionTTL              *int          `json:"sessionTTL,omitempty" config:"session_ttl"`
}

// VertexAIProvider is remote::vertexai.
type VertexAIProvider struct {
	ID                    string `json:"id,omitempty"`
	RemoteInferenceCommon `json:",inline"`
	Project               string `json:"project" config:"project"`
	Location              string `json:"location,omitempty" config:"location"`
}

// WatsonxProvider is remote::watsonx.
type WatsonxProvider struct {
	ID                    string `json:"id,omitempty"`
	RemoteInferenceCommon `json:",inline"`
	Endpoint              string       `json:"endpoint,omitempty" config:"base_url" role:"endpoint"`
	APIKey                SecretKeyRef `json:"apiKey" config:"api_key" role:"credential"`
	ProjectID             string       `json:"projectId,omitempty" config:"project_id"`
	Timeout               *int         `json:"timeout,omitempty" config:"timeout"`
}

// VectorIOProviders are the vector_io API's providers.
type VectorIOProviders struct {
	Remote *VectorIORemote `json:"remote,omitempty"`
	Inline *CustomOnly     `json:"inline,omitempty"`
}

// VectorIORemote are the typed remote vector_io providers.
type VectorIORemote struct {
	Pgvector []PgvectorProvider `json:"pgvector,omitempty" provider:"remote::pgvector" id:"remote-pgvector"`
	Milvus   []MilvusProvider   `json:"milvus,omitempty" provider:"remote::milvus" id:"remote-milvus"`
	Qdrant   []QdrantProvider   `json:"qdrant,omitempty" provider:"remote::qdrant" id:"remote-qdrant"`
	Custom   []CustomProvider   `json:"custom,omitempty"`
}

// PgvectorProvider is remote::pgvector.
type PgvectorProvider struct {
	ID             string       `json:"id,omitempty"`
	Host           string       `json:"host,omitempty" config:"host"`
	Port           *int         `json:"port,omitempty" config:"port"`
	DB             string       `json:"db,omitempty" config:"db"`
	User           string       `json:"user,omitempty" config:"user"`
	Password       SecretKeyRef `json:"password" config:"password"`
	DistanceMetric string       `json:"distanceMetric,omitempty" config:"distance_metric"`
	VectorIndex    *VectorIndex `json:"vectorIndex,omitempty" config:"vector_index"`
}

// VectorIndex is pgvector's index: HNSW or IVFFlat, one of them.
type VectorIndex struct {
	HNSW    *HNSWIndex    `json:"hnsw,omitempty" config:"hnsw"`
	IVFFlat *IVFFlatIndex `json:"ivfFlat,omitempty" config:"ivf_flat"`
}

// HNSWIndex are HNSW's parameters.
type HNSWIndex struct {
	M              *int `json:"m,omitempty" config:"m"`
	EfConstruction *int `json:"efConstruction,omitempty" config:"ef_construction"`
	EfSearch       *int `json:"efSearch,omitempty" config:"ef_search"`
}

// IVFFlatIndex are IVFFlat's parameters.
type IVFFlatIndex struct {
	Nlist  *int `json:"nlist,omitempty" config:"nlist"`
	Nprobe *int `json:"nprobe,omitempty" config:"nprobe"`
}

// MilvusProvider is remote::milvus.
type MilvusProvider struct {
	ID               string        `json:"id,omitempty"`
	URI              string        `json:"uri" config:"uri" role:"endpoint"`
	Token            *SecretKeyRef `json:"token,omitempty" config:"token" role:"credential"`
	ConsistencyLevel string        `json:"consistencyLevel,omitempty" config:"consistency_level"`
}

// QdrantProvider is remote::qdrant.
type QdrantProvider struct {
	ID         string        `json:"id,omitempty"`
	URL        string        `json:"url,omitempty" config:"url" role:"endpoint"`
	Host       string        `json:"host,omitempty" config:"host"`
	Port       *int          `json:"port,omitempty" config:"port"`
	APIKey     *SecretKeyRef `json:"apiKey,omitempty" config:"api_key" role:"credential"`
	Location   string        `json:"location,omitempty" config:"location"`
	GRPCPort   *int          `json:"grpcPort,omitempty" config:"grpc_port"`
	PreferGRPC *bool         `json:"preferGrpc,omitempty" config:"prefer_grpc"`
	HTTPS      *bool         `json:"https,omitempty" config:"https"`
	Prefix     string        `json:"prefix,omitempty" config:"prefix"`
	Timeout    *int          `json:"timeout,omitempty" config:"timeout"`
}

// ToolRuntimeProviders are the tool_runtime API's providers.
type ToolRuntimeProviders struct {
	Remote *ToolRuntimeRemote `json:"remote,omitempty"`
	Inline *ToolRuntimeInline `json:"inline,omitempty"`
}

// ToolRuntimeRemote are the typed remote tool_runtime providers.
type ToolRuntimeRemote struct {
	BraveSearch          []SearchProvider `json:"braveSearch,omitempty" provider:"remote::brave-search" id:"remote-brave-search"`
	TavilySearch         []SearchProvider `json:"tavilySearch,omitempty" provider:"remote::tavily-search" id:"remote-tavily-search"`
	ModelContextProtocol []IDOnly         `json:"modelContextProtocol,omitempty" provider:"remote::model-context-protocol" id:"remote-model-context-protocol"`
	Custom               []CustomProvider `json:"custom,omitempty"`
}

// SearchProvider is a web search tool: its key and how many results it returns.
type SearchProvider struct {
	ID         string       `json:"id,omitempty"`
	APIKey     SecretKeyRef `json:"apiKey" config:"api_key" role:"credential"`
	MaxResults *int         `json:"maxResults,omitempty" config:"max_results"`
}

// IDOnly is a provider with nothing to set but its id.
type IDOnly struct {
	ID string `json:"id,omitempty"`
}

// ToolRuntimeInline are the typed inline tool_runtime providers.
type ToolRuntimeInline struct {
	FileSearch []FileSearchProvider `json:"fileSearch,omitempty" provider:"inline::file-search" id:"inline-file-search"`
	Custom     []CustomProvider     `json:"custom,omitempty"`
}

// FileSearchProvider is the file search tool.
type FileSearchProvider struct {
	ID                 string          `json:"id,omitempty"`
	VectorStoresConfig json.RawMessage `json:"vectorStoresConfig,omitempty" config:"vector_stores_config"`
}

// FilesProviders are the files API's providers.
type FilesProviders struct {
	Remote *FilesRemote `json:"remote,omitempty"`
	Inline *FilesInline `json:"inline,omitempty"`
}

// FilesRemote are the remote files providers.
type FilesRemote struct {
	S3     *S3Provider      `json:"s3,omitempty" provider:"remote::s3" id:"remote-s3"`
	Custom []CustomProvider `json:"custom,omitempty"`
}

// S3Provider is remote::s3.
type S3Provider struct {
	BucketName         string        `json:"bucketName" config:"bucket_name"`
	Region             string        `json:"region,omitempty" config:"region"`
	AWSAccessKeyID     *SecretKeyRef `json:"awsAccessKeyId,omitempty" config:"aws_access_key_id"`
	AWSSecretAccessKey *SecretKeyRef `json:"awsSecretAccessKey,omitempty" config:"aws_secret_access_key"`
	EndpointURL        string        `json:"endpointUrl,omitempty" config:"endpoint_url" role:"endpoint"`
	AutoCreateBucket   *bool         `json:"autoCreateBucket,omitempty" config:"auto_create_bucket"`
}

// FilesInline are the inline files providers.
type FilesInline struct {
	LocalFS *LocalFSProvider `json:"localfs,omitempty" provider:"inline::localfs" id:"inline-localfs"`
	Custom  []CustomProvider `json:"custom,omitempty"`
}

// LocalFSProvider is inline::localfs.
type LocalFSProvider struct {
	TTLSecs *int `json:"ttlSecs,omitempty" config:"ttl_secs"`
}

// BatchesProviders are the batches API's providers.
type BatchesProviders struct {
	Remote *CustomOnly    `json:"remote,omitempty"`
	Inline *BatchesInline `json:"inline,omitempty"`
}

// BatchesInline are the inline batches providers.
type BatchesInline struct {
	Reference *ReferenceBatches `json:"reference,omitempty" provider:"inline::reference" id:"inline-reference"`
	Custom    []CustomProvider  `json:"custom,omitempty"`
}

// ReferenceBatches is inline::reference.
type ReferenceBatches struct {
	MaxConcurrentBatches          *int `json:"maxConcurrentBatches,omitempty" config:"max_concurrent_batches"`
	MaxConcurrentRequestsPerBatch *int `json:"maxConcurrentRequestsPerBatch,omitempty" config:"max_concurrent_requests_per_batch"`
}

// ResponsesProviders are the responses API's providers.
type ResponsesProviders struct {
	Remote *CustomOnly      `json:"remote,omitempty"`
	Inline *ResponsesInline `json:"inline,omitempty"`
}

// ResponsesInline are the inline responses providers.
type ResponsesInline struct {
	Builtin *BuiltinResponses `json:"builtin,omitempty" provider:"inline::builtin" id:"inline-builtin"`
	Custom  []CustomProvider  `json:"custom,omitempty"`
}

// BuiltinResponses is inline::builtin: its vector store and compaction settings, as the
// server reads them.
type BuiltinResponses struct {
	VectorStoresConfig json.RawMessage `json:"vectorStoresConfig,omitempty" config:"vector_stores_config"`
	CompactionConfig   json.RawMessage `json:"compactionConfig,omitempty" config:"compaction_config"`
}

// FileProcessorsProviders are the file_processors API's providers.
type FileProcessorsProviders struct {
	Remote *FileProcessorsRemote `json:"remote,omitempty"`
	Inline *FileProcessorsInline `json:"inline,omitempty"`
}

// FileProcessorsRemote are the remote file processors.
type FileProcessorsRemote struct {
	DoclingServe *DoclingServeProvider `json:"doclingServe,omitempty" provider:"remote::docling-serve" id:"remote-docling-serve"`
	Custom       []CustomProvider      `json:"custom,omitempty"`
}

// DoclingServeProvider is remote::docling-serve.
type DoclingServeProvider struct {
	BaseURL                string        `json:"baseUrl" config:"base_url" role:"endpoint"`
	APIKey                 *SecretKeyRef `json:"apiKey,omitempty" config:"api_key" role:"credential"`
	DefaultChunkSizeTokens *int          `json:"defaultChunkSizeTokens,omitempty" config:"default_chunk_size_tokens"`
}

// FileProcessorsInline are the inline file processors.
type FileProcessorsInline struct {
	Auto       *TextFileProcessor `json:"auto,omitempty" provider:"inline::auto" id:"inline-auto"`
	PyPDF      *TextFileProcessor `json:"pypdf,omitempty" provider:"inline::pypdf" id:"inline-pypdf"`
	MarkItDown *ChunkOnly         `json:"markitdown,omitempty" provider:"inline::markitdown" id:"inline-markitdown"`
	Docling    *DoclingProcessor  `json:"docling,omitempty" provider:"inline::docling" id:"inline-docling"`
	Custom     []CustomProvider   `json:"custom,omitempty"`
}

// ChunkOnly are the chunking settings every file processor has.
type ChunkOnly struct {
	DefaultChunkSizeTokens    *int `json:"defaultChunkSizeTokens,omitempty" config:"default_chunk_size_tokens"`
	DefaultChunkOverlapTokens *int `json:"defaultChunkOverlapTokens,omitempty" config:"default_chunk_overlap_tokens"`
}

// TextFileProcessor is inline::auto or inline::pypdf.
type TextFileProcessor struct {
	ChunkOnly       `json:",inline"`
	ExtractMetadata *bool `json:"extractMetadata,omitempty" config:"extract_metadata"`
	CleanText       *bool `json:"cleanText,omitempty" config:"clean_text"`
}

// DoclingProcessor is inline::docling.
type DoclingProcessor struct {
	ChunkOnly `json:",inline"`
	DoOCR     *bool `json:"doOcr,omitempty" config:"do_ocr"`
}
