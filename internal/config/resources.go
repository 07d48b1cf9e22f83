// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

var resourcesPath = field.NewPath("spec", "resources")

// applyModels registers spec.resources.models with the provider they name, else with the
// first inference provider of spec.providers that serves the model's type, else with the
// distribution's only provider that does. A model the base registers under the same name is
// replaced, not duplicated.
func (g *generator) applyModels() {
	if g.spec.Resources == nil || len(g.spec.Resources.Models) == 0 {
		return
	}
	g.dropModelSlots()
	for i, m := range g.spec.Resources.Models {
		path := resourcesPath.Child("models").Index(i)
		if m.ModelType != "" && !slices.Contains(g.prof.ModelTypes, m.ModelType) {
			g.errs = append(g.errs, field.Invalid(path.Child("modelType"), m.ModelType, fmt.Sprintf(
				"%s has no %s models: use %s, or an image of a newer server version",
				g.prof, m.ModelType, strings.Join(g.prof.ModelTypes, " or "))))
			continue
		}
		provider, ok := g.modelProvider(m, path)
		if !ok {
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

var bareEnv = lazyre.New(`^\$\{env\.([A-Z0-9_]+)\}$`)

// dropModelSlots removes the base's models whose id is a variable nothing sets, such as
// postgres-demo's ${env.INFERENCE_MODEL}: the distribution's slot for the model it serves,
// which spec.resources.models fills.
func (g *generator) dropModelSlots() {
	rr := mapAt(g.cfg, "registered_resources")
	items, _ := rr["models"].([]any)
	kept := make([]any, 0, len(items))
	for _, item := range items {
		entry, _ := item.(map[string]any)
		id, _ := entry["model_id"].(string)
		if m := bareEnv().FindStringSubmatch(id); m != nil && !g.overrideEnvSets(m[1]) {
			continue
		}
		kept = append(kept, item)
	}
	if rr != nil {
		rr["models"] = kept
	}
}

// modelProvider picks the inference provider of a model.
func (g *generator) modelProvider(m v1alpha2.ModelSpec, path *field.Path) (string, bool) {
	available := enabledIDs(g.cfg, "inference")
	if m.Provider != "" {
		if slices.Contains(available, m.Provider) {
			return m.Provider, true
		}
		detail := fmt.Sprintf("no inference provider has this id: use one of %s", listOrNone(available))
		if cond := g.conditionOf("inference", m.Provider); cond != "" {
			detail = fmt.Sprintf("the distribution enables %s only when %s is set, and the model would not be registered "+
				"without it: add it to ⟦spec.providers.inference⟧ (with its endpoint), or set %s in ⟦spec.workload.overrides.env⟧",
				m.Provider, cond, cond)
		}
		g.errs = append(g.errs, field.Invalid(path.Child("provider"), m.Provider, detail))
		return "", false
	}
	modelType := m.ModelType
	if modelType == "" {
		modelType = "llm"
	}
	provider, err := g.defaultProvider("inference", func(t string) bool { return servesModel(t, modelType) },
		path.Child("provider"), func(candidates []string) string {
			if len(candidates) == 0 {
				return fmt.Sprintf("model %s needs an inference provider that serves %s models, and the distribution enables none: "+
					"add ⟦spec.providers.inference⟧", m.Name, modelType)
			}
			return fmt.Sprintf("model %s needs an inference provider, and the distribution enables several (%s): "+
				"set provider to one of them, or add ⟦spec.providers.inference⟧", m.Name, strings.Join(candidates, ", "))
		})
	if err != nil {
		g.errs = append(g.errs, err)
		return "", false
	}
	return provider, true
}

// defaultProvider is the provider of a resource that names none: the first provider of the
// spec that can serve it, else the distribution's only enabled provider that can. Otherwise
// the error's message is problem(the distribution's candidates).
func (g *generator) defaultProvider(api string, serves func(providerType string) bool, path *field.Path,
	problem func(candidates []string) string) (string, *field.Error) {
	for _, id := range g.crIDs[api] {
		if serves(g.providerType(api, id)) {
			return id, nil
		}
	}
	var candidates []string
	for _, id := range enabledIDs(g.cfg, api) {
		if serves(g.providerType(api, id)) {
			candidates = append(candidates, id)
		}
	}
	if len(candidates) == 1 {
		return candidates[0], nil
	}
	return "", field.Required(path, problem(candidates))
}

// servesModel reports whether a provider type can serve a model type: the inline
// sentence-transformers provider serves embedding models only, transformers rerankers only.
func servesModel(providerType, modelType string) bool {
	switch providerType {
	case "inline::sentence-transformers":
		return modelType == "embedding"
	case "inline::transformers":
		return modelType == "rerank"
	}
	return true
}

// fixedShieldIDs are the shields the inline scanners accept; any other shield is a model
// that a guard provider such as llama-guard runs.
var fixedShieldIDs = map[string][]string{
	"inline::code-scanner": {"code-scanner", "code-shield"},
	"inline::prompt-guard": {"Prompt-Guard-86M"},
}

// shieldProviderName is the provider that runs a shield: the scanner whose id it is, else
// llama-guard.
func shieldProviderName(shield string) string {
	for t, ids := range fixedShieldIDs {
		if slices.Contains(ids, shield) {
			return strings.TrimPrefix(t, "inline::")
		}
	}
	return "llama-guard"
}

// servesShield reports whether a safety provider type can run a shield.
func servesShield(providerType, shield string) bool {
	if ids, ok := fixedShieldIDs[providerType]; ok {
		return slices.Contains(ids, shield)
	}
	for _, ids := range fixedShieldIDs {
		if slices.Contains(ids, shield) {
			return false
		}
	}
	return true
}

// applyShields registers spec.resources.shields with the first safety provider of the spec
// that can run them, else the distribution's only one. A Llama Guard shield names
// the model it runs through the inference API by its registered identifier.
func (g *generator) applyShields() {
	if g.spec.Resources == nil || len(g.spec.Resources.Shields) == 0 || !g.prof.HasAPI("safety") { // rejectUnsupported says why
		return
	}
	for i, shield := range g.spec.Resources.Shields {
		path := resourcesPath.Child("shields").Index(i)
		provider, err := g.defaultProvider("safety", func(t string) bool { return servesShield(t, shield) }, path,
			func(candidates []string) string {
				if len(candidates) == 0 {
					return fmt.Sprintf("shield %s needs a safety provider that runs it, and the distribution enables none: "+
						"add ⟦spec.providers.safety⟧ (provider: %s)", shield, shieldProviderName(shield))
				}
				return fmt.Sprintf("shield %s needs a safety provider, and the distribution enables several that could run it "+
					"(%s): add the one to use to ⟦spec.providers.safety⟧", shield, strings.Join(candidates, ", "))
			})
		if err != nil {
			g.errs = append(g.errs, err)
			continue
		}
		target := shield
		if g.providerType("safety", provider) == "inline::llama-guard" {
			if target, err = g.shieldModel(shield, path); err != nil {
				g.errs = append(g.errs, err)
				continue
			}
		}
		g.register("shields", "shield_id", map[string]any{
			"shield_id": shield, "provider_id": provider, "provider_shield_id": target,
		})
	}
}

// shieldModel returns the identifier of the model a Llama Guard shield runs: a registered
// model of that name, else the model registered here with the inference provider a model
// of that name would get.
func (g *generator) shieldModel(shield string, path *field.Path) (string, *field.Error) {
	items, _ := mapAt(g.cfg, "registered_resources")["models"].([]any)
	for _, item := range items {
		entry, _ := item.(map[string]any)
		if isLiteral(entry["provider_id"]) && (entry["model_id"] == shield || g.modelIdentifier(entry) == shield) {
			return g.modelIdentifier(entry), nil
		}
	}
	provider, err := g.defaultProvider("inference", func(t string) bool { return servesModel(t, "llm") }, path,
		func(candidates []string) string {
			return fmt.Sprintf("shield %s is a Llama Guard model, which llama-guard runs through an inference provider, and "+
				"llsd cannot tell which one serves it (the distribution enables %s): add %s to ⟦spec.resources.models⟧ with its "+
				"provider, or add ⟦spec.providers.inference⟧", shield, listOrNone(candidates), shield)
		})
	if err != nil {
		return "", err
	}
	entry := map[string]any{"model_id": shield, "provider_id": provider, "metadata": map[string]any{}}
	g.register("models", "model_id", entry)
	return g.modelIdentifier(entry), nil
}

// modelIdentifier is the id the server gives a registered model (profile.ModelIdentifier).
func (g *generator) modelIdentifier(entry map[string]any) string {
	provider, _ := entry["provider_id"].(string)
	id, _ := entry["model_id"].(string)
	name, _ := entry["provider_model_id"].(string)
	return g.prof.ModelIdentifier(provider, id, name)
}

// providerModelName is a registered model's name at its provider.
func providerModelName(entry map[string]any) string {
	if name, _ := entry["provider_model_id"].(string); name != "" {
		return name
	}
	name, _ := entry["model_id"].(string)
	return name
}

// fixDefaultShield makes safety.default_shield_id name a shield the server registers (the
// server checks it whenever any shield is registered): the first shield of the spec when it
// lists shields; else the base's default, given its shield's own condition when another
// shield can be registered without it (starter's llama-guard shield exists only when
// SAFETY_MODEL is set, its code-scanner shield when CODE_SCANNER_MODEL is); else none.
func (g *generator) fixDefaultShield() {
	safety := mapAt(g.cfg, "safety")
	if g.spec.Resources != nil && len(g.spec.Resources.Shields) > 0 {
		ensureMap(g.cfg, "safety")["default_shield_id"] = g.spec.Resources.Shields[0]
		return
	}
	id, ok := safety["default_shield_id"].(string)
	if !ok {
		return
	}
	var condition string // X of the default shield's ${env.X:+provider}, "" when it always registers
	found, others := false, false
	items, _ := mapAt(g.cfg, "registered_resources")["shields"].([]any)
	for _, item := range items {
		entry, _ := item.(map[string]any)
		provider, _ := entry["provider_id"].(string)
		m := envRef(conditionalID(), provider)
		switch {
		case entry["shield_id"] == id && (isLiteral(provider) || m != nil):
			found = true
			if m != nil && !g.overrideEnvSets(m[1]) {
				condition = m[1]
			}
		case isLiteral(provider) || (m != nil && g.overrideEnvSets(m[1])):
			others = true
		}
	}
	switch {
	case found && condition != "" && others:
		safety["default_shield_id"] = "${env." + condition + ":+" + id + "}"
	case !found:
		delete(safety, "default_shield_id")
		if len(safety) == 0 {
			delete(g.cfg, "safety")
		}
	}
}

// warnOllamaModels: the server asks Ollama for every model it registers with remote::ollama
// when it starts, so a model that is not pulled (or an Ollama that is down) stops the start.
func (g *generator) warnOllamaModels() {
	items, _ := mapAt(g.cfg, "registered_resources")["models"].([]any)
	for _, item := range items {
		entry, _ := item.(map[string]any)
		provider, _ := entry["provider_id"].(string)
		if g.providerType("inference", provider) != "remote::ollama" {
			continue
		}
		name := providerModelName(entry)
		advice := ""
		if !strings.Contains(name, ":") {
			advice = fmt.Sprintf(" Name the tag too (%s:latest): Ollama stores it so, and a restart would find the model conflicting.", name)
		}
		g.warn(g.resourcePath(fmt.Sprint(entry["model_id"])), "the server registers model %s with Ollama (%s) when it starts, and stops there while Ollama "+
			"is down or lacks the model: run `ollama pull %s` first.%s", name, provider, name, advice)
	}
}

// resourcePath is the spec field a registered model comes from: a model, or the shield whose
// Llama Guard model it is.
func (g *generator) resourcePath(model string) *field.Path {
	if r := g.spec.Resources; r != nil {
		for i, m := range r.Models {
			if m.Name == model {
				return resourcesPath.Child("models").Index(i)
			}
		}
		for i, s := range r.Shields {
			if s == model {
				return resourcesPath.Child("shields").Index(i)
			}
		}
	}
	return resourcesPath
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

// providerType is the type of the provider with this id (also ${env.X:+id}) in an API.
func (g *generator) providerType(api, id string) string {
	for _, e := range providerList(g.cfg, api) {
		if entryID(e["provider_id"]) == id {
			t, _ := e["provider_type"].(string)
			return t
		}
	}
	return ""
}

// conditionOf returns X when the API's provider id is enabled only by ${env.X:+id}.
func (g *generator) conditionOf(api, id string) string {
	for _, e := range providerList(g.cfg, api) {
		s, _ := e["provider_id"].(string)
		if m := envRef(conditionalID(), s); m != nil && m[2] == id {
			return m[1]
		}
	}
	return ""
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
