// SPDX-License-Identifier: Apache-2.0

package profile

import "regexp"

// v08 is OGX 0.8 (tag v0.8.0), the first release after llama-stack renamed itself OGX: the
// ogx CLI and entrypoint, OGX_PORT, ~/.ogx, the messages and interactions APIs; datasetio,
// scoring and eval are gone. Registered models are identified by provider_id/model_id.
var v08 = ogx(&Profile{
	Version: "0.8",
	Release: "0.8.0",
	// The OGX operator's catalog names docker.io/ogxai/distribution-*; OGX's docs also name
	// ogx/distribution-*.
	ImageRepositories: []string{"docker.io/ogxai/distribution-", "docker.io/ogx/distribution-"},
	KVStores:          []string{"metadata", "prompts", "connectors"},
	CLI:               CLI{Commands: [][]string{{"ogx", "stack", "run"}}, Options: runOptions()},
	// The provider fields of main at d1b6632 (0.8.0 plus inline::auto and markitdown file
	// processors): the schema llsd validates 0.8 configs with is main's too.
	Upstream: Upstream{Configs: "v0.8.0", Server: "main-d1b6632"},
	Marks: Marks{Evidence: "the messages/interactions APIs or OGX names (~/.ogx, ogx databases; 0.8)",
		First: Mark{APIs: []string{"messages", "interactions"}, Strings: regexp.MustCompile(`~/\.ogx|:=ogx\}|ogx_kvstore`)}},
	Dependencies: withVectorIO(map[string][]string{
		"batches inline::reference":        {"inference", "files", "models"},
		"file_processors *":                {"files"},
		"interactions inline::builtin":     {"inference"},
		"messages inline::builtin":         {"inference"},
		"responses inline::builtin":        {"inference", "vector_io", "tool_runtime", "tool_groups", "conversations", "prompts", "files", "connectors"},
		"safety inline::llama-guard":       {"inference"},
		"tool_runtime inline::file-search": {"vector_io", "inference", "files"},
	}),
})
