// SPDX-License-Identifier: Apache-2.0

package profile

// What each of the server's two names brings with it: llama-stack up to 0.7, OGX from 0.8
// (the rename). A version's profile starts from one of these and adds what changed in it.

// runOptions are the options of the command that runs a config, at every version.
func runOptions() []string { return []string{"--port", "--enable-ui", "--providers"} }

// llamaStack fills what llama-stack releases call things: the name, the official images,
// the entrypoint, the state directory, the port variable and the llama stack run command.
// Their stores on key-value backends are the metadata, prompts and connectors stores.
func llamaStack(p *Profile) *Profile {
	p.Product = "llama-stack"
	p.ImageRepositories = []string{"docker.io/llamastack/distribution-"}
	p.Entrypoint = "/usr/local/bin/llama-stack-entrypoint.sh"
	p.StateDir = "/.llama"
	p.PortEnv = "LLAMA_STACK_PORT"
	p.CLI = CLI{Commands: [][]string{{"llama", "stack", "run"}}, Options: runOptions()}
	p.KVStores = []string{"metadata", "prompts", "connectors"}
	return p
}

// ogx fills what OGX releases call things, and how they identify models: a registered
// model is provider_id/model_id, and a model registered as an unprefixed alias has the
// provider "all". The images and the command are each release's.
func ogx(p *Profile) *Profile {
	p.Product = "OGX"
	p.Entrypoint = "/usr/local/bin/ogx-entrypoint.sh"
	p.StateDir = "/.ogx"
	p.PortEnv = "OGX_PORT"
	p.ModelTypes = []string{"llm", "embedding", "rerank"}
	p.IdentifiesModelsByID = true
	p.AliasProviderID = "all"
	return p
}
