// SPDX-License-Identifier: Apache-2.0

package profile

import "slices"

// Layout is how an image lays out and starts the server: where llsd mounts the server's state
// and cache, and what the container runs. The official images of a version share one
// (Profile.Layout); a platform's build of the same server (OpenShift AI's rh-dev images) has
// its own.
type Layout struct {
	// Home is the image user's home directory, what ~ in a config means: "/" in the official
	// images, whose user has no passwd entry.
	Home string
	// StateDir is where llsd mounts the state volume: the directory the image's configs keep
	// their files in.
	StateDir string
	// CacheDir is where llsd mounts an empty, writable cache (~/.cache: model downloads).
	CacheDir string
	// SeedsCache: the image ships files in CacheDir that the server needs where it cannot
	// download them (the tiktoken encodings the vector stores load at start, pre-cached for
	// air-gapped clusters), which the cache volume would hide: an init container copies them
	// into the volume first.
	SeedsCache bool
	// Start starts the server: the image's entrypoint, which finds the config in
	// $RUN_CONFIG_PATH (RunConfigPath), or a command in which ConfigPlaceholder stands for the
	// config file's path.
	Start []string
	// RunConfigPath says Start reads the config's path from $RUN_CONFIG_PATH.
	RunConfigPath bool
	// ImageConfig is the config the image runs when it is told of none, for messages.
	ImageConfig string
	// SetsHome: llsd writes HOME into the container (an image whose user has a home of its
	// own), so that what reads the pod sees the ~ the server expands.
	SetsHome bool
}

// ConfigPlaceholder stands, in Layout.Start, for the path of the config file the server runs.
const ConfigPlaceholder = "{config}"

// Layout is the layout of the version's official images: home /, the state in StateDir, the
// entrypoint reading $RUN_CONFIG_PATH; from 0.7 the images pre-cache tiktoken's encodings in
// /.cache/tiktoken (TIKTOKEN_CACHE_DIR, containers/Containerfile:141-144@v0.7.1 and
// :78-81,180-183@v1.3.0).
func (p *Profile) Layout() Layout {
	return Layout{Home: "/", StateDir: p.StateDir, CacheDir: "/.cache", Start: []string{p.Entrypoint}, RunConfigPath: true,
		SeedsCache: p.Version.Compare("0.7") >= 0}
}

// StartCommand is the command that starts the server on the config file at config.
func (l Layout) StartCommand(config string) []string {
	out := slices.Clone(l.Start)
	for i, arg := range out {
		if arg == ConfigPlaceholder {
			out[i] = config
		}
	}
	return out
}

// CLI is the server's command line that runs a config: the commands that run one (llama stack
// run, ogx stack run, ogx run) and the options they take. The config is their one positional
// argument; the images' entrypoints pass it first and append the container's arguments.
type CLI struct {
	Commands [][]string
	Options  []string
}

// retiredOptions are options of the server's command lines that no supported version takes,
// with what replaced them: the server module of llama-stack up to 0.2.14 took the config as
// --yaml-config or --config and a distribution as --template (llama_stack/distribution/server/
// server.py@v0.2.14); its successor module (llama_stack/core/server/server.py@v0.2.18) took the
// config positionally and --env until 0.2.22; llama stack run took --image-name, --image-type
// and --env until 0.3 (llama_stack/cli/stack/run.py@v0.2.22, gone at v0.6.0).
var retiredOptions = map[string]string{
	"--yaml-config":  "the server takes the config file as its first argument (the option left with the server module in llama-stack 0.2.18)",
	"--config":       "the server takes the config file as its first argument (the option left with the server module in llama-stack 0.2.18)",
	"--template":     "the config names its distribution (the option left with the server module in llama-stack 0.2.18)",
	"--env":          "set the variable in the container's env (the option left the command line before llama-stack 0.6)",
	"--image-name":   "the option left the command line before llama-stack 0.6",
	"--image-type":   "the option left the command line before llama-stack 0.6",
	"--tls-keyfile":  "the config's server.tls_keyfile says it (llsd writes it for ⟦spec.networking.tls⟧)",
	"--tls-certfile": "the config's server.tls_certfile says it (llsd writes it for ⟦spec.networking.tls⟧)",
}

// Retired says what replaced a command-line option no supported server takes, or "".
func Retired(option string) string { return retiredOptions[option] }

// RetiredModules are the server modules that started a server from a config with python -m,
// and the last llama-stack release that had each.
var RetiredModules = map[string]string{
	"llama_stack.distribution.server.server": "0.2.14",
	"llama_stack.core.server.server":         "0.2.22",
}
