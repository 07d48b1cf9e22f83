// SPDX-License-Identifier: Apache-2.0

package api

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Providers written in the server's own shape, as config.yaml lists them,
//
//	providers:
//	  inference:
//	  - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: http://vllm:8000/v1}}
//
// are an error that writes each entry out in the shape of the object's API, and the entries are
// read in that shape, so that one run reports the object's other problems too. A flat list,
// which says no API, is an error that shows the shape.

// serverShapedProviders rewrites the server-shaped providers of a LlamaStackDistribution's
// spec in place into {id, provider, settings}, and returns an error for each.
func serverShapedProviders(spec map[string]any) field.ErrorList {
	return rewriteServerShape(spec, "id: vllm, provider: remote::vllm, settings: {base_url: ...}", func(entry map[string]any) (string, any) {
		return "", llsdEntry(entry)
	})
}

// ogxServerShapedProviders is serverShapedProviders for an OGXServer, whose providers are
// listed by API and kind: {<api>: {remote: {custom: [{id, type, settings}]}}}.
func ogxServerShapedProviders(spec map[string]any) field.ErrorList {
	return rewriteServerShape(spec, "remote: {custom: [{id: vllm, type: remote::vllm, settings: {base_url: ...}}]}", func(entry map[string]any) (string, any) {
		kind, _, _ := strings.Cut(fmt.Sprint(entry["provider_type"]), "::")
		if kind != "inline" {
			kind = "remote"
		}
		return kind, map[string]any{"id": entry["provider_id"], "type": entry["provider_type"], "settings": entry["config"]}
	})
}

// rewriteServerShape does the work of both: convert turns one server entry into the API's,
// and the kind it is listed under ("" when the API lists entries directly).
func rewriteServerShape(spec map[string]any, shape string, convert func(map[string]any) (string, any)) field.ErrorList {
	path := field.NewPath("spec", "providers")
	switch providers := spec["providers"].(type) {
	case []any:
		delete(spec, "providers")
		return field.ErrorList{field.Invalid(path, "a list", fmt.Sprintf(
			"config.yaml lists an API's providers so; here providers map each API to its own, "+
				"providers: {inference: [...], vectorIo: [...]}, each provider written %s", shapeOf(shape)))}
	case map[string]any:
		var errs field.ErrorList
		for _, api := range slices.Sorted(maps.Keys(providers)) {
			entries, ok := providers[api].([]any)
			if !ok || !slices.ContainsFunc(entries, isServerEntry) {
				continue
			}
			name := llsdAPIName(api)
			byKind := map[string][]any{}
			for _, e := range entries {
				entry, _ := e.(map[string]any)
				kind, converted := convert(entry)
				if !isServerEntry(e) {
					converted = e
				}
				byKind[kind] = append(byKind[kind], converted)
			}
			delete(providers, api)
			if list, ok := byKind[""]; ok {
				providers[name] = list
			} else {
				lists := map[string]any{}
				for kind, list := range byKind {
					lists[kind] = map[string]any{"custom": list}
				}
				providers[name] = lists
			}
			errs = append(errs, field.Invalid(path.Child(api), "provider_id, provider_type, config", fmt.Sprintf(
				"config.yaml writes providers so; here a provider is written %s: %s: %s (a credential goes in a Secret, "+
					"named by apiKey or secretRefs)", shapeOf(shape), name, shown(providers[name]))))
		}
		return errs
	}
	return nil
}

func shapeOf(shape string) string { return "{" + shape + "}" }

// isServerEntry reports whether a provider entry is written as config.yaml writes it.
func isServerEntry(e any) bool {
	entry, ok := e.(map[string]any)
	if !ok {
		return false
	}
	_, id := entry["provider_id"]
	_, typ := entry["provider_type"]
	return id || typ
}

// llsdEntry is a server entry as a LlamaStackDistribution's provider.
func llsdEntry(entry map[string]any) map[string]any {
	out := map[string]any{"provider": entry["provider_type"]}
	if id, ok := entry["provider_id"]; ok {
		out["id"] = id
	}
	if config, ok := entry["config"]; ok && config != nil {
		out["settings"] = config
	}
	return out
}

// llsdAPIName is an API's name in a LlamaStackDistribution (vectorIo for config.yaml's vector_io).
func llsdAPIName(api string) string {
	for _, name := range v1alpha2.AllAPINames {
		if name.ServerName() == api {
			return string(name)
		}
	}
	return api
}

// shown is an entry as a message writes it, each credential replaced by where it goes and
// each URL without its user info or token parameters.
func shown(entry any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(hideCredentials(entry, "")); err != nil {
		return "{...}"
	}
	return strings.TrimSpace(b.String())
}

func hideCredentials(v any, key string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = hideCredentials(x, k)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = hideCredentials(x, key)
		}
		return out
	case string:
		if redact.IsCredentialKey(key) && !strings.HasPrefix(t, "${env.") {
			return "<from a Secret: secretRefs>"
		}
		return redact.URL(t)
	}
	return v
}
