// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

var resourcesPath = field.NewPath("spec", "resources")

// applyModels registers spec.resources.models with the provider they name, else with the
// first inference provider of spec.providers. A model the base registers under the same
// name is replaced, not duplicated.
func (g *generator) applyModels() {
	if g.spec.Resources == nil {
		return
	}
	for i, m := range g.spec.Resources.Models {
		path := resourcesPath.Child("models").Index(i)
		provider, ok := g.modelProvider(m.Name, m.Provider, path)
		if !ok {
			continue
		}
		if m.ModelType == "rerank" && g.dist.Version == "0.6" {
			g.errs = append(g.errs, field.Invalid(path.Child("modelType"), m.ModelType,
				"rerank models need llama-stack 0.7 or newer: use llm or embedding, or a 0.7 image"))
			continue
		}
		metadata := map[string]any{}
		if m.ContextLength != nil {
			metadata["context_length"] = int64(*m.ContextLength)
		}
		if m.EmbeddingDimension != nil {
			metadata["embedding_dimension"] = int64(*m.EmbeddingDimension)
		}
		if m.Quantization != "" {
			metadata["quantization"] = m.Quantization
		}
		entry := map[string]any{"model_id": m.Name, "provider_id": provider, "metadata": metadata}
		if m.ProviderModelID != "" {
			entry["provider_model_id"] = m.ProviderModelID
		}
		if m.ModelType != "" {
			entry["model_type"] = m.ModelType
		}
		g.register("models", "model_id", entry)
	}
}

func (g *generator) modelProvider(model, named string, path *field.Path) (string, bool) {
	available := enabledIDs(g.cfg, "inference")
	if named != "" {
		for _, id := range available {
			if id == named {
				return id, true
			}
		}
		g.errs = append(g.errs, field.Invalid(path.Child("provider"), named, fmt.Sprintf(
			"no inference provider has this id: use one of %s", listOrNone(available))))
		return "", false
	}
	if ids := g.crIDs["inference"]; len(ids) > 0 {
		return ids[0], true
	}
	g.errs = append(g.errs, field.Required(path.Child("provider"), fmt.Sprintf(
		"model %s requires at least one inference provider to be configured: add spec.providers.inference, "+
			"or set provider to one of the distribution's: %s", model, listOrNone(available))))
	return "", false
}

// applyShields registers spec.resources.shields with the first safety provider of
// spec.providers; the shield name is also the provider's shield id (for llama-guard, the
// Llama Guard model an inference provider serves).
func (g *generator) applyShields() {
	if g.spec.Resources == nil || len(g.spec.Resources.Shields) == 0 {
		return
	}
	ids := g.crIDs["safety"]
	if len(ids) == 0 {
		g.errs = append(g.errs, field.Required(resourcesPath.Child("shields"), fmt.Sprintf(
			"shields require at least one safety provider to be configured: add spec.providers.safety "+
				"(for example provider: llama-guard; the distribution has %s)", listOrNone(enabledIDs(g.cfg, "safety")))))
		return
	}
	for _, shield := range g.spec.Resources.Shields {
		g.register("shields", "shield_id", map[string]any{
			"shield_id": shield, "provider_id": ids[0], "provider_shield_id": shield,
		})
	}
}

// register adds entry to registered_resources[kind], replacing an entry with the same id.
func (g *generator) register(kind, idKey string, entry map[string]any) {
	rr := ensureMap(g.cfg, "registered_resources")
	items, _ := rr[kind].([]any)
	for i, item := range items {
		if existing, ok := item.(map[string]any); ok && existing[idKey] == entry[idKey] {
			items[i] = entry
			rr[kind] = items
			return
		}
	}
	rr[kind] = append(items, entry)
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
