// SPDX-License-Identifier: Apache-2.0

package config

import (
	"github.com/llamastack/llsd/internal/profile"
)

// fieldMap says where a provider keeps what spec.providers[] expresses as typed fields.
type fieldMap struct {
	// Endpoint is the config key for endpoint ("" when the provider has none).
	Endpoint string
	// Credential is the config key for apiKey ("" when the provider takes none).
	Credential string
	// Credentials, when set, are the names the credential key had, oldest first: the last one
	// the server version has is Credential (bedrock's api_key is aws_bedrock_bearer_token from
	// OGX 1.1).
	Credentials []string
	// PostgresEndpoint means endpoint is host[:port][/db] and fills host, port and db.
	PostgresEndpoint bool
	// Required are config keys the provider cannot start without (server default missing
	// or insecure), with the fix.
	Required []requirement
	// Persistence: the provider stores its index metadata in a KV backend reference.
	Persistence bool
	// DBPath is the key of a local database file ("" for none).
	DBPath string
	// DirPath is the key of a local directory ("" for none).
	DirPath string
	// OpenAIPath: the endpoint is an OpenAI-compatible server, whose API is under /v1.
	OpenAIPath bool
}

type requirement struct {
	Key string
	Fix string
}

var (
	needEndpoint = func(key string) requirement {
		return requirement{key, "set endpoint (or settings." + key + ")"}
	}
	needSecret = func(key string) requirement {
		return requirement{key, "set secretRefs." + key + " (the server's default is not safe to deploy)"}
	}
)

// fieldMaps maps provider_type to its config keys (the same in 0.6 and 0.7; keys are the
// pydantic aliases the server reads, e.g. vLLM's credential is api_token).
var fieldMaps = map[string]fieldMap{
	// inference
	"remote::vllm":                {Endpoint: "base_url", Credential: "api_token", Required: []requirement{needEndpoint("base_url")}, OpenAIPath: true},
	"remote::ollama":              {Endpoint: "base_url", Credential: "auth_credential", OpenAIPath: true},
	"remote::tgi":                 {Endpoint: "base_url", Credential: "auth_credential", Required: []requirement{needEndpoint("base_url")}},
	"remote::hf::endpoint":        {Credential: "api_token", Required: []requirement{{"endpoint_name", "set settings.endpoint_name"}}},
	"remote::hf::serverless":      {Credential: "api_token", Required: []requirement{{"huggingface_repo", "set settings.huggingface_repo"}}},
	"remote::databricks":          {Endpoint: "base_url", Credential: "api_token", Required: []requirement{needEndpoint("base_url")}},
	"remote::runpod":              {Endpoint: "base_url", Credential: "api_token", Required: []requirement{needEndpoint("base_url")}},
	"remote::openai":              {Endpoint: "base_url", Credential: "api_key", OpenAIPath: true},
	"remote::azure":               {Endpoint: "base_url", Credential: "api_key", Required: []requirement{needEndpoint("base_url")}},
	"remote::watsonx":             {Endpoint: "base_url", Credential: "api_key"},
	"remote::together":            {Endpoint: "base_url", Credential: "api_key"},
	"remote::fireworks":           {Endpoint: "base_url", Credential: "api_key"},
	"remote::nvidia":              {Endpoint: "base_url", Credential: "api_key"},
	"remote::groq":                {Endpoint: "base_url", Credential: "api_key"},
	"remote::sambanova":           {Endpoint: "base_url", Credential: "api_key"},
	"remote::cerebras":            {Endpoint: "base_url", Credential: "api_key"},
	"remote::llama-openai-compat": {Endpoint: "base_url", Credential: "api_key"},
	"remote::llama-cpp-server":    {Endpoint: "base_url", Credential: "api_key", OpenAIPath: true},
	"remote::passthrough":         {Endpoint: "base_url", Credential: "api_key", Required: []requirement{needEndpoint("base_url")}},
	"remote::oci#inference":       {Credential: "api_key"},
	"remote::bedrock":             {Credentials: []string{"api_key", "aws_bedrock_bearer_token"}},
	"remote::anthropic":           {Credential: "api_key"},
	"remote::gemini":              {Credential: "api_key"},
	"remote::vertexai":            {Credential: "access_token", Required: []requirement{{"project", "set settings.project to the Google Cloud project"}}},
	// vector_io
	"remote::pgvector": {PostgresEndpoint: true, Credential: "password", Persistence: true, Required: []requirement{
		{"host", "set endpoint to host:port/database"}, {"db", "set endpoint to host:port/database"},
		needSecret("user"), needSecret("password")}},
	"remote::qdrant":         {Endpoint: "url", Credential: "api_key", Persistence: true},
	"remote::milvus":         {Endpoint: "uri", Credential: "token", Persistence: true, Required: []requirement{needEndpoint("uri")}},
	"remote::chromadb":       {Endpoint: "url", Persistence: true, Required: []requirement{needEndpoint("url")}},
	"remote::weaviate":       {Endpoint: "weaviate_cluster_url", Credential: "weaviate_api_key", Persistence: true},
	"remote::elasticsearch":  {Endpoint: "elasticsearch_url", Credential: "elasticsearch_api_key", Persistence: true},
	"remote::infinispan":     {Endpoint: "url", Credential: "password", Persistence: true},
	"inline::faiss":          {Persistence: true},
	"inline::builtin":        {Persistence: true},
	"inline::meta-reference": {Persistence: true},
	"inline::sqlite-vec":     {Persistence: true, DBPath: "db_path"},
	"inline::sqlite_vec":     {Persistence: true, DBPath: "db_path"},
	"inline::milvus":         {Persistence: true, DBPath: "db_path"},
	"inline::chromadb":       {Persistence: true, DBPath: "db_path"},
	"inline::qdrant":         {Persistence: true, DBPath: "path"},
	// safety
	"remote::nvidia#safety":      {Endpoint: "guardrails_service_url", Required: []requirement{needEndpoint("guardrails_service_url")}},
	"remote::sambanova#safety":   {Endpoint: "url", Credential: "api_key"},
	"remote::passthrough#safety": {Endpoint: "base_url", Credential: "api_key", Required: []requirement{needEndpoint("base_url")}},
	"remote::bedrock#safety":     {},
	// files, file_processors (API-specific: their names recur in other APIs)
	"remote::s3#files":                         {Endpoint: "endpoint_url", Required: []requirement{{"bucket_name", "set settings.bucket_name"}}},
	"remote::openai#files":                     {Credential: "api_key", Required: []requirement{{"api_key", "set apiKey to the key's Secret"}}},
	"inline::localfs#files":                    {DirPath: "storage_dir"},
	"remote::docling-serve#file_processors":    {Endpoint: "base_url", Credential: "api_key"},
	"remote::unstructured-api#file_processors": {Credential: "api_key", Required: []requirement{{"api_key", "set apiKey to the key's Secret"}}},
	// tool_runtime
	"remote::brave-search":  {Credential: "api_key"},
	"remote::tavily-search": {Credential: "api_key"},
	"remote::bing-search":   {Credential: "api_key"},
	"remote::wolfram-alpha": {Credential: "api_key"},
}

// fieldMapFor returns the field map of a provider type in an API at a server version;
// API-specific entries (remote::nvidia is both an inference and a safety provider) win.
func fieldMapFor(p *profile.Profile, api, providerType string) fieldMap {
	fm, ok := fieldMaps[providerType+"#"+api]
	if !ok && (api == "vector_io" || api == "inference" || api == "tool_runtime") {
		fm = fieldMaps[providerType]
	}
	fields, _ := p.Fields(api, providerType)
	for _, name := range fm.Credentials {
		if _, ok := profile.FieldNamed(fields, name); ok {
			fm.Credential = name
		}
	}
	return fm
}

// EndpointKey is the config key where a provider of an API keeps the address it connects to
// ("" when it has none, or llsd's catalog does not know the provider).
func EndpointKey(api, providerType string) string {
	fm, ok := fieldMaps[providerType+"#"+api]
	if !ok && (api == "vector_io" || api == "inference" || api == "tool_runtime") {
		fm = fieldMaps[providerType]
	}
	if fm.PostgresEndpoint {
		return "host"
	}
	return fm.Endpoint
}

// keys lists the config keys the field map writes.
func (fm fieldMap) keys() []string {
	var keys []string
	for _, k := range []string{fm.Endpoint, fm.Credential, fm.DBPath, fm.DirPath} {
		if k != "" {
			keys = append(keys, k)
		}
	}
	if fm.Persistence {
		keys = append(keys, "persistence")
	}
	if fm.PostgresEndpoint {
		keys = append(keys, "host", "port", "db")
	}
	for _, r := range fm.Required {
		keys = append(keys, r.Key)
	}
	return keys
}
