// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Facts of the server's source (github.com/ogx-ai/ogx at v0.6.0, v0.7.1 and main for 0.8;
// github.com/opendatahub-io/ogx at v1.0.0, v1.1.0, v1.2.1 and v1.3.0), restated here so that
// the oracle does not share tables with the generator it judges.

type apiSet []string

func (s apiSet) has(api string) bool { return slices.Contains(s, api) }

// serverAPIs are the values of the Api enum (llama_stack_api/datatypes.py).
var serverAPIs = map[string]apiSet{
	"0.6": strings.Fields("providers inference safety agents batches vector_io datasetio scoring eval post_training " +
		"tool_runtime models shields vector_stores datasets scoring_functions benchmarks tool_groups files " +
		"file_processors prompts conversations connectors inspect admin"),
	"0.7": strings.Fields("providers inference safety responses batches vector_io datasetio scoring eval tool_runtime " +
		"models shields vector_stores datasets scoring_functions benchmarks tool_groups files file_processors prompts " +
		"conversations connectors inspect admin"),
	"0.8": strings.Fields("providers inference safety responses batches vector_io tool_runtime models shields " +
		"vector_stores tool_groups files file_processors prompts conversations connectors messages interactions inspect admin"),
	// src/ogx_api/datatypes.py class Api at each tag: 1.0 removed safety and shields, 1.1
	// added skills, 1.2 container_runtime and containers.
	"1.0": strings.Fields(ogx1APIs),
	"1.1": strings.Fields(ogx1APIs + " skills"),
	"1.2": strings.Fields(ogx1APIs + " skills container_runtime containers"),
	"1.3": strings.Fields(ogx1APIs + " skills container_runtime containers"),
}

const ogx1APIs = "providers inference responses batches vector_io tool_runtime models vector_stores tool_groups files " +
	"file_processors prompts conversations connectors messages interactions inspect admin"

// ogx1 reports whether a version is OGX 1.x.
func ogx1(version string) bool { return strings.HasPrefix(version, "1.") }

// atLeast reports whether version (major.minor) is min or later.
func atLeast(version, min string) bool {
	var vMajor, vMinor, mMajor, mMinor int
	_, _ = fmt.Sscanf(version, "%d.%d", &vMajor, &vMinor)
	_, _ = fmt.Sscanf(min, "%d.%d", &mMajor, &mMinor)
	return vMajor > mMajor || vMajor == mMajor && vMinor >= mMinor
}

// internalAPIs are always instantiated and take no providers (core/distribution.py).
var internalAPIs = map[string]bool{
	"inspect": true, "providers": true, "admin": true, "prompts": true, "conversations": true, "connectors": true,
}

// routingTables maps each routing table to its router API (core/resolver.py).
var routingTables = map[string]string{
	"models": "inference", "shields": "safety", "vector_stores": "vector_io", "tool_groups": "tool_runtime",
	"datasets": "datasetio", "scoring_functions": "scoring", "benchmarks": "eval",
}

// routerOf returns the router API of a router or routing table, "" for other APIs.
func routerOf(api string) string {
	if router, ok := routingTables[api]; ok {
		return router
	}
	for _, router := range routingTables {
		if router == api {
			return api
		}
	}
	return ""
}

// dependencies are the api_dependencies of each provider, keyed "api provider_type"
// (providers/registry/*.py). Optional dependencies are left out: they never fail start-up.
var dependencies = map[string]map[string][]string{
	"0.6": withVectorIO(map[string][]string{
		"agents inline::meta-reference":         strings.Fields("inference vector_io tool_runtime tool_groups conversations prompts files connectors"),
		"batches inline::reference":             strings.Fields("inference files models"),
		"eval inline::meta-reference":           strings.Fields("datasetio datasets scoring inference agents"),
		"eval remote::nvidia":                   strings.Fields("datasetio datasets scoring inference agents"),
		"file_processors inline::pypdf":         {"files"},
		"post_training inline::huggingface-gpu": {"datasetio", "datasets"},
		"post_training inline::torchtune-cpu":   {"datasetio", "datasets"},
		"post_training inline::torchtune-gpu":   {"datasetio", "datasets"},
		"safety inline::llama-guard":            {"inference"},
		"scoring inline::basic":                 {"datasetio", "datasets"},
		"scoring inline::llm-as-judge":          {"datasetio", "datasets", "inference"},
		"scoring inline::braintrust":            {"datasetio", "datasets"},
		"tool_runtime inline::rag-runtime":      {"vector_io", "inference", "files"},
	}, "inline::meta-reference inline::sqlite_vec"),
	"0.7": withVectorIO(map[string][]string{
		"batches inline::reference":        strings.Fields("inference files models"),
		"eval inline::builtin":             strings.Fields("datasetio datasets scoring inference responses"),
		"eval remote::nvidia":              strings.Fields("datasetio datasets scoring inference responses"),
		"file_processors inline::pypdf":    {"files"},
		"file_processors inline::docling":  {"files"},
		"responses inline::builtin":        strings.Fields("inference vector_io tool_runtime tool_groups conversations prompts files connectors"),
		"safety inline::llama-guard":       {"inference"},
		"scoring inline::basic":            {"datasetio", "datasets"},
		"scoring inline::llm-as-judge":     {"datasetio", "datasets", "inference"},
		"scoring inline::braintrust":       {"datasetio", "datasets"},
		"tool_runtime inline::file-search": {"vector_io", "inference", "files"},
	}, "inline::builtin inline::sqlite_vec remote::infinispan"),
	"0.8": withVectorIO(map[string][]string{
		"batches inline::reference":             strings.Fields("inference files models"),
		"file_processors inline::pypdf":         {"files"},
		"file_processors inline::docling":       {"files"},
		"file_processors remote::docling-serve": {"files"},
		"interactions inline::builtin":          {"inference"},
		"messages inline::builtin":              {"inference"},
		"responses inline::builtin":             strings.Fields("inference vector_io tool_runtime tool_groups conversations prompts files connectors"),
		"safety inline::llama-guard":            {"inference"},
		"tool_runtime inline::file-search":      {"vector_io", "inference", "files"},
	}, "remote::infinispan"),
	// src/ogx/providers/registry/*.py: the same at 1.0.0 to 1.3.0 but for skills (1.1) and
	// the file processors and vector_io providers each tag has.
	"1.0": withVectorIO(ogx1Dependencies("inline::auto inline::markitdown"), "remote::infinispan"),
	"1.1": withVectorIO(ogx1Dependencies("inline::auto inline::markitdown", "skills inline::builtin=files"), "remote::infinispan"),
	"1.2": withVectorIO(ogx1Dependencies("inline::auto inline::markitdown inline::unstructured remote::unstructured-api",
		"skills inline::builtin=files"), "remote::infinispan"),
	"1.3": withVectorIO(ogx1Dependencies("inline::auto inline::markitdown inline::unstructured remote::unstructured-api",
		"skills inline::builtin=files"), "remote::infinispan remote::neo4j"),
}

// ogx1Dependencies are the required dependencies of 1.x providers: every file processor
// (pypdf, docling, docling-serve and those named) needs files; extra entries are
// "api provider_type=dep,dep".
func ogx1Dependencies(processors string, extra ...string) map[string][]string {
	deps := map[string][]string{
		"batches inline::reference":        strings.Fields("inference files models"),
		"interactions inline::builtin":     {"inference"},
		"messages inline::builtin":         {"inference"},
		"responses inline::builtin":        strings.Fields("inference vector_io tool_runtime tool_groups conversations prompts files connectors"),
		"tool_runtime inline::file-search": {"vector_io", "inference", "files"},
	}
	for _, t := range append(strings.Fields("inline::pypdf inline::docling remote::docling-serve"), strings.Fields(processors)...) {
		deps["file_processors "+t] = []string{"files"}
	}
	for _, e := range extra {
		key, needs, _ := strings.Cut(e, "=")
		deps[key] = strings.Split(needs, ",")
	}
	return deps
}

// withVectorIO adds the vector_io providers of a version, which all depend on inference:
// the ones every version has plus extra.
func withVectorIO(deps map[string][]string, extra string) map[string][]string {
	for _, t := range append(strings.Fields("inline::faiss inline::sqlite-vec remote::chromadb inline::chromadb "+
		"remote::pgvector remote::weaviate inline::qdrant remote::qdrant remote::milvus inline::milvus "+
		"remote::elasticsearch remote::oci"), strings.Fields(extra)...) {
		deps["vector_io "+t] = []string{"inference"}
	}
	return deps
}

// resourceKinds are the lists of registered_resources, the routing table that registers each
// and the API of the providers they name (core/stack.py RESOURCES).
var resourceKinds = []struct {
	kind, idKey, table, api string
}{
	{"models", "model_id", "models", "inference"},
	{"shields", "shield_id", "shields", "safety"},
	{"datasets", "dataset_id", "datasets", "datasetio"},
	{"scoring_fns", "scoring_fn_id", "scoring_functions", "scoring"},
	{"benchmarks", "benchmark_id", "benchmarks", "eval"},
	{"tool_groups", "toolgroup_id", "tool_groups", "tool_runtime"},
	{"vector_stores", "vector_store_id", "vector_stores", "vector_io"},
}

// listedModels are the models inline inference providers list at the model refresh (K1),
// which runs after the registration of config resources: model_id -> model_type.
var listedModels = map[string]map[string]string{
	"inline::sentence-transformers": {"nomic-ai/nomic-embed-text-v1.5": "embedding"},
	"inline::transformers":          {"Qwen/Qwen3-Reranker-0.6B": "rerank"},
}

// fileSearchKeyword is the word header_template must contain (V7): knowledge_search until
// 0.6, file_search since 0.7.
var fileSearchKeyword = map[string]string{"0.6": "knowledge_search", "0.7": "file_search", "0.8": "file_search",
	"1.0": "file_search", "1.1": "file_search", "1.2": "file_search", "1.3": "file_search"}

// portEnv is the variable the server's CLI reads its port from (H1).
var portEnv = map[string]string{"0.6": "LLAMA_STACK_PORT", "0.7": "LLAMA_STACK_PORT", "0.8": "OGX_PORT",
	"1.0": "OGX_PORT", "1.1": "OGX_PORT", "1.2": "OGX_PORT", "1.3": "OGX_PORT"}

// sqlIdentifier is the kv_postgres table_name pattern.
var sqlIdentifier = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
