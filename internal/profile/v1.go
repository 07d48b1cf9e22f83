// SPDX-License-Identifier: Apache-2.0

package profile

// OGX 1.x (github.com/ogx-ai/ogx; the reference data was read at the release tags of the
// opendatahub-io/ogx fork). 1.0 removed the Safety API and shields (responses screen text
// through moderation_endpoint) and moved the prompts, connectors and vector_stores stores and
// the batches store to SQL; 1.1 added skills, made the messages provider's kvstore required
// and moved the images to docker.io/ogxai; 1.2 refuses to start without TLS unless the
// config or the command line says insecure (the 1.2.1 image's entrypoint passes --insecure,
// 1.2.0's does not) and dropped inline::transformers; 1.3 runs as UID 1001 with HOME=/.
// Each is a profile of its own: what a generator must know differs at every minor release.

// ogx1Dependencies are the required API dependencies of the in-tree providers, the same at
// 1.0.0 to 1.3.0 but for skills (1.1+).
func ogx1Dependencies(skills bool) map[string][]string {
	deps := withVectorIO(map[string][]string{
		"batches inline::reference":        {"inference", "files", "models"},
		"file_processors *":                {"files"},
		"interactions inline::builtin":     {"inference"},
		"messages inline::builtin":         {"inference"},
		"responses inline::builtin":        {"inference", "vector_io", "tool_runtime", "tool_groups", "conversations", "prompts", "files", "connectors"},
		"tool_runtime inline::file-search": {"vector_io", "inference", "files"},
	})
	if skills {
		deps["skills inline::builtin"] = []string{"files"}
	}
	return deps
}

// ogx1 fills what every 1.x profile shares.
func ogx1(version, release, configs string, repositories []string, p *Profile) *Profile {
	ogx(p)
	p.Version, p.Release = Version(version), release
	p.ImageRepositories = repositories
	p.KVStores = []string{"metadata"}
	p.MigratedStores = []string{"prompts", "connectors"}
	p.Upstream = Upstream{Configs: configs, Server: configs}
	p.CLI = ogx1CLI(version)
	p.PostgresBackendKeys = ogx1PostgresBackendKeys(version)
	return p
}

// ogx1PostgresBackendKeys: pool settings on kv_postgres from 1.0, its command_timeout from 1.1
// (src/ogx/core/storage/datatypes.py at each tag); sql_postgres takes no SSL settings up to 1.3.
func ogx1PostgresBackendKeys(version string) map[string][]string {
	kv := []string{"ca_cert_path", "max_overflow", "pool_size", "ssl_mode", "table_name"}
	if _, minor, _ := Version(version).parts(); minor >= 1 {
		kv = append(kv, "command_timeout")
	}
	return map[string][]string{
		"kv_postgres":  kv,
		"sql_postgres": {"max_overflow", "pool_pre_ping", "pool_recycle", "pool_size"},
	}
}

// ogx1CLI: ogx run (src/ogx/cli/run.py) joined ogx stack run in 1.0; --dry-run arrived in 1.1
// and --insecure in 1.2 (src/ogx/cli/stack/run.py at each tag).
func ogx1CLI(version string) CLI {
	options := runOptions()
	if _, minor, _ := Version(version).parts(); minor >= 1 {
		options = append(options, "--dry-run")
	}
	if _, minor, _ := Version(version).parts(); minor >= 2 {
		options = append(options, "--insecure")
	}
	return CLI{Commands: [][]string{{"ogx", "stack", "run"}, {"ogx", "run"}}, Options: options}
}

var (
	// 1.0 images were published to docker.io/ogx only (the release workflow at v1.0.0).
	v10 = ogx1("1.0", "1.0.0", "v1.0.0", []string{"docker.io/ogx/distribution-", "docker.io/ogxai/distribution-"},
		&Profile{Dependencies: ogx1Dependencies(false), Marks: Marks{
			Evidence: "a batches sqlstore, an interactions store, responses moderation_endpoint or SQL prompts and vector_stores " +
				"stores (OGX 1.0 or later: set ⟦spec.distribution.serverVersion⟧ to name a later one)",
			First: Mark{ProviderKeys: []string{"batches.sqlstore", "interactions.store", "responses.moderation_endpoint"},
				Stores: []string{"prompts.table_name", "vector_stores"}}}})
	v11 = ogx1("1.1", "1.1.0", "v1.1.0", []string{"docker.io/ogxai/distribution-", "docker.io/ogx/distribution-"},
		&Profile{Dependencies: ogx1Dependencies(true), Marks: Marks{
			Evidence: "the skills API, nimble-search or a messages kvstore (OGX 1.1)",
			First:    Mark{APIs: []string{"skills"}, ProviderTypes: []string{"remote::nimble-search"}, ProviderKeys: []string{"messages.kvstore"}}}})
	// 1.2.1, not 1.2.0: 1.2.0's entrypoint does not pass --insecure. llsd writes
	// server.insecure itself, so a 1.2.0 image starts too.
	v12 = ogx1("1.2", "1.2.1", "v1.2.1", []string{"docker.io/ogxai/distribution-", "docker.io/ogx/distribution-"},
		&Profile{Dependencies: ogx1Dependencies(true), TLSRequired: true, MetricsEndpoint: true, Marks: Marks{
			Evidence: "the unstructured file processors, responses memory_config or server insecure/tenancy/tls_config (OGX 1.2)",
			First: Mark{ProviderTypes: []string{"inline::unstructured", "remote::unstructured-api"}, ProviderKeys: []string{"responses.memory_config"},
				ServerKeys: []string{"insecure", "tenancy", "tls_config", "hsts_max_age"}}}})
	v13 = ogx1("1.3", "1.3.0", "v1.3.0", []string{"docker.io/ogxai/distribution-", "docker.io/ogx/distribution-"},
		&Profile{Dependencies: ogx1Dependencies(true), TLSRequired: true, MetricsEndpoint: true, Marks: Marks{
			Evidence: "the meta, deepseek, mistral or neo4j providers (OGX 1.3)",
			First:    Mark{ProviderTypes: []string{"remote::meta", "remote::deepseek", "remote::mistral", "remote::neo4j"}}}})
)
