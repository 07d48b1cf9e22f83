// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/internal/suggest"
)

// CheckOwnConfig reads a config.yaml llsd did not write (spec.overrideConfig's ConfigMap) as
// the server of prof would, and warns about what the server would silently ignore or get
// wrong: a top-level key it does not read (models, which moved under registered_resources),
// a provider type it does not have (it stops at start-up), a provider config key it ignores
// (url for base_url), a value a key does not take (a URL without its scheme, a word where a
// number goes, a string its enum lacks), a model registered for a provider the config does not
// have, and a URL that falls back to localhost, where nothing listens in the pod. env is the container's
// environment: a ${env.OLLAMA_URL:=http://localhost:11434} with OLLAMA_URL set is fine.
//
// tree is the config as parsed (configyaml.UnmarshalMap; a config that is no YAML mapping is
// the caller's error). What the server stops at start-up on (access rules it refuses, a
// provider type it lacks, a required key missing, a value a key does not take, a model of no
// provider) is an error, by the refusal rule; the rest are warnings.
func CheckOwnConfig(tree map[string]any, prof *profile.Profile, env []corev1.EnvVar, path *field.Path, source string) ([]Warning, *field.Error) {
	w := ownConfigCheck{prof: prof, path: path.String(), source: source, env: envNames(env)}
	w.topLevel(tree)
	w.models(tree, w.providers(tree))
	w.placeholders(tree)
	w.authentication(tree)
	w.ruleModels(tree)
	if problems := slices.Concat(w.stops, accessPolicyProblems(tree)); len(problems) > 0 {
		return w.warnings, field.Invalid(path, source, strings.Join(problems, "; ")+": the server does not start with this config")
	}
	return w.warnings, nil
}

// accessPolicyProblems are the problems of the access rules of server.auth, each named by its
// rule (server.auth.access_policy[2]: when: ...), as the server refuses them when it loads
// the config.
func accessPolicyProblems(tree map[string]any) []string {
	server, _ := tree["server"].(map[string]any)
	auth, _ := server["auth"].(map[string]any)
	var problems []string
	for _, policy := range []string{"access_policy", "route_policy"} {
		rules, _ := auth[policy].([]any)
		for i, r := range rules {
			rule, _ := r.(map[string]any)
			for _, p := range AccessRuleProblems(rule, policy == "route_policy") {
				problems = append(problems, fmt.Sprintf("server.auth.%s[%d]: %s", policy, i, p))
			}
		}
	}
	return problems
}

// placeholders warns of the values a guide left to be filled in. A URL's is said where the
// key that takes it is checked (a provider's base_url: valueProblem).
func (c *ownConfigCheck) placeholders(tree map[string]any) {
	configyaml.WalkStrings(tree, func(at configyaml.Path, s string) {
		if p := PlaceholderIn(s); p != "" && !strings.Contains(s, "://") {
			c.warn("%s %s", at, placeholderFix(p))
		}
	})
}

type ownConfigCheck struct {
	prof     *profile.Profile
	path     string
	source   string
	env      map[string]bool
	warnings []Warning
	// stops are what the server stops at start-up on: errors, by the refusal rule.
	stops []string
}

func (c *ownConfigCheck) warn(format string, args ...any) {
	c.warnings = append(c.warnings, Warning{Field: c.path, Message: c.source + ": " + fmt.Sprintf(format, args...)})
}

// stop records what the server would not start with.
func (c *ownConfigCheck) stop(format string, args ...any) {
	c.stops = append(c.stops, fmt.Sprintf(format, args...))
}

// authentication says of a config's own server.auth what spec.authentication never renders: a
// provider that takes the identity provider's keys or answers over TLS it does not verify.
func (c *ownConfigCheck) authentication(tree map[string]any) {
	provider := mapAt(mapAt(mapAt(tree, "server"), "auth"), "provider_config")
	for _, at := range []struct {
		path string
		cfg  map[string]any
	}{{"server.auth.provider_config", provider}, {"server.auth.provider_config.jwks", mapAt(provider, "jwks")},
		{"server.auth.provider_config.introspection", mapAt(provider, "introspection")}} {
		if v, ok := at.cfg["verify_tls"]; ok && (v == false || v == "false" || v == "False") {
			c.warn("%s.verify_tls: false: the server reads who a caller is over TLS it does not verify, so whoever sits on "+
				"the path can answer for the identity provider and make any token valid: give it the provider's CA (tls_cafile) "+
				"and remove verify_tls", at.path)
		}
	}
}

// ruleModels warns of an access rule scoped to a model (resource: model::<identifier>) that no
// model the config registers is: the server names a registered model <provider_id>/<model_id>
// (model_id alone when it already starts so, or when it is registered for provider all), and
// matches a rule's resource exactly, so a rule written with the bare model_id applies to
// nothing (src/ogx/core/routing_tables/models.py:367-379 and
// src/ogx/core/access_control/access_control.py:30-51 at v1.3.0; the same naming on the real
// 0.6.0 server). Wildcards (model::*) and regex: scopes are not judged, and a model a provider
// lists at run time may still carry the name, so it is a warning.
func (c *ownConfigCheck) ruleModels(tree map[string]any) {
	registered := map[string]bool{}
	models, _ := mapAt(tree, "registered_resources")["models"].([]any)
	for _, m := range models {
		model, _ := m.(map[string]any)
		id, _ := model["model_id"].(string)
		provider, _ := model["provider_id"].(string)
		switch {
		case provider == "all" || strings.HasPrefix(id, provider+"/"):
			registered[id] = true
		case id != "":
			registered[provider+"/"+id] = true
		}
	}
	rules, _ := mapAt(mapAt(tree, "server"), "auth")["access_policy"].([]any)
	for i, r := range rules {
		rule, _ := r.(map[string]any)
		for _, decision := range []string{"permit", "forbid"} {
			resource, _ := mapAt(rule, decision)["resource"].(string)
			model, ok := strings.CutPrefix(resource, "model::")
			if !ok || model == "*" || registered[model] {
				continue
			}
			names := "it registers none"
			if len(registered) > 0 {
				names = "the server names them model::" + strings.Join(slices.Sorted(maps.Keys(registered)), ", model::")
			}
			c.warn("server.auth.access_policy[%d].%s.resource: %s names no model the config registers (%s): the rule applies "+
				"to none of them; write the model's full name, <provider_id>/<model_id>", i, decision, resource, names)
		}
	}
}

// movedKeys are top-level keys of older configs and where the server reads them now.
var movedKeys = map[string]string{
	"models": "registered_resources.models", "shields": "registered_resources.shields",
	"vector_dbs": "registered_resources.vector_stores", "datasets": "registered_resources.datasets",
	"scoring_fns": "registered_resources.scoring_fns", "benchmarks": "registered_resources.benchmarks",
	"tool_groups":    "registered_resources.tool_groups",
	"metadata_store": "storage (backends, and stores.metadata)", "inference_store": "storage (stores.inference)",
	"conversations_store": "storage (stores.conversations)",
}

func (c *ownConfigCheck) topLevel(tree map[string]any) {
	keys := c.prof.ConfigKeys()
	for _, key := range slices.Sorted(maps.Keys(tree)) {
		if slices.Contains(keys, key) {
			continue
		}
		hint := suggest.DidYouMean(key, keys)
		if moved, ok := movedKeys[key]; ok {
			hint = " (" + moved + " in " + c.prof.String() + ")"
		}
		c.warn("%s ignores the top-level key %s%s", c.prof, key, hint)
	}
}

// providers checks each provider the server starts (not a disabled one): its API, type and
// config keys, and URLs to the pod itself. It returns the ids of those of known APIs.
func (c *ownConfigCheck) providers(tree map[string]any) map[string]bool {
	ids := map[string]bool{}
	apis, _ := tree["providers"].(map[string]any)
	external := tree["external_providers_dir"] != nil
	for _, api := range slices.Sorted(maps.Keys(apis)) {
		known := c.prof.HasAPI(api) || external
		if !known {
			c.warn("%s has no API %s: its providers are ignored or stop the server", c.prof, api)
		}
		list, _ := apis[api].([]any)
		for i, item := range list {
			p, _ := item.(map[string]any)
			if c.disabled(p) {
				continue
			}
			if known {
				ids[entryID(p["provider_id"])] = true
				c.providerKeys(api, i, p, external)
			}
			c.localhost(api, i, p["config"])
		}
	}
	return ids
}

// providerKeys checks a provider's type and the keys of its config.
func (c *ownConfigCheck) providerKeys(api string, i int, p map[string]any, external bool) {
	typ, _ := p["provider_type"].(string)
	fields, ok := c.prof.Fields(api, typ)
	in := c.prof.String()
	if platform, known := profile.Platform(api, typ); !ok && known && p["module"] != nil {
		fields, ok, in = platform.Fields, true, platform.Package
	}
	if !ok {
		if !external && p["module"] == nil {
			c.stop("providers.%s[%d]: %s has no provider type %q for %s, and stops at start-up%s",
				api, i, c.prof, typ, api, suggest.DidYouMean(typ, c.prof.ProviderTypes(api)))
		}
		return
	}
	names := profile.FieldNames(fields)
	cfg, _ := p["config"].(map[string]any)
	for _, key := range slices.Sorted(maps.Keys(cfg)) {
		if !slices.Contains(names, key) {
			c.warn("providers.%s[%d].config: %s ignores %s in %s%s: its keys are %s",
				api, i, typ, key, in, suggest.DidYouMean(key, names), strings.Join(names, ", "))
		}
	}
	for _, f := range fields {
		v, set := cfg[f.Name]
		if f.Required && !set {
			c.stop("providers.%s[%d].config: %s needs %s in %s, and stops at start-up without it", api, i, typ, f.Name, in)
		}
		if problem := valueProblem(f, v); set && problem != "" {
			c.stop("providers.%s[%d].config.%s: %s's %s in %s %s", api, i, f.Name, typ, f.Name, in, problem)
		}
	}
}

// valueProblem says why key f does not take v as written in a config, "" when it does or
// when v holds a ${env.} reference: a kind the key does not take, a string that is no http or
// https URL where the key is one, a value its enum lacks or out of its bounds.
func valueProblem(f profile.Field, v any) string {
	if s, ok := v.(string); ok && substitutes(s) {
		return ""
	}
	if got, ok := takes(f.Kinds, v); !ok {
		s, _ := v.(string)
		return fmt.Sprintf("takes %s, not %s, and the server stops at start-up: %s%s", strings.Join(kindNames(f.Kinds), " or "), kindName(got),
			kindFix(f.Kinds, got), substitutionFix(s))
	}
	if s, ok := v.(string); ok && f.URL {
		if fix := httpURLFix(s); fix != "" {
			return "is an http or https URL with a host, which " + redact.URL(s) + " is not, and the server stops at start-up: " + fix
		}
	}
	if problem := notAllowed(f, v); problem != "" {
		return problem + ", and the server stops at start-up"
	}
	return ""
}

// models: a registered model of a provider the config does not have stops the server.
func (c *ownConfigCheck) models(tree map[string]any, providerIDs map[string]bool) {
	resources, _ := tree["registered_resources"].(map[string]any)
	models, _ := resources["models"].([]any)
	for i, item := range models {
		m, _ := item.(map[string]any)
		id, _ := m["provider_id"].(string)
		if id != "" && !providerIDs[id] && !strings.Contains(id, "${env.") {
			c.stop("registered_resources.models[%d]: provider_id %s is none of the config's providers (%s)",
				i, id, strings.Join(slices.Sorted(maps.Keys(providerIDs)), ", "))
		}
	}
}

// localURL finds http(s) URLs to the pod itself, written or as the default of an unset
// variable: ${env.OLLAMA_URL:=http://localhost:11434}.
var localURL = lazyre.New(`^(?:\$\{env\.([A-Za-z0-9_]+):=)?(https?://(?:[^@/\s]*@)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])[:/][^}]*)\}?$`)

// localhost warns about the URLs of a provider's config that reach the pod itself.
func (c *ownConfigCheck) localhost(api string, i int, config any) {
	configyaml.WalkStrings(config, func(path configyaml.Path, s string) {
		m := localURL().FindStringSubmatch(s)
		if m == nil || (m[1] != "" && c.env[m[1]]) {
			return
		}
		how := "is"
		if m[1] != "" {
			how = "falls back to, since the pod has no " + m[1] + ","
		}
		c.warn("providers.%s[%d].config.%s %s %s: in the pod that is the server itself; use the service's address", api, i, path, how, redact.URL(m[2]))
	})
}

// disabled reports whether the server skips a provider: its id is empty, or conditional on a
// variable the pod does not set (${env.OLLAMA_URL:+ollama}).
func (c *ownConfigCheck) disabled(p map[string]any) bool {
	id, _ := p["provider_id"].(string)
	if m := envRef(conditionalID(), id); m != nil {
		return !c.env[m[1]]
	}
	return id == "" || id == "__disabled__"
}

// retiredEnv are variables older distribution configs read, with what took their place.
var retiredEnv = map[string]string{
	"INFERENCE_MODEL":          "register the model under ⟦spec.resources.models⟧ (registered_resources.models in a config of your own); the starter distribution lists each provider's models itself",
	"OLLAMA_INFERENCE_MODEL":   "register the model under ⟦spec.resources.models⟧ (registered_resources.models in a config of your own); the starter distribution lists Ollama's models itself",
	"SAFETY_MODEL":             "register the shield's model under ⟦spec.resources.models⟧ and the shield under ⟦spec.resources.shields⟧ (safety is gone from OGX 1.x)",
	"AWS_BEARER_TOKEN_BEDROCK": "OGX 1.x reads AWS_BEDROCK_BEARER_TOKEN",
}

// shippedConfigVariables are the variables some base config of llsd's catalog reads, of any
// server version: a user who sets one expects a config to read it.
var shippedConfigVariables = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	_ = fs.WalkDir(distributions.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := distributions.FS.ReadFile(path)
		for _, m := range envReference().FindAllSubmatch(data, -1) {
			names[string(m[1])] = true
		}
		return err
	})
	return names
})

// UnreadEnv warns about variables of spec.workload.overrides.env that config.yaml (tree) does
// not read although a distribution config did or does (INFERENCE_MODEL, which the starter
// config of 0.7 no longer reads): the user expects them to do something, and they do nothing.
// Only the config's values count: a ${env.X} in a comment reads nothing.
func UnreadEnv(tree map[string]any, env []corev1.EnvVar, path *field.Path) []Warning {
	read := map[string]bool{}
	configyaml.EachString(tree, func(s string) {
		if strings.Contains(s, "${env.") {
			for _, m := range envReference().FindAllStringSubmatch(s, -1) {
				read[m[1]] = true
			}
		}
	})
	var warnings []Warning
	for i, e := range env {
		instead, retired := retiredEnv[e.Name]
		if read[e.Name] || (!retired && !shippedConfigVariables()[e.Name]) {
			continue
		}
		message := fmt.Sprintf("%s does nothing: config.yaml has no ${env.%s}", e.Name, e.Name)
		switch {
		case retired:
			message += ": " + instead
		case strings.HasPrefix(e.Name, "AUTH_"):
			// the variables of OpenShift AI's images' auth block, which this config has not
			message += ": give the server its authentication provider with ⟦spec.authentication⟧ (oidc: issuer, audience, jwksURI)"
		}
		warnings = append(warnings, Warning{Field: path.Index(i).Child("name").String(), Message: message})
	}
	return warnings
}

func envNames(env []corev1.EnvVar) map[string]bool {
	names := make(map[string]bool, len(env))
	for _, e := range env {
		names[e.Name] = true
	}
	return names
}
