// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// What llsd changes in a distribution's base config before the spec applies, and the checks
// that the base, with the spec applied, can start in the pod it renders.

// enableDistributionProviders drops the ${env.X:+id} condition of the providers a
// distribution always enables (remote-vllm: vllm).
func (g *generator) enableDistributionProviders() {
	for _, id := range g.dist.EnableProviders {
		for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
			for _, entry := range providerList(g.cfg, api) {
				if entryID(entry["provider_id"]) == id {
					entry["provider_id"] = id
				}
			}
		}
	}
}

// addDistributionProviders adds the providers a distribution's config lacks although its
// other providers need them (postgres-demo: files).
func (g *generator) addDistributionProviders() {
	for _, api := range slices.Sorted(maps.Keys(g.dist.AddProviders)) {
		entries := providerList(g.cfg, api)
		for _, entry := range g.dist.AddProviders[api] {
			entries = append(entries, configyaml.DeepCopy(entry).(map[string]any))
		}
		setProviderList(g.cfg, api, entries)
		addAPI(g.cfg, api)
	}
}

var emptyDefault = lazyre.New(`^\$\{env\.([A-Z0-9_]+):=\}$`)

// checkDistributionProviders fails when a provider the base enables whatever the environment
// has a key it cannot start without only as ${env.X:=} and nothing sets X: remote-vllm, or
// postgres-demo's vllm-inference, without a vLLM URL would crash at start.
func (g *generator) checkDistributionProviders() {
	for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
		for _, entry := range providerList(g.cfg, api) {
			id, _ := entry["provider_id"].(string)
			if !isLiteral(id) || slices.Contains(g.crIDs[api], id) {
				continue // conditional, or from the spec (checked where it is built)
			}
			t, _ := entry["provider_type"].(string)
			for _, r := range fieldMapFor(g.prof, api, t).Required {
				value, _ := mapAt(entry, "config")[r.Key].(string)
				m := envRef(emptyDefault(), value)
				if m == nil || g.overrideEnvSets(m[1]) {
					continue
				}
				provider := strings.TrimPrefix(t, "remote::")
				g.errs = append(g.errs, field.Required(field.NewPath("spec", "providers", string(v1alpha2.APINameOf(api))), fmt.Sprintf(
					"the distribution's %s provider %s (%s) needs %s, which only %s sets: %s, or set %s in ⟦spec.workload.overrides.env⟧",
					api, id, t, r.Key, m[1], wording.Fix(wording.FixAddProvider(string(v1alpha2.APINameOf(api)), provider),
						fmt.Sprintf("add {id: %s, provider: %s, endpoint: ...} to ⟦spec.providers.%s⟧", id, provider, v1alpha2.APINameOf(api))), m[1])))
			}
		}
	}
}

// requiredEnvNames are the variables s reads without a default: ${env.NAME}. (A scan, not a
// regexp: the starter config has hundreds of references, most with defaults, and this check
// reads every one of them in every render.)
func requiredEnvNames(s string) []string {
	const ref = "${env."
	var names []string
	for {
		i := strings.Index(s, ref)
		if i < 0 {
			return names
		}
		s = s[i+len(ref):]
		n := 0
		for n < len(s) && (s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9' || s[n] == '_') {
			n++
		}
		if n > 0 && n < len(s) && s[n] == '}' {
			names = append(names, s[:n])
		}
	}
}

// checkRequiredEnv fails on ${env.X} references (no default) that neither llsd nor
// spec.workload.overrides.env provides: the server substitutes every one of them, also in
// disabled providers, and stops at start when X is unset (postgres-demo's INFERENCE_MODEL,
// unless spec.resources.models takes its place).
func (g *generator) checkRequiredEnv() {
	unset := func(name string) bool { return !strings.HasPrefix(name, "LLSD_") && !g.overrideEnvSets(name) }
	if !configyaml.AnyString(g.cfg, func(s string) bool { return slices.ContainsFunc(requiredEnvNames(s), unset) }) {
		return // the usual case, found without the paths the message names
	}
	seen := map[string]bool{}
	configyaml.WalkStrings(g.cfg, func(at configyaml.Path, s string) {
		for _, name := range requiredEnvNames(s) {
			if seen[name] || !unset(name) {
				continue
			}
			seen[name] = true
			fix := "set it in ⟦spec.workload.overrides.env⟧"
			where := at.String()
			if strings.HasPrefix(where, "registered_resources.models") {
				fix += ", or list your models in ⟦spec.resources.models⟧, which take the place of this one"
			}
			g.errs = append(g.errs, field.Required(overridesEnvPath, fmt.Sprintf(
				"the distribution's config requires environment variable %s (at %s), and the server stops at start without it: %s",
				name, where, fix)))
		}
	})
}

// checkNullDefaults fails when a provider the pod enables reads a key that takes no null from a
// variable with an empty default that the pod does not set: the server substitutes null and the
// provider refuses it at start. OpenShift AI 3.4's remote Milvus, enabled by MILVUS_ENDPOINT,
// reads consistency_level so:
//
//	consistency_level: ${env.MILVUS_CONSISTENCY_LEVEL:=}   # a string, "Strong" by default, but null here
func (g *generator) checkNullDefaults() {
	for _, api := range slices.Sorted(maps.Keys(mapAt(g.cfg, "providers"))) {
		for _, entry := range providerList(g.cfg, api) {
			id, enabled := g.enabledID(entry["provider_id"])
			providerType, _ := entry["provider_type"].(string)
			fields, known := g.prof.Fields(api, providerType)
			if !enabled || !known {
				continue
			}
			config := mapAt(entry, "config")
			for _, key := range g.nullDefaultKeys(config) {
				m := envRef(emptyDefault(), config[key].(string))
				if f, ok := profile.FieldNamed(fields, key); ok && f.NullRefused {
					g.errs = append(g.errs, field.Required(overridesEnvPath, fmt.Sprintf(
						"provider %s (%s) reads %s from %s, which has no default: the server puts null there, which %s does not take, "+
							"and stops at start: set %s in ⟦spec.workload.overrides.env⟧", id, providerType, key, m[1], key, m[1])))
				}
			}
		}
	}
}

// nullDefaultKeys are the keys of a provider's config, sorted, whose value is ${env.X:=} with X
// unset in the pod: few or none, so only they are sorted.
func (g *generator) nullDefaultKeys(config map[string]any) []string {
	var keys []string
	for key, v := range config {
		value, _ := v.(string)
		if m := envRef(emptyDefault(), value); m != nil && !g.podSets(m[1]) {
			keys = append(keys, key)
		}
	}
	slices.Sort(keys)
	return keys
}

// enabledID is a provider's id and whether the pod enables it: a literal id, or ${env.X:+id}
// with X set in the pod.
func (g *generator) enabledID(v any) (string, bool) {
	s, _ := v.(string)
	if m := envRef(conditionalID(), s); m != nil {
		return m[2], g.podSets(m[1])
	}
	return s, isLiteral(v)
}

// checkPostgresCredentials fails when a Postgres backend of the distribution reads its
// database, user or password from a variable that has an empty default and that the pod does
// not set: the server gets null for a string and stops at start (OpenShift AI 3.5's config
// reads POSTGRES_DB and POSTGRES_USER so).
func (g *generator) checkPostgresCredentials() {
	backends := mapAt(mapAt(g.cfg, "storage"), "backends")
	var unset []string
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		backend := mapAt(backends, name)
		if t, _ := backend["type"].(string); !strings.HasSuffix(t, "_postgres") {
			continue
		}
		for _, key := range []string{"db", "user", "password"} {
			value, _ := backend[key].(string)
			if m := envRef(emptyDefault(), value); m != nil && !g.overrideEnvSets(m[1]) && !slices.Contains(unset, m[1]) {
				unset = append(unset, m[1])
			}
		}
	}
	if len(unset) > 0 {
		g.errs = append(g.errs, field.Required(storagePath, fmt.Sprintf(
			"the distribution's Postgres backends read %s, which have no default, and the server stops without them: set them in "+
				"⟦spec.workload.overrides.env⟧ (from a Secret), or set ⟦spec.storage.sql⟧ {type: postgres, connectionString: ...}", strings.Join(unset, ", "))))
	}
}

// loopBoundPostgres are the versions whose SQL store on Postgres fails every request after the
// server started: they make their stack in a temporary event loop and keep the SQLAlchemy
// engine (its asyncpg connections) made there, which uvicorn's loop cannot use ("attached to a
// different loop"; sqlalchemy_sqlstore.py:72-94@v0.6.0; 1.1.0 resets the engines after the
// stack is made, reset_sqlstore_engines, server.py:146-148). The real server showed it
// (TestTheRealServerReachesTheServicesUsersPick): 0.6.0 and 1.0.0 answer 500 to a conversation
// on Postgres, 0.7.1, 0.8.0 and 1.1.0 on do not.
var loopBoundPostgres = []profile.Version{"0.6", "1.0"}

// warnLoopBoundPostgres warns where such a version keeps its SQL store on Postgres: it starts,
// and then fails every request that reads or writes the store.
func (g *generator) warnLoopBoundPostgres() {
	if !slices.Contains(loopBoundPostgres, g.prof.Version) {
		return
	}
	backends := mapAt(mapAt(g.cfg, "storage"), "backends")
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		if mapAt(backends, name)["type"] != "sql_postgres" {
			continue
		}
		g.warn(storagePath, "server %s keeps the SQL store %s on Postgres in a connection of the event loop it starts in, which "+
			"the loop serving requests cannot use: every request that reads or writes the store (conversations, responses, files, "+
			"the inference store) fails with an internal error; use serverVersion \"1.1\" or later (or \"0.7\", \"0.8\"), or a SQLite SQL store",
			g.prof.Version, name)
		return
	}
}

var localhostDefault = lazyre.New(`^(?:localhost|127\.0\.0\.1|::1|\$\{env\.([A-Z0-9_]+):=(?:localhost|127\.0\.0\.1)\})$`)

// checkLocalStorage fails when a storage backend still connects to localhost (postgres-demo's
// ${env.POSTGRES_HOST:=localhost}): nothing listens there in the server's pod.
func (g *generator) checkLocalStorage() {
	if s := g.spec.Storage; s != nil && len(s.Backends) > 0 {
		return // applyNamedStorage names the backend's host field
	}
	backends := mapAt(mapAt(g.cfg, "storage"), "backends")
	var local, fixes []string
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		backend := mapAt(backends, name)
		host, _ := backend["host"].(string)
		m := localhostDefault().FindStringSubmatch(host)
		if m == nil || (m[1] != "" && g.overrideEnvSets(m[1])) {
			continue
		}
		t, _ := backend["type"].(string)
		local = append(local, fmt.Sprintf("%s (%s)", name, t))
		fix := "set ⟦spec.storage.kv⟧"
		if strings.HasSuffix(t, "_postgres") {
			fix = "set ⟦spec.storage.sql⟧ {type: postgres, connectionString: ...} (llsd points the distribution's Postgres backends at that database)"
		}
		if m[1] != "" {
			fix += fmt.Sprintf(", or set %s in ⟦spec.workload.overrides.env⟧", m[1])
		}
		if !slices.Contains(fixes, fix) {
			fixes = append(fixes, fix)
		}
	}
	if len(local) > 0 && g.dist.Release != "" {
		fixes = append(fixes, fmt.Sprintf("or, if the object was written for an earlier release than %s, render for that one (render option "+
			"openshiftAI.release: OpenShift AI keeps the state in SQLite before 3.2)", g.dist.Release))
	}
	if len(local) > 0 {
		g.errs = append(g.errs, field.Required(storagePath, fmt.Sprintf(
			"the distribution keeps storage backend %s on localhost, where nothing listens in the server's pod: %s",
			strings.Join(local, " and "), strings.Join(fixes, "; "))))
	}
}
