// SPDX-License-Identifier: Apache-2.0

package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

var vectorStoresPath = field.NewPath("spec", "vectorStores")

// applyVectorStores writes spec.vectorStores into the config's vector_stores: the default
// embedding model as the server looks it up (provider_id and model_id whose join is the model's
// identifier: the server refuses to start when no registered model has it) and the default
// vector_io provider, which must be one the server starts.
func (g *generator) applyVectorStores() {
	vs := g.spec.VectorStores
	if vs == nil {
		return
	}
	if _, off := g.removed["vector_io"]; off || !g.prof.HasAPI("vector_io") {
		g.errs = append(g.errs, field.Invalid(vectorStoresPath, "object", "vector store defaults need the vectorIo API, which is disabled: remove vectorStores or vectorIo from ⟦spec.disabled⟧"))
		return
	}
	defaults := ensureMap(g.cfg, "vector_stores")
	if name := vs.DefaultEmbeddingModel; name != "" {
		if model, ok := g.embeddingModel(name); ok {
			defaults["default_embedding_model"] = model
		}
	}
	if id := vs.DefaultProvider; id != "" {
		enabled := enabledIDs(g.cfg, "vector_io")
		if !slices.Contains(enabled, id) {
			g.errs = append(g.errs, field.Invalid(vectorStoresPath.Child("defaultProvider"), id, fmt.Sprintf(
				"no vector_io provider %s starts with this config: use one of %s, or add it to ⟦spec.providers.vectorIo⟧",
				id, strings.Join(enabled, ", "))))
			return
		}
		defaults["default_provider_id"] = id
	}
}

// embeddingModel is the default_embedding_model entry of an embedding model of
// spec.resources.models, as the server identifies it once registered.
func (g *generator) embeddingModel(name string) (map[string]any, bool) {
	path := vectorStoresPath.Child("defaultEmbeddingModel")
	var embedding []string
	if r := g.spec.Resources; r != nil {
		for _, m := range r.Models {
			if m.ModelType == "embedding" {
				embedding = append(embedding, m.Name)
			}
		}
	}
	if !slices.Contains(embedding, name) {
		g.errs = append(g.errs, field.Invalid(path, name, fmt.Sprintf(
			"is not an embedding model of ⟦spec.resources.models⟧ (its embedding models: %s): name one, or give this one "+
				"modelType: embedding and its embeddingDimension", cmp.Or(strings.Join(embedding, ", "), "none"))))
		return nil, false
	}
	models, _ := mapAt(g.cfg, "registered_resources")["models"].([]any)
	for _, item := range models {
		entry, _ := item.(map[string]any)
		if entry["model_id"] != name {
			continue
		}
		provider, _ := entry["provider_id"].(string)
		providerModel, _ := entry["provider_model_id"].(string)
		identifier := g.prof.ModelIdentifier(provider, name, providerModel)
		_, modelID, _ := strings.Cut(identifier, "/")
		return map[string]any{"provider_id": provider, "model_id": modelID}, true
	}
	return nil, false // the model's own error says why it is not registered
}
