// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// checkRegistrations: the registration of registered_resources at step 15 (R-rules).
func (s *startup) checkRegistrations() {
	s.models = map[string]map[string]any{}
	s.shields = map[string]bool{}
	rr, _ := s.cfg["registered_resources"].(map[string]any)
	for _, k := range resourceKinds {
		items := entries(rr[k.kind])
		if len(items) == 0 {
			continue
		}
		path := "registered_resources." + k.kind
		if k.kind == "tool_groups" && s.version != "0.6" {
			s.fail("R9", path, "llama-stack %s discards registered_resources.tool_groups without a word: declare MCP servers as connectors", s.version)
			continue
		}
		if !s.routerServed(routingTables[k.table]) {
			s.fail("P6", path, "the %s API is not served (apis does not list it): these %s are silently not registered", routingTables[k.table], k.kind)
			continue
		}
		for i, item := range items {
			s.register(k.kind, k.api, fmt.Sprintf("%s[%d]", path, i), item)
		}
	}
	s.checkOllamaModels()
	s.checkShieldModels()
}

// register checks one resource as its routing table registers it.
func (s *startup) register(kind, api, path string, item map[string]any) {
	if kind == "datasets" {
		s.registerDataset(path, item)
		return
	}
	provider, _ := item["provider_id"].(string)
	if provider == "" || provider == "__disabled__" {
		return // R1: skipped without a word, the upstream way to register a resource conditionally
	}
	if provider == "all" && s.version != "0.6" && s.version != "0.7" {
		// 0.8 (stack.py register_resources): a model is registered as an unprefixed alias on the
		// first inference provider, and any failure is only a warning; other kinds are skipped.
		return
	}
	if s.enabled[api][provider] == nil {
		s.fail("R2", path+".provider_id", "Provider `%s` not found", provider)
		return
	}
	switch kind {
	case "models":
		s.registerModel(path, provider, item)
	case "shields":
		s.registerShield(path, provider, item)
	case "vector_stores":
		s.registerVectorStore(path, item)
	case "tool_groups":
		if s.providerType(api, provider) == "remote::model-context-protocol" && item["mcp_endpoint"] == nil {
			s.fail("R8", path, "mcp_endpoint is required")
		}
	}
}

// registerModel: R3, the identifier is provider_id/provider_model_id (provider_id/model_id
// from 0.8), and an embedding model needs its dimension. The same identifier registered twice with other fields conflicts (X1).
func (s *startup) registerModel(path, provider string, item map[string]any) {
	id := s.modelIdentifier(provider, item)
	if modelType(item) == "embedding" {
		if md, _ := item["metadata"].(map[string]any); md["embedding_dimension"] == nil {
			s.fail("R3", path, "Embedding model must have an embedding dimension in its metadata")
		}
	}
	if prev, ok := s.models[id]; ok && fmt.Sprint(prev) != fmt.Sprint(item) {
		s.fail("X1", path, "Object of type 'model' and identifier '%s' already exists with conflicting field values", id)
	}
	s.models[id] = item
}

// modelIdentifier: routing_tables/models.py register_model. Until 0.7 the identifier is
// provider_id/provider_model_id; from 0.8 it is provider_id/model_id, or model_id when it
// already starts with provider_id/.
func (s *startup) modelIdentifier(provider string, item map[string]any) string {
	if s.version == "0.6" || s.version == "0.7" {
		return provider + "/" + modelName(item)
	}
	id, _ := item["model_id"].(string)
	if strings.HasPrefix(id, provider+"/") {
		return id
	}
	return provider + "/" + id
}

// modelName is the model's name at its provider: provider_model_id, else model_id.
func modelName(item map[string]any) string {
	if name, _ := item["provider_model_id"].(string); name != "" {
		return name
	}
	name, _ := item["model_id"].(string)
	return name
}

func modelType(item map[string]any) string {
	if t, ok := item["model_type"].(string); ok && t != "" {
		return t
	}
	return "llm"
}

// shieldModelIDs are the provider_shield_id values the inline shields accept (R4).
var shieldModelIDs = map[string][]string{
	"inline::code-scanner": {"code-scanner", "code-shield"},
	"inline::prompt-guard": {"Prompt-Guard-86M"},
}

// registerShield: R4.
func (s *startup) registerShield(path, provider string, item map[string]any) {
	id, _ := item["shield_id"].(string)
	s.shields[id] = true
	target := shieldTarget(item)
	t := s.providerType("safety", provider)
	if allowed, ok := shieldModelIDs[t]; ok && !slices.Contains(allowed, target) {
		s.fail("R4", path+".provider_shield_id", "Unsupported shield id %s for %s. Allowed IDs: %v", target, t, allowed)
	}
	if t == "inline::llama-guard" && target == "" {
		s.fail("R4", path+".provider_shield_id", "Llama Guard shield must have a model id")
	}
}

// shieldTarget is a shield's provider_shield_id, which defaults to its shield_id.
func shieldTarget(item map[string]any) string {
	if target, ok := item["provider_shield_id"].(string); ok && target != "" {
		return target
	}
	id, _ := item["shield_id"].(string)
	return id
}

// checkShieldModels: a Llama Guard shield runs its provider_shield_id through the inference
// router at its first use. The router finds a registered model identifier, or
// "<enabled inference provider>/<model name>" without registration; anything else fails
// with "Model '...' not found." at the first moderation request.
func (s *startup) checkShieldModels() {
	rr, _ := s.cfg["registered_resources"].(map[string]any)
	for i, item := range entries(rr["shields"]) {
		provider, _ := item["provider_id"].(string)
		if s.providerType("safety", provider) != "inline::llama-guard" {
			continue
		}
		target := shieldTarget(item)
		if _, ok := s.models[target]; ok || target == "" {
			continue
		}
		if inference, _, ok := strings.Cut(target, "/"); ok && s.enabled["inference"][inference] != nil {
			continue
		}
		s.fail("R4", fmt.Sprintf("registered_resources.shields[%d].provider_shield_id", i),
			"Model '%s' not found. (at the shield's first use: register the Llama Guard model and use its identifier provider_id/model)", target)
	}
}

// checkOllamaModels: N2, registering a model with remote::ollama asks Ollama whether it has
// the model, and an unreachable Ollama or a model that is not pulled stops the start.
func (s *startup) checkOllamaModels() {
	rr, _ := s.cfg["registered_resources"].(map[string]any)
	for i, item := range entries(rr["models"]) {
		provider, _ := item["provider_id"].(string)
		if s.providerType("inference", provider) == "remote::ollama" {
			s.network("N2", fmt.Sprintf("registered_resources.models[%d]", i), modelName(item),
				"registering %s asks Ollama for the model: the start fails when Ollama is down or the model is not pulled",
				s.modelIdentifier(provider, item))
		}
	}
}

// registerVectorStore: R5, the embedding model is a registered embedding model; models a
// provider only lists are not known yet on a first start.
func (s *startup) registerVectorStore(path string, item map[string]any) {
	model, _ := item["embedding_model"].(string)
	registered, ok := s.models[model]
	switch {
	case !ok:
		s.fail("R5", path+".embedding_model", "Model '%s' not found.", model)
	case modelType(registered) != "embedding":
		s.fail("R5", path+".embedding_model", "Model '%s' is of type '%s' rather than the expected type 'embedding'", model, modelType(registered))
	}
}

// registerDataset: R7, the provider of a dataset is inferred from its source.
func (s *startup) registerDataset(path string, item map[string]any) {
	md, _ := item["metadata"].(map[string]any)
	provider, _ := md["provider_id"].(string)
	if provider == "" {
		source, _ := item["source"].(map[string]any)
		uri, _ := source["uri"].(string)
		provider = "localfs"
		if source["type"] == "uri" && strings.HasPrefix(uri, "huggingface") {
			provider = "huggingface"
		}
	}
	if s.enabled["datasetio"][provider] == nil {
		s.fail("R7", path, "Provider `%s` not found (the provider of a dataset is inferred from its source)", provider)
	}
}

// knownModels are the models of a type the server knows after the model refresh (K1): the
// registered ones and those enabled inline providers list. remote reports whether an enabled
// remote inference provider could list more.
func (s *startup) knownModels(modelType string) (known []string, remote bool) {
	for id, item := range s.models {
		if typeOf(item) == modelType {
			known = append(known, id)
		}
	}
	for _, provider := range slices.Sorted(maps.Keys(s.enabled["inference"])) {
		t := s.providerType("inference", provider)
		for model, mt := range listedModels[t] {
			if mt == modelType && (t != "inline::transformers" || s.version != "0.6") {
				known = append(known, provider+"/"+model)
			}
		}
		// 1.2 moved reranking into sentence-transformers, which lists the reranker since.
		if t == "inline::sentence-transformers" && modelType == "rerank" && atLeast(s.version, "1.2") {
			known = append(known, provider+"/Qwen/Qwen3-Reranker-0.6B")
		}
		if strings.HasPrefix(t, "remote::") {
			remote = true
		}
	}
	slices.Sort(known)
	return slices.Compact(known), remote
}

func typeOf(item map[string]any) string { return modelType(item) }

// checkVectorStoreDefaults: K2, K3 and K4.
func (s *startup) checkVectorStoreDefaults() {
	vs, _ := s.cfg["vector_stores"].(map[string]any)
	if vs == nil {
		return
	}
	s.checkDefaultModel("K2", "vector_stores.default_embedding_model", vs["default_embedding_model"], "embedding")
	if s.version != "0.6" {
		s.checkDefaultModel("K3", "vector_stores.default_reranker_model", vs["default_reranker_model"], "rerank")
	}
	if rq, _ := vs["rewrite_query_params"].(map[string]any); rq != nil {
		s.checkDefaultModel("K4", "vector_stores.rewrite_query_params.model", rq["model"], "llm")
	}
	s.checkTemplates(vs)
}

func (s *startup) checkDefaultModel(rule, path string, ref any, modelType string) {
	m, _ := ref.(map[string]any)
	if m == nil {
		return
	}
	provider, _ := m["provider_id"].(string)
	model, _ := m["model_id"].(string)
	id := provider + "/" + model
	if !s.routerServed("inference") {
		s.fail(rule, path, "Models API is not available but vector_stores config requires model '%s'", id)
		return
	}
	known, remote := s.knownModels(modelType)
	if slices.Contains(known, id) {
		if rule == "K2" && !atLeast(s.version, "1.1") { // 1.1 probes the dimension lazily
			s.checkEmbeddingDimension(path, id, m)
		}
		return
	}
	if remote && strings.HasPrefix(s.providerType("inference", provider), "remote::") {
		s.network(rule, path, model, "model '%s' is known only if the provider lists it at start-up: register it", id)
		return
	}
	s.fail(rule, path, "%s model '%s' not found. Available %s models: %v", titleType(modelType), id, modelType, known)
}

func (s *startup) checkEmbeddingDimension(path, id string, ref map[string]any) {
	if item, ok := s.models[id]; ok {
		if md, _ := item["metadata"].(map[string]any); md["embedding_dimension"] != nil {
			return
		}
		if ref["embedding_dimensions"] == nil {
			s.fail("K2", path, "Embedding model '%s' is missing 'embedding_dimension' in metadata", id)
		}
	}
}

func titleType(t string) string {
	switch t {
	case "embedding":
		return "Embedding"
	case "rerank":
		return "Reranker"
	}
	return "Rewrite query"
}

// checkTemplates: the template checks of V7 that differ between versions.
func (s *startup) checkTemplates(vs map[string]any) {
	fsp, _ := vs["file_search_params"].(map[string]any)
	if header, ok := fsp["header_template"].(string); ok {
		keyword := fileSearchKeyword[s.version]
		if !strings.Contains(header, "{num_chunks}") {
			s.fail("V7", "vector_stores.file_search_params.header_template", "header_template must contain {num_chunks} placeholder")
		}
		if !strings.Contains(header, keyword) {
			s.fail("V7", "vector_stores.file_search_params.header_template",
				"header_template must contain '%s' keyword to ensure proper tool identification", keyword)
		}
	}
	rq, _ := vs["rewrite_query_params"].(map[string]any)
	if prompt, ok := rq["prompt"].(string); ok && !strings.Contains(prompt, "{query}") {
		s.fail("V7", "vector_stores.rewrite_query_params.prompt", "prompt must contain {query} placeholder")
	}
}

// checkSafetyDefault: K6, a default shield must be registered, unless no shield is.
func (s *startup) checkSafetyDefault() {
	if ogx1(s.version) {
		return // OGX 1.0 removed the safety API; the key is ignored (the strict schema refuses it)
	}
	safety, _ := s.cfg["safety"].(map[string]any)
	id, ok := safety["default_shield_id"].(string)
	if !ok || id == "" {
		return
	}
	if !s.routerServed("safety") {
		s.fail("K6", "safety.default_shield_id", "Safety configuration requires the shields API to be enabled")
		return
	}
	if len(s.shields) > 0 && !s.shields[id] {
		s.fail("K6", "safety.default_shield_id", "Configured default_shield_id '%s' not found among registered shields. Available shields: %v",
			id, slices.Sorted(maps.Keys(s.shields)))
	}
}
