// SPDX-License-Identifier: Apache-2.0

package profile

// v06 is llama-stack 0.6 (tag v0.6.0).
var v06 = llamaStack(&Profile{
	Version:         "0.6",
	Release:         "0.6.0",
	ModelTypes:      []string{"llm", "embedding"},
	MultiWorkerHost: "::",
	ToolGroups:      map[string]string{"websearch": "builtin::websearch", "rag": "builtin::rag", "wolfram_alpha": "builtin::wolfram_alpha"},
	Upstream:        Upstream{Configs: "v0.6.0", Server: "v0.6.0"},
	Marks: Marks{Evidence: "the agents/post_training APIs or meta-reference/rag-runtime/tgi providers (0.6 and older)",
		Last: Mark{APIs: []string{"agents", "post_training"}, ProviderTypes: []string{"inline::meta-reference", "inline::rag-runtime", "remote::tgi"}}},
	Dependencies: withVectorIO(map[string][]string{
		"agents inline::meta-reference":         {"inference", "vector_io", "tool_runtime", "tool_groups", "conversations", "prompts", "files", "connectors"},
		"batches inline::reference":             {"inference", "files", "models"},
		"eval inline::meta-reference":           {"datasetio", "datasets", "scoring", "inference", "agents"},
		"eval remote::nvidia":                   {"datasetio", "datasets", "scoring", "inference", "agents"},
		"file_processors inline::pypdf":         {"files"},
		"post_training inline::huggingface-gpu": {"datasetio", "datasets"},
		"post_training inline::torchtune-cpu":   {"datasetio", "datasets"},
		"post_training inline::torchtune-gpu":   {"datasetio", "datasets"},
		"safety inline::llama-guard":            {"inference"},
		"scoring inline::basic":                 {"datasetio", "datasets"},
		"scoring inline::llm-as-judge":          {"datasetio", "datasets", "inference"},
		"scoring inline::braintrust":            {"datasetio", "datasets"},
		"tool_runtime inline::rag-runtime":      {"vector_io", "inference", "files"},
	}),
})
