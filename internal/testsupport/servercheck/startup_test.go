// SPDX-License-Identifier: Apache-2.0

package servercheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/testsupport/golden"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// startupCaseSets are the start-up cases of internal/servercheck/testdata/startup: configs that
// pass the JSON schema but fail at start-up or silently misbehave, each named after the rule of
// the server's source it breaks, numbered as in the start-up reference beside the repository
// (the 0.x reference's §13, the OGX 1.x reference's §8), which TestStartupCasesEqualTheReference
// holds them equal to.
var startupCaseSets = map[string]struct{ document, section string }{
	"0.x": {document: "llama-stack-startup-checks.md", section: "13"},
	"1.x": {document: "ogx-1.x.md", section: "8"},
}

// startupCases reads the numbered configs of a set, testdata/startup/<set>/<n>.yaml.
func startupCases(t *testing.T, set string) map[int]map[string]any {
	files, err := filepath.Glob(filepath.Join("testdata", "startup", set, "*.yaml"))
	require.NoError(t, err)
	configs := map[int]map[string]any{}
	for _, f := range files {
		n, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(f), ".yaml"))
		require.NoError(t, err, f)
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		cfg, err := configyaml.UnmarshalMap(data)
		require.NoError(t, err, f)
		configs[n] = cfg
	}
	return configs
}

// The start-up cases are the configs of the start-up references (the sections named in
// startupCaseSets), as parsed documents; WRITE_GOLDEN_OUTPUT=1 (make golden) writes them from the references.
func TestStartupCasesEqualTheReference(t *testing.T) {
	reference := filepath.Join(testenv.Reference(t), "..", "reference")
	for set, at := range startupCaseSets {
		want := referenceSection(t, filepath.Join(reference, at.document), at.section)
		if golden.Updating() {
			writeStartupCases(t, set, at.document, at.section, want)
		}
		got := startupCases(t, set)
		require.Len(t, got, len(want), set)
		for n, c := range want {
			assert.Equal(t, c.config, got[n], "testdata/startup/%s/%02d.yaml", set, n)
		}
	}
}

type referenceCase struct {
	title, block string
	config       map[string]any
}

// referenceSection reads the numbered YAML configs of a section of a reference document.
func referenceSection(t *testing.T, document, section string) map[int]referenceCase {
	data, err := os.ReadFile(document)
	require.NoError(t, err)
	_, section, ok := strings.Cut(string(data), "\n## "+section+".")
	require.True(t, ok, "%s has no section %s", document, section)
	section, _, _ = strings.Cut(section, "\n### ")
	item := regexp.MustCompile("(?s)\\n(\\d+)\\. \\*\\*(.*?)\\*\\*.*?```yaml\\n(.*?)```")
	cases := map[int]referenceCase{}
	for _, m := range item.FindAllStringSubmatch(section, -1) {
		n, _ := strconv.Atoi(m[1])
		block := dedent(m[3])
		cfg, err := configyaml.UnmarshalMap([]byte(block))
		require.NoError(t, err, "reference config %d", n)
		cases[n] = referenceCase{title: m[2], block: block, config: cfg}
	}
	return cases
}

func writeStartupCases(t *testing.T, set, document, section string, cases map[int]referenceCase) {
	dir := filepath.Join("testdata", "startup", set)
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for n, c := range cases {
		header := fmt.Sprintf("# %s\n# (config %d of §%s of %s, the start-up reference)\n", c.title, n, section, document)
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("%02d.yaml", n)), []byte(header+c.block), 0o644))
	}
}

// dedent removes the indentation of a YAML block nested in a Markdown list item.
func dedent(block string) string {
	lines := strings.Split(block, "\n")
	indent := len(lines[0]) - len(strings.TrimLeft(lines[0], " "))
	for i, l := range lines {
		if len(l) >= indent {
			lines[i] = l[indent:]
		}
	}
	return strings.Join(lines, "\n")
}

// Every config of the reference is caught by the rule that describes it, and by no other:
// the rules neither miss a start-up failure nor invent one.
func TestStartupCatchesTheReferenceConfigs(t *testing.T) {
	configs := startupCases(t, "0.x")
	require.Len(t, configs, 21)
	pod := servercheck.Pod{Getenv: func(string) string { return "" }, Home: "/", Writable: []string{"/.llama", "/data"}}
	for _, tc := range []struct {
		n       int
		version string
		rules   []string
		reason  string
	}{
		{n: 1, version: "0.7", rules: []string{"R2"}, reason: "a resource names a provider that an unset variable disabled"},
		{n: 2, version: "0.7", rules: []string{"E1"}, reason: "a bare ${env.X} inside a disabled provider is still substituted"},
		{n: 3, version: "0.7", rules: []string{"K2"}, reason: "the default embedding model is referred to by its alias"},
		{n: 4, version: "0.7", rules: []string{"K3"}, reason: "the default reranker needs the provider that lists it"},
		{n: 4, version: "0.6", rules: nil, reason: "0.6 has no reranker check"},
		{n: 5, version: "0.7", rules: []string{"P6"}, reason: "apis lists files, whose only provider is disabled"},
		{n: 6, version: "0.7", rules: []string{"P5"}, reason: "batches needs the inference router, which apis leaves out"},
		{n: 7, version: "0.7", rules: []string{"S1"}, reason: "a KV reference names a SQL backend"},
		{n: 8, version: "0.7", rules: []string{"P8"}, reason: "pgvector without persistence"},
		{n: 9, version: "0.7", rules: []string{"S4"}, reason: "a kv_postgres table name that is not an identifier"},
		{n: 10, version: "0.7", rules: []string{"S2", "S3"}, reason: "a literal ~ in sqlite paths"},
		{n: 11, version: "0.7", rules: []string{"S3"}, reason: "a sql_sqlite directory nobody creates"},
		{n: 13, version: "0.7", rules: []string{"R9"}, reason: "0.7 discards tool groups"},
		{n: 13, version: "0.6", rules: nil, reason: "0.6 registers tool groups"},
		{n: 14, version: "0.7", rules: []string{"V7"}, reason: "0.7 wants file_search in the header template"},
		{n: 14, version: "0.6", rules: nil, reason: "0.6 wants knowledge_search"},
		{n: 15, version: "0.7", rules: []string{"K6", "R4"}, reason: "an invalid code-scanner id and a default shield that is not registered"},
		{n: 16, version: "0.7", rules: []string{"R5"}, reason: "a vector store on a model the provider only lists"},
		{n: 17, version: "0.6", rules: []string{"H2"}, reason: "several workers without a host on 0.6"},
		{n: 17, version: "0.7", rules: nil, reason: "0.7 binds :: for several workers"},
		{n: 18, version: "0.7", rules: []string{"H3"}, reason: "half a TLS pair"},
		{n: 19, version: "0.7", rules: []string{"H5"}, reason: "a route policy that does not permit the probes"},
		{n: 20, version: "0.7", rules: []string{"H7"}, reason: "a quota the probes consume"},
		{n: 21, version: "0.7", rules: []string{"R7"}, reason: "datasets need a datasetio provider named localfs"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			problems := servercheck.Startup(tc.version, configyaml.DeepCopy(configs[tc.n]).(map[string]any), pod)
			assert.Equal(t, tc.rules, rules(problems, false), "config %d on %s: %s\n%v", tc.n, tc.version, tc.reason, problems)
		})
	}
	network := servercheck.Startup("0.7", configs[12], pod)
	assert.Equal(t, []string{"N2"}, rules(network, true), "config 12: an Ollama model is checked against Ollama, which only a running server can do")
}

// Every config of the OGX 1.x reference (ogx-1.x.md §8) is caught by the rule that
// describes it, and by no other; where the rule is one the 0.x reference named, the oracle
// uses that id (the 1.x id is in the reason).
func TestStartupCatchesTheOGX1ReferenceConfigs(t *testing.T) {
	configs := startupCases(t, "1.x")
	require.Len(t, configs, 17)
	for _, tc := range []struct {
		n       int
		version string
		rules   []string
		reason  string
		noFlag  bool // started by the 1.2.0 entrypoint, without --insecure
	}{
		{n: 1, version: "1.2", rules: []string{"C2"}, reason: "no TLS pair and not insecure", noFlag: true},
		{n: 1, version: "1.2", rules: nil, reason: "the 1.2.1 entrypoint passes --insecure", noFlag: false},
		{n: 1, version: "1.1", rules: nil, reason: "1.1 serves plain HTTP", noFlag: true},
		{n: 2, version: "1.3", rules: []string{"C3"}, reason: "a cipher that is not FIPS-approved, also under --insecure", noFlag: false},
		{n: 3, version: "1.2", rules: []string{"C5"}, reason: "verify_tls: false in auth without insecure", noFlag: true},
		{n: 4, version: "1.2", rules: []string{"T1"}, reason: "single-tenant mode without a tenant id", noFlag: false},
		{n: 5, version: "1.0", rules: []string{"V2"}, reason: "the prompts store on the KV backend (1.x S1)", noFlag: false},
		{n: 6, version: "1.1", rules: []string{"S6"}, reason: "the connectors store switched off (1.x S3)", noFlag: false},
		{n: 7, version: "1.0", rules: []string{"S1"}, reason: "the batches sqlstore names a KV backend (1.x S5)", noFlag: false},
		{n: 8, version: "1.1", rules: []string{"S1"}, reason: "the messages kvstore names a SQL backend (1.x S5)", noFlag: false},
		{n: 9, version: "1.1", rules: []string{"OGX-S6"}, reason: "an access policy and a vector_io provider without a metadata store", noFlag: false},
		{n: 9, version: "1.0", rules: nil, reason: "1.0 starts without the metadata store", noFlag: false},
		{n: 10, version: "1.3", rules: []string{"T3"}, reason: "multi-tenant mode and a vector_io provider without a metadata store", noFlag: false},
		{n: 11, version: "1.1", rules: []string{"P5"}, reason: "skills need a files provider (1.x P2)", noFlag: false},
		{n: 12, version: "1.2", rules: []string{"P6"}, reason: "containers in apis has no implementation (1.x P3)", noFlag: false},
		{n: 13, version: "1.2", rules: []string{"K3"}, reason: "the reranker default names the removed transformers provider (1.x K2)", noFlag: false},
		{n: 14, version: "1.3", rules: []string{"OGX-S5"}, reason: "the interactions provider's default store needs a backend named sql_default", noFlag: false},
		{n: 15, version: "1.1", rules: []string{"S3"}, reason: "a sql_sqlite directory nobody creates, read at start-up (1.x S4)", noFlag: false},
		{n: 16, version: "1.0", rules: []string{"R5"}, reason: "a vector store names its model by provider_id/provider_model_id (1.x R1)", noFlag: false},
		{n: 17, version: "1.2", rules: []string{"OGX-P4"}, reason: "inline::chromadb cannot start", noFlag: false},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			// /data/ogx stands for a writable volume.
			pod := servercheck.Pod{Getenv: func(string) string { return "" }, Home: "/", Writable: []string{"/.ogx", "/data", "/data/ogx"},
				Insecure: atLeast12(tc.version) && !tc.noFlag}
			problems := servercheck.Startup(tc.version, configyaml.DeepCopy(configs[tc.n]).(map[string]any), pod)
			assert.Equal(t, tc.rules, rules(problems, false), "config %d on %s: %s\n%v", tc.n, tc.version, tc.reason, problems)
		})
	}
}

// atLeast12 reports whether an OGX version's entrypoint passes --insecure (1.2.1 on).
func atLeast12(version string) bool { return version == "1.2" || version == "1.3" }

// rules lists the distinct rules of the problems that are (network) or are not decided by
// contacting another service.
func rules(problems []servercheck.Problem, network bool) []string {
	var out []string
	for _, p := range problems {
		if p.Network == network {
			out = append(out, p.Rule)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// The rules the reference names without an example of its own.
func TestStartupRules(t *testing.T) {
	base := func() map[string]any {
		return map[string]any{
			"distro_name": "gen",
			"providers": map[string]any{
				"inference": []any{map[string]any{"provider_id": "vllm", "provider_type": "remote::vllm",
					"config": map[string]any{"base_url": "http://vllm:8000/v1"}}},
				"safety": []any{map[string]any{"provider_id": "llama-guard", "provider_type": "inline::llama-guard"}},
			},
			"storage": map[string]any{"backends": map[string]any{
				"kv_default":  map[string]any{"type": "kv_sqlite", "db_path": "/data/kvstore.db"},
				"sql_default": map[string]any{"type": "sql_sqlite", "db_path": "/data/sql_store.db"},
			}},
		}
	}
	pod := servercheck.Pod{Getenv: func(string) string { return "" }, Home: "/", Writable: []string{"/data"}}
	shield := func(target string) map[string]any {
		return map[string]any{"shield_id": "guard", "provider_id": "llama-guard", "provider_shield_id": target}
	}
	for _, tc := range []struct {
		reason string
		edit   func(cfg map[string]any)
		env    map[string]string
		rules  []string
	}{
		{reason: "a valid config passes", edit: func(map[string]any) {}, env: nil, rules: nil},
		{reason: "vLLM without a URL stops the start", edit: func(cfg map[string]any) {
			entryAt(cfg, "inference").(map[string]any)["config"] = map[string]any{"base_url": "${env.VLLM_URL:=}"}
		}, env: nil, rules: []string{"P8"}},
		{reason: "a Llama Guard shield must name a model the inference router finds", edit: func(cfg map[string]any) {
			registered(cfg)["shields"] = []any{shield("llama-guard3:1b")}
		}, env: nil, rules: []string{"R4"}},
		{reason: "provider/model of an enabled inference provider is found without registration", edit: func(cfg map[string]any) {
			registered(cfg)["shields"] = []any{shield("vllm/llama-guard3:1b")}
		}, env: nil, rules: nil},
		{reason: "a registered model identifier is found", edit: func(cfg map[string]any) {
			registered(cfg)["models"] = []any{map[string]any{"model_id": "guard-model", "provider_id": "vllm", "provider_model_id": "meta/guard"}}
			registered(cfg)["shields"] = []any{shield("vllm/meta/guard")}
		}, env: nil, rules: nil},
		{reason: "a non-numeric port variable crashes the CLI", edit: func(map[string]any) {}, env: map[string]string{"LLAMA_STACK_PORT": "tcp://10.0.0.1:8321"}, rules: []string{"H1"}},
		{reason: "a store on a missing backend", edit: func(cfg map[string]any) {
			cfg["storage"].(map[string]any)["stores"] = map[string]any{"metadata": map[string]any{"backend": "kv_missing", "namespace": "r"}}
		}, env: nil, rules: []string{"V2"}},
		{reason: "a null conversations store", edit: func(cfg map[string]any) {
			cfg["storage"].(map[string]any)["stores"] = map[string]any{"conversations": nil}
		}, env: nil, rules: []string{"S6"}},
		{reason: "files outside every volume", edit: func(cfg map[string]any) {
			cfg["storage"].(map[string]any)["backends"].(map[string]any)["kv_default"].(map[string]any)["db_path"] = "/tmp/kv.db"
		}, env: nil, rules: []string{"S2"}},
		{reason: "a routing table is not a provider API", edit: func(cfg map[string]any) {
			cfg["providers"].(map[string]any)["models"] = []any{}
		}, env: nil, rules: []string{"P1"}},
		{reason: "an API of another version", edit: func(cfg map[string]any) {
			cfg["providers"].(map[string]any)["agents"] = []any{}
		}, env: nil, rules: []string{"P1"}},
		{reason: "an embedding model without its dimension", edit: func(cfg map[string]any) {
			registered(cfg)["models"] = []any{map[string]any{"model_id": "e", "provider_id": "vllm", "model_type": "embedding"}}
		}, env: nil, rules: []string{"R3"}},
		{reason: "one identifier registered twice with other fields", edit: func(cfg map[string]any) {
			registered(cfg)["models"] = []any{
				map[string]any{"model_id": "a", "provider_id": "vllm", "provider_model_id": "m"},
				map[string]any{"model_id": "b", "provider_id": "vllm", "provider_model_id": "m"}}
		}, env: nil, rules: []string{"X1"}},
		{reason: "a rewrite-query model that is not registered", edit: func(cfg map[string]any) {
			cfg["vector_stores"] = map[string]any{"rewrite_query_params": map[string]any{
				"model": map[string]any{"provider_id": "sentence-transformers", "model_id": "x"}}}
		}, env: nil, rules: []string{"K4"}},
		{reason: "neither distro_name nor image_name", edit: func(cfg map[string]any) { delete(cfg, "distro_name") }, env: nil, rules: []string{"V1"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			cfg := base()
			tc.edit(cfg)
			env := func(name string) string { return tc.env[name] }
			p := pod
			p.Getenv = env
			problems := servercheck.Startup("0.7", cfg, p)
			assert.Equal(t, tc.rules, rules(problems, false), "%s\n%v", tc.reason, problems)
		})
	}
}

// On 0.6, tool groups are registered, and an MCP group needs its endpoint.
func TestStartupToolGroupsOn06(t *testing.T) {
	cfg := map[string]any{
		"distro_name": "gen",
		"providers": map[string]any{"tool_runtime": []any{
			map[string]any{"provider_id": "mcp", "provider_type": "remote::model-context-protocol"}}},
		"registered_resources": map[string]any{"tool_groups": []any{
			map[string]any{"toolgroup_id": "mcp::github", "provider_id": "mcp"}}},
	}
	pod := servercheck.Pod{Getenv: func(string) string { return "" }, Home: "/", Writable: []string{"/.llama"}}
	assert.Equal(t, []string{"R8"}, rules(servercheck.Startup("0.6", cfg, pod), false))
	assert.Equal(t, []string{"R9"}, rules(servercheck.Startup("0.7", cfg, pod), false), "0.7 drops them instead")
}

func entryAt(cfg map[string]any, api string) any {
	return cfg["providers"].(map[string]any)[api].([]any)[0]
}

func registered(cfg map[string]any) map[string]any {
	rr, ok := cfg["registered_resources"].(map[string]any)
	if !ok {
		rr = map[string]any{}
		cfg["registered_resources"] = rr
	}
	return rr
}

// What changed at OGX 0.8 (src/ogx/core at main): a model's identifier is provider_id/model_id,
// provider_id: all registers an unprefixed alias (never failing the start), the port comes
// from OGX_PORT, and the upstream starter starts with nothing set.
func TestStartupOn08(t *testing.T) {
	cfg := func(models ...any) map[string]any {
		return map[string]any{
			"distro_name": "gen",
			"providers": map[string]any{"inference": []any{
				map[string]any{"provider_id": "sentence-transformers", "provider_type": "inline::sentence-transformers"}}},
			"registered_resources": map[string]any{"models": models},
			"vector_stores":        map[string]any{"default_embedding_model": map[string]any{"provider_id": "sentence-transformers", "model_id": "embed"}},
			"storage": map[string]any{"backends": map[string]any{
				"kv_default":  map[string]any{"type": "kv_sqlite", "db_path": "/.ogx/kvstore.db"},
				"sql_default": map[string]any{"type": "sql_sqlite", "db_path": "/.ogx/sql_store.db"},
			}},
		}
	}
	embed := map[string]any{"model_id": "embed", "provider_id": "sentence-transformers", "model_type": "embedding",
		"provider_model_id": "nomic-ai/nomic-embed-text-v1.5", "metadata": map[string]any{"embedding_dimension": 768}}
	alias := map[string]any{"model_id": "claude", "provider_id": "all", "provider_model_id": "auto"}
	pod := servercheck.Pod{Getenv: func(string) string { return "" }, Home: "/", Writable: []string{"/.ogx"}}

	assert.Empty(t, rules(servercheck.Startup("0.8", cfg(embed), pod), false), "0.8 names the model sentence-transformers/embed")
	assert.Equal(t, []string{"K2"}, rules(servercheck.Startup("0.7", cfg(embed), pod), false),
		"0.7 names it by the provider's name, sentence-transformers/nomic-ai/nomic-embed-text-v1.5")
	assert.Empty(t, rules(servercheck.Startup("0.8", cfg(embed, alias), pod), false), "provider_id: all never stops the start")
	assert.Equal(t, []string{"K2", "R2"}, rules(servercheck.Startup("0.7", cfg(embed, alias), pod), false), "0.7 has no provider all")

	port := pod
	port.Getenv = func(name string) string { return map[string]string{"OGX_PORT": "tcp://10.0.0.1:8321"}[name] }
	assert.Equal(t, []string{"H1"}, rules(servercheck.Startup("0.8", cfg(embed), port), false), "0.8 reads OGX_PORT")

	starter, err := servercheck.UpstreamConfig("v0.8.0/starter_config")
	require.NoError(t, err)
	assert.Empty(t, rules(servercheck.Startup("0.8", starter, pod), false), "the upstream 0.8 starter starts")
}

// OGX 1.x reads a prompts or connectors store written in 0.8's KV form as the SQL store of the
// same name (its _migrate_kv_to_sql): accepted by the schema and the family check, as the
// configs OpenShift AI ships write it; a backend that is not kv_<name> of a sql_<name> still
// fails the family check (V2), and the SQL form on a KV backend still does (1.x config 5).
func TestOGX1MigratesLegacyKVStores(t *testing.T) {
	configs := startupCases(t, "1.x")
	legacy := func(backend string) map[string]any {
		cfg := configyaml.DeepCopy(configs[5]).(map[string]any)
		stores := cfg["storage"].(map[string]any)["stores"].(map[string]any)
		stores["prompts"] = map[string]any{"backend": backend, "namespace": "prompts"}
		return cfg
	}
	pod := servercheck.Pod{Getenv: func(string) string { return "" }, Home: "/", Writable: []string{"/.ogx", "/data", "/data/ogx"}, Insecure: true}
	for _, v := range []string{"1.0", "1.3"} {
		assert.Empty(t, rules(servercheck.Startup(v, legacy("kv_default"), pod), false), "%s migrates kv_default to sql_default", v)
		assert.NoError(t, servercheck.ValidateStrict(v, legacy("kv_default"), func(string) string { return "" }), "%s: the schema sees the migrated form", v)
		assert.Equal(t, []string{"V2"}, rules(servercheck.Startup(v, legacy("kv_cache"), pod), false), "%s: there is no sql_cache", v)
	}
	assert.Equal(t, []string{"V2"}, rules(servercheck.Startup("1.0", configyaml.DeepCopy(configs[5]).(map[string]any), pod), false))
}
