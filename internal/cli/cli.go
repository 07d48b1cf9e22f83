// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/version"
)

const usage = `llsd turns short LlamaStackDistribution resources into llama-stack servers on Kubernetes.

Usage:
  llsd                    run as a KRM function: a ResourceList on stdin, the rendered
                          ResourceList on stdout (kustomize --enable-alpha-plugins, kpt)
  llsd validate PATH...   check LlamaStackDistribution and OGXServer files (or directories of
                          them, or - for stdin): everything llsd render checks, without printing
                          manifests
  llsd render PATH...     print the manifests of the LlamaStackDistributions and OGXServers in PATH
                          (files, directories, or - for stdin): each one canonical, with its
                          config ConfigMap, Deployment, Service, ...; other documents pass through
  llsd diff BEFORE AFTER  what a change to a package does to each server: restarts, the server
                          version, who may call it, data at risk, models (see llsd diff --help)
  llsd migrate PATH...    write each LlamaStackDistribution as the successor operator's OGXServer
                          (ogx.io/v1beta1), and each OGXServer as a LlamaStackDistribution
  llsd label-image SRC DST
                          copy a distribution image with the labels llsd reads its
                          base config from (see llsd label-image --help)
  llsd completion SHELL   print a completion script for bash, zsh or fish
  llsd version            print the version (also --version)

Run llsd COMMAND --help for a command's details.
`

var renderUsage = `Usage: llsd render PATH...

Prints the manifests of the LlamaStackDistributions and OGXServers in PATH (YAML or JSON files,
directories of them, or - for standard input): each LlamaStackDistribution in its canonical v1alpha2 form with its
render receipt, followed by its ConfigMap, ServiceAccount, Deployment, Service, ... Other
documents pass through; objects llsd rendered before are replaced; local configuration
(RenderOptions, Kptfile, Kustomization, config.kubernetes.io/local-config) is left out.

A RenderOptions document (apiVersion fn.llamastack.io/v1alpha1) among the inputs sets the render
options of its directory and below. The platform's options (` + strings.Join(krm.PlatformOptions(), ", ") + `)
are pinned by a variable of the renderer's environment, even set to "", and every document below may only
tighten them; Argo CD's ARGOCD_ENV_ form of them is refused. The other variables, also in the ARGOCD_ENV_
form, are set on top of every package's options. An object that names no namespace takes the
namespace of the kustomization above its file, or Argo CD's destination (ARGOCD_APP_NAMESPACE).

` + krm.OptionsHelp() + `
Errors and warnings go to stderr as "file: LlamaStackDistribution name: field: message". On
any error nothing is printed on stdout and the exit code is 1.
`

const validateUsage = `Usage: llsd validate PATH...

Checks the LlamaStackDistributions and OGXServers in PATH (YAML or JSON files, directories of
them, or - for standard input) as llsd render would render them, with the same options, and prints one line
per problem and a summary. The exit code is 1 when one is invalid.
`

// EnvHelp set to "function" makes --help print the function's documentation, as the
// function image sets it: kpt fn doc runs a function's image with --help.
const EnvHelp = "LLSD_HELP"

// Main runs llsd with args and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	tuneGC()
	if len(args) == 0 {
		if isTerminal(stdin) { // someone typed llsd: a ResourceList will not come
			fmt.Fprint(stderr, usage)
			return 2
		}
		return krmFunction(stdin, stdout, stderr)
	}
	args = externalDiffArgs(args)
	switch args[0] {
	case "validate", "render", "migrate":
		paths, code := pathArgs(args, stdout, stderr)
		if paths == nil {
			return code
		}
		switch args[0] {
		case "validate":
			return validate(paths, stdin, stdout, stderr)
		case "migrate":
			return migrateCommand(paths, stdin, stdout, stderr)
		}
		return renderCommand(paths, stdin, stdout, stderr)
	case "diff":
		return diffCommand(args[1:], stdin, stdout, stderr)
	case "label-image":
		return labelImage(args[1:], stdout, stderr)
	case "completion":
		return completion(args[1:], stdout, stderr)
	case "controller":
		fmt.Fprintln(stderr, "llsd: the controller is its own binary, llsd-controller (image ghcr.io/llamastack/llsd-controller): "+
			"install it with examples/install")
		return 2
	case "version", "--version":
		if len(args) > 1 && (args[1] == "-h" || args[1] == "--help" || args[1] == "help") {
			fmt.Fprint(stdout, "Usage: llsd version\n\nPrints llsd's version.\n")
			return 0
		}
		fmt.Fprintln(stdout, "llsd", version.Get())
		return 0
	case "help", "--help", "-h":
		if os.Getenv(EnvHelp) == "function" && len(args) == 1 {
			fmt.Fprint(stdout, functionDoc) // the function image: kpt fn doc runs it with --help
			return 0
		}
		if len(args) > 1 && args[1] != "help" && slices.Contains(commands, args[1]) {
			return Main([]string{args[1], "--help"}, stdin, stdout, stderr) // llsd help render
		}
		fmt.Fprint(stdout, usage)
		return 0
	case "--doc":
		fmt.Fprint(stdout, functionDoc)
		return 0
	}
	fmt.Fprintf(stderr, "llsd: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// pathArgs returns the paths of render and validate, or nil and the exit code after --help
// or an unknown flag.
func pathArgs(args []string, stdout, stderr io.Writer) ([]string, int) {
	help := map[string]string{"render": renderUsage, "validate": validateUsage, "migrate": migrateUsage}[args[0]]
	for _, a := range args[1:] {
		switch {
		case a == "-h" || a == "--help" || a == "help":
			fmt.Fprint(stdout, help)
			return nil, 0
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "llsd %s: unknown flag %s\n\n%s", args[0], a, help)
			return nil, 2
		}
	}
	if len(args) == 1 {
		fmt.Fprintf(stderr, "llsd %s: name at least one file or directory (- for stdin)\n\n%s", args[0], help)
		return nil, 2
	}
	return args[1:], 0
}

// isTerminal reports whether r is an interactive terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// validate renders the LlamaStackDistributions of paths as `llsd render` would, with the same
// options, and prints only the verdict: it refuses exactly what render refuses.
func validate(paths []string, stdin io.Reader, stdout, stderr io.Writer) int {
	r, code := renderPaths("validate", paths, stdin, stderr)
	if code != 0 {
		return code
	}
	if r.checked == 0 && r.failed == 0 {
		fmt.Fprintln(stderr, "llsd validate: no LlamaStackDistribution or OGXServer found in", strings.Join(paths, " "))
		return 1
	}
	checked := fmt.Sprintf("%d LlamaStackDistribution(s)", r.checked-r.ogxServers)
	if r.ogxServers > 0 {
		checked = fmt.Sprintf("%d LlamaStackDistribution(s) and %d OGXServer(s)", r.checked-r.ogxServers, r.ogxServers)
	}
	if r.unread > 0 {
		fmt.Fprintf(stdout, "%s checked, %d invalid, %d file(s) not read\n", checked, r.failed-r.unread, r.unread)
	} else {
		fmt.Fprintf(stdout, "%s checked, %d invalid\n", checked, r.failed)
	}
	if r.failed > 0 {
		return 1
	}
	return 0
}

// inputFiles lists the YAML files of the command's paths, or reports why it cannot.
func inputFiles(command string, paths []string, stderr io.Writer) ([]inputFile, bool) {
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "llsd %s: name at least one file or directory\n", command)
		return nil, false
	}
	files, err := yamlFiles(paths)
	if err != nil {
		fmt.Fprintf(stderr, "llsd %s: %v\n", command, err)
		return nil, false
	}
	return files, true
}

// inputFile is a file to read: a path named on the command line (- is standard input), or a
// YAML file found in a named directory, opened through that directory.
type inputFile struct {
	name string
	dir  *os.Root // the directory it was found in, nil for a named path
	rel  string   // its path in dir
}

// yamlFiles lists the named files and the *.yaml, *.yml and *.json files under named
// directories (kpt's kio.MatchAll),
// leaving out what a .krmignore file ignores, as kpt does: the one at the top of a named
// directory and those of its kpt packages (directories with a Kptfile), each for its subtree.
func yamlFiles(paths []string) ([]inputFile, error) {
	var files []inputFile
	for _, p := range paths {
		if info, err := os.Stat(p); p == "-" || err == nil && !info.IsDir() {
			files = append(files, inputFile{name: p})
			continue
		}
		dir, err := os.OpenRoot(p)
		if err != nil {
			return nil, err
		}
		ignores := ignoreFiles{}
		err = fs.WalkDir(dir.FS(), ".", func(rel string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				ignores.enter(dir, rel)
			}
			if ignores.match(rel, d.IsDir()) {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.IsDir() && (strings.HasSuffix(rel, ".yaml") || strings.HasSuffix(rel, ".yml") || strings.HasSuffix(rel, ".json")) {
				files = append(files, inputFile{name: filepath.Join(p, rel), dir: dir, rel: rel})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}

// open opens a file of a directory through the directory, so that what is read is what the
// directory holds: a link may lead anywhere inside it (also by an absolute path), not out of
// it, and the check is the open itself (nothing can be swapped between a check and the open).
// A file that is not a regular one (a pipe, a device) is nil: it is skipped, as reading a pipe
// would wait forever. O_NONBLOCK keeps the open of a pipe from waiting for a writer.
func (f inputFile) open() (*os.File, error) {
	file, err := f.dir.OpenFile(f.rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		target, linkErr := os.Readlink(filepath.Join(f.dir.Name(), f.rel))
		inside, relErr := filepath.Rel(f.dir.Name(), target)
		if linkErr != nil || !filepath.IsAbs(target) || relErr != nil || !filepath.IsLocal(inside) {
			return nil, fmt.Errorf("%s cannot be read as a file of %s (a link to a file outside it?): name that file itself if it is to be read: %w", f.name, f.dir.Name(), err)
		}
		if file, err = f.dir.OpenFile(inside, os.O_RDONLY|syscall.O_NONBLOCK, 0); err != nil {
			return nil, err
		}
	}
	info, err := file.Stat()
	if err != nil || !info.Mode().IsRegular() {
		_ = file.Close()
		return nil, err
	}
	return file, nil
}
