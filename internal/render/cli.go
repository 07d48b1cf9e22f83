// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/profile"
)

// A container command or arguments written for another server release crash-loop the pod: the
// server's command line refuses what it does not know, and a module an older release started
// from is gone. checkCommandLine reads them as the image's server would, where llsd knows the
// release's command line:
//
//	args: [--yaml-config, /config/run.yaml]       # OGX 1.3: no such option (the config comes first)
//	command: [/bin/sh, -c, llama stack run ...]   # OGX 1.3 has no llama command: ogx stack run
//	command: [python, -m, llama_stack.distribution.server.server, --config, ...]
//	                                              # the module left in llama-stack 0.2.18

// checkCommandLine refuses a command or arguments of the spec's that the server's command line
// would refuse.
func checkCommandLine(in Input) field.ErrorList {
	o := overrides(in.Object)
	if o == nil || in.Distribution.VersionSource == "" || (len(o.Command) == 0 && len(o.Args) == 0) {
		return nil // a version llsd cannot tell (a custom image): nothing to hold them to
	}
	cli := in.Distribution.Profile.CLI
	server := in.Distribution.Profile.String()
	if in.Distribution.Server != "" {
		server = in.Distribution.Server
	}
	if len(o.Command) > 0 {
		words, at := commandWords(o.Command, o.Args)
		return checkInvocation(words, at, cli, server)
	}
	if !slices.Equal(in.Distribution.Layout.Start, in.Distribution.Profile.Layout().Start) {
		return nil // an entrypoint of the platform's, which llsd does not know to pass arguments on
	}
	// the official entrypoint runs <cli> stack run <config> "$@"
	var errs field.ErrorList
	for i, arg := range o.Args {
		if e := checkOption(arg, cli, server); e != "" {
			errs = append(errs, field.Invalid(overridesPath.Child("args").Index(i), arg, e+
				": the image's entrypoint passes llsd's config first and these arguments after it; remove them, and give a config of your own "+
				"with ⟦spec.overrideConfig⟧ (v1alpha1 spec.server.userConfig)"))
		}
	}
	return errs
}

// commandWords are the words of a command line, a shell script's words for sh -c, each with
// the path of the field it is in.
func commandWords(command, args []string) ([]string, []*field.Path) {
	var words []string
	var at []*field.Path
	add := func(list string, items []string) {
		for i, item := range items {
			p := overridesPath.Child(list).Index(i)
			if list == "command" && i == 2 && isShell(command) {
				for _, w := range strings.Fields(item) {
					words, at = append(words, w), append(at, p)
				}
				continue
			}
			words, at = append(words, item), append(at, p)
		}
	}
	add("command", command)
	add("args", args)
	return words, at
}

func isShell(command []string) bool {
	return len(command) >= 3 && (command[0] == "/bin/sh" || command[0] == "sh" || command[0] == "/bin/bash" || command[0] == "bash") && command[1] == "-c"
}

// checkInvocation finds the server's start in words (a python -m module, or a run command)
// and checks it against the release's command line.
func checkInvocation(words []string, at []*field.Path, cli profile.CLI, server string) field.ErrorList {
	for i := range words {
		if module, ok := pythonModule(words, i); ok {
			if last, retired := profile.RetiredModules[module]; retired {
				return field.ErrorList{field.Invalid(at[i], strings.Join(words, " "), fmt.Sprintf(
					"python -m %s starts no server after llama-stack %s, and the image runs %s: %s", module, last, server, startAdvice(cli)))}
			}
			return nil
		}
		if words[i] != "llama" && words[i] != "ogx" && !strings.HasSuffix(words[i], "/llama") && !strings.HasSuffix(words[i], "/ogx") {
			continue
		}
		binary := words[i][strings.LastIndex(words[i], "/")+1:]
		if !slices.ContainsFunc(cli.Commands, func(c []string) bool { return c[0] == binary }) {
			return field.ErrorList{field.Invalid(at[i], strings.Join(words, " "), fmt.Sprintf(
				"the image runs %s, whose command is %s, not %s: %s", server, cli.Commands[0][0], binary, startAdvice(cli)))}
		}
		var errs field.ErrorList
		for j := i + 1; j < len(words); j++ {
			if e := checkOption(words[j], cli, server); e != "" {
				errs = append(errs, field.Invalid(at[j], words[j], e))
			}
		}
		return errs
	}
	return nil
}

// pythonModule reads python -m <module> at words[i].
func pythonModule(words []string, i int) (string, bool) {
	w := words[i][strings.LastIndex(words[i], "/")+1:]
	if !strings.HasPrefix(w, "python") || i+2 >= len(words) || words[i+1] != "-m" {
		return "", false
	}
	return words[i+2], true
}

// checkOption says what is wrong with an option of the run command, or "".
func checkOption(word string, cli profile.CLI, server string) string {
	if !strings.HasPrefix(word, "--") {
		return ""
	}
	name, _, _ := strings.Cut(word, "=")
	if slices.Contains(cli.Options, name) {
		return ""
	}
	msg := fmt.Sprintf("%s's command line has no option %s (it takes %s)", server, name, strings.Join(cli.Options, ", "))
	if why := profile.Retired(name); why != "" {
		msg += ": " + why
	}
	return msg
}

// startAdvice says how to start the release's server on a file, or to leave it to llsd.
func startAdvice(cli profile.CLI) string {
	return fmt.Sprintf("start it with %s <config file>, or remove the command and let llsd start it", strings.Join(cli.Commands[0], " "))
}
