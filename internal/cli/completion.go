// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"fmt"
	"io"
	"strings"
)

// commands are llsd's commands, as the shells complete them.
var commands = []string{"validate", "render", "diff", "migrate", "label-image", "completion", "version", "help"}

const completionUsage = `Usage: llsd completion bash|zsh|fish

Prints a script that completes llsd's commands, and file names after validate, render and
migrate. Load it in the running shell, or from its start-up file:

  source <(llsd completion bash)                       # bash, in ~/.bashrc
  source <(llsd completion zsh)                        # zsh, in ~/.zshrc
  llsd completion fish > ~/.config/fish/completions/llsd.fish
`

// completion prints the completion script of a shell.
func completion(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, completionUsage)
		return 2
	}
	words := strings.Join(commands, " ")
	switch args[0] {
	case "bash":
		fmt.Fprintf(stdout, `_llsd() {
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W %q -- "${COMP_WORDS[1]}"))
  elif [ "${COMP_WORDS[1]}" = completion ]; then
    COMPREPLY=($(compgen -W "bash zsh fish" -- "${COMP_WORDS[COMP_CWORD]}"))
  else
    # one name a line, so that a name with spaces stays one reply
    local IFS=$'\n'
    COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
  fi
}
complete -o filenames -F _llsd llsd
`, words)
	case "zsh":
		fmt.Fprintf(stdout, `#compdef llsd
_llsd() {
  if (( CURRENT == 2 )); then
    compadd -- %s
  elif [[ ${words[2]} == completion ]]; then
    compadd -- bash zsh fish
  else
    _files
  fi
}
compdef _llsd llsd
`, words)
	case "fish":
		fmt.Fprintf(stdout, "complete -c llsd -n __fish_use_subcommand -f -a %q\n", words)
		fmt.Fprintln(stdout, `complete -c llsd -n "__fish_seen_subcommand_from completion" -f -a "bash zsh fish"`)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, completionUsage)
	default:
		fmt.Fprintf(stderr, "llsd completion: %q is no shell llsd completes: use bash, zsh or fish\n", args[0])
		return 2
	}
	return 0
}
