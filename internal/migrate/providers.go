// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/pipeline"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// providers writes each provider of the spec as an OGXServer custom provider of its API: its
// id and provider type as the render resolved them, its settings, and its endpoint and
// credential under the config keys the render wrote them to (base_url, api_token, ...), which
// a custom provider names itself. Providers of APIs an OGXServer has no list for are warnings.
func (m *migration) providers() *ogx.ProvidersSpec {
	spec := m.rendered().Providers
	if spec == nil {
		return nil
	}
	generated := generatedProviders(m.res)
	out := &ogx.ProvidersSpec{}
	for _, list := range spec.APIs() {
		server := list.Name.ServerName()
		for i, p := range list.Providers {
			path := field.NewPath("spec", "providers", string(list.Name)).Index(i)
			entry, ok := generated[server+"/"+p.EffectiveID()]
			if !ok {
				m.warn(path, "is not in the config the LlamaStackDistribution renders: left out")
				continue
			}
			custom := m.customProvider(p, entry, path)
			if !addCustom(out, server, custom) {
				m.warn(path, "an OGXServer has no provider list for the API %s (its server, OGX 1.x, has none either): left out", server)
			}
		}
	}
	if reflect.ValueOf(*out).IsZero() {
		return nil
	}
	return out
}

// customProvider is one provider as a custom entry: the spec's settings and secretRefs, the
// endpoint under the config key that holds it, the apiKey's Secret under the key that reads it.
func (m *migration) customProvider(p v1alpha2.ProviderSpec, entry map[string]any, path *field.Path) ogx.CustomProvider {
	typ, _ := entry["provider_type"].(string)
	out := ogx.CustomProvider{ID: p.EffectiveID(), Type: typ}
	settings := p.SettingsMap()
	cfg, _ := entry["config"].(map[string]any)
	if p.Endpoint != "" {
		if key := keyHolding(cfg, func(v string) bool { return strings.HasPrefix(v, strings.TrimSuffix(p.Endpoint, "/")) }); key != "" {
			settings[key] = cfg[key]
		} else {
			m.warn(path.Child("endpoint"), "is in no config key of %s's config: left out", typ)
		}
	}
	for key, ref := range p.SecretRefs {
		out.SecretRefs = withRef(out.SecretRefs, key, ogx.SecretKeyRef{Name: ref.SecretKeyRef.Name, Key: ref.SecretKeyRef.Key})
	}
	if p.APIKey != nil {
		env := config.Placeholder(config.EnvName(p.EffectiveID(), "api_key"))
		if key := keyHolding(cfg, func(v string) bool { return v == env }); key != "" {
			out.SecretRefs = withRef(out.SecretRefs, key, ogx.SecretKeyRef{Name: p.APIKey.SecretKeyRef.Name, Key: p.APIKey.SecretKeyRef.Key})
		} else {
			m.warn(path.Child("apiKey"), "is in no config key of %s's config: left out", typ)
		}
	}
	if p.ClientCertificate != nil {
		m.warn(path.Child("clientCertificate"), "an OGXServer has no client certificate per provider (its spec.tls.identity takes the certificate from a ConfigMap): left out")
	}
	if len(settings) > 0 {
		out.Settings, _ = json.Marshal(settings) // decoded JSON always marshals
	}
	return out
}

// keyHolding is the first top-level key of cfg, in sorted order (the same on every run), whose
// string value matches, or "".
func keyHolding(cfg map[string]any, match func(string) bool) string {
	for _, key := range slices.Sorted(maps.Keys(cfg)) {
		if s, ok := cfg[key].(string); ok && match(s) {
			return key
		}
	}
	return ""
}

func withRef(refs map[string]ogx.SecretKeyRef, key string, ref ogx.SecretKeyRef) map[string]ogx.SecretKeyRef {
	if refs == nil {
		refs = map[string]ogx.SecretKeyRef{}
	}
	refs[key] = ref
	return refs
}

// addCustom puts a custom provider into the API's remote or inline list, by its type; false
// when the OGXServer has no list for the API.
func addCustom(out *ogx.ProvidersSpec, api string, c ogx.CustomProvider) bool {
	v := reflect.ValueOf(out).Elem()
	for i := range v.NumField() {
		if v.Type().Field(i).Tag.Get("api") != api {
			continue
		}
		apiField := v.Field(i)
		if apiField.IsNil() {
			apiField.Set(reflect.New(apiField.Type().Elem()))
		}
		place := "Remote"
		if strings.HasPrefix(c.Type, "inline::") {
			place = "Inline"
		}
		group := apiField.Elem().FieldByName(place)
		if group.IsNil() {
			group.Set(reflect.New(group.Type().Elem()))
		}
		custom := group.Elem().FieldByName("Custom")
		custom.Set(reflect.Append(custom, reflect.ValueOf(c)))
		return true
	}
	return false
}

// generatedProviders are the providers of the rendered config.yaml, by api/provider_id.
func generatedProviders(res *pipeline.Result) map[string]map[string]any {
	out := map[string]map[string]any{}
	apis, _ := res.Config["providers"].(map[string]any)
	for api, list := range apis {
		entries, _ := list.([]any)
		for _, e := range entries {
			if entry, ok := e.(map[string]any); ok {
				id, _ := entry["provider_id"].(string)
				out[api+"/"+id] = entry
			}
		}
	}
	return out
}
