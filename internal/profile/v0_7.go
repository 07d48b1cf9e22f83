// SPDX-License-Identifier: Apache-2.0

package profile

// v07 is llama-stack 0.7 (tag v0.7.1), the last release named llama-stack.
var v07 = llamaStack(&Profile{
	Version:    "0.7",
	Release:    "0.7.1",
	ModelTypes: []string{"llm", "embedding", "rerank"},
	Upstream:   Upstream{Configs: "v0.7.1", Server: "v0.7.1"},
	Marks: Marks{Evidence: "the responses API or builtin/file-search providers (0.7)",
		First: Mark{APIs: []string{"responses"}, ProviderTypes: []string{"inline::builtin", "inline::file-search"}}},
	Dependencies: withVectorIO(map[string][]string{
		"batches inline::reference":        {"inference", "files", "models"},
		"eval inline::builtin":             {"datasetio", "datasets", "scoring", "inference", "responses"},
		"eval remote::nvidia":              {"datasetio", "datasets", "scoring", "inference", "responses"},
		"file_processors inline::pypdf":    {"files"},
		"file_processors inline::docling":  {"files"},
		"responses inline::builtin":        {"inference", "vector_io", "tool_runtime", "tool_groups", "conversations", "prompts", "files", "connectors"},
		"safety inline::llama-guard":       {"inference"},
		"scoring inline::basic":            {"datasetio", "datasets"},
		"scoring inline::llm-as-judge":     {"datasetio", "datasets", "inference"},
		"scoring inline::braintrust":       {"datasetio", "datasets"},
		"tool_runtime inline::file-search": {"vector_io", "inference", "files"},
	}),
})
