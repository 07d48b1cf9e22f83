// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/review"
)

const diffUsage = `Usage: llsd diff [--format text|markdown|json] [--fail-on LEVEL] BEFORE AFTER
       llsd diff [--format ...] [--fail-on LEVEL] --since-receipt PACKAGE
       llsd diff [--format ...] [--fail-on LEVEL] --objects LIVE TARGET

Renders BEFORE and AFTER (files or directories of a package, as llsd render reads them, - for
standard input, or REV:PATH for PATH at a git revision of the working directory's repository:
origin/main:stacks) and says what the change does to each server: servers added, removed and
renamed, the pods restarting, the server version moving (with the upgrade guide's entries that
apply), authentication, exposure, network policy and providers' hosts, stores that start empty,
PVCs lost, models and providers removed or added. Each finding has a level (info, restart,
security, data-at-risk, breaking) and the field of the spec that caused it. It compares the
rendered objects and configs, not the YAML's text, and prints no Secret value.

  --format    text (the default), markdown (a table per server and a Mermaid diagram of it
              before and after, for a pull request's comment) or json (for bots)
  --fail-on   exit 3 when a finding is at this level or above (CI gating; 1 with --objects)
  --since-receipt
              compare a rendered package (kpt fn render writes the objects and each
              LlamaStackDistribution's render receipt into it) with what this llsd renders of it
              now: a new llsd, a new base config or a moved default reviewed like any change
  --objects   compare objects as they are, without rendering: LIVE as the API server returns
              them, TARGET as they will be applied (a file of objects, an empty one for none, or
              a directory of such files). The external diff of kubectl diff and argocd app diff:
                KUBECTL_EXTERNAL_DIFF="llsd diff --objects" kubectl diff -k overlays/prod
                KUBECTL_EXTERNAL_DIFF="llsd diff --objects" argocd app diff chat
              or every object of an Argo CD application, live and at a revision:
                llsd diff --objects <(argocd app manifests chat --source live) \
                  <(argocd app manifests chat --revision "$SHA")
              Exit codes follow kubectl's convention: 0 no finding (at --fail-on's level or
              above, when set), 1 findings, 2 an error.

Either render failing is an error (exit 1): a change that does not render is refused by llsd
render, kustomize and kpt alike.
`

// diffFlags are llsd diff's flags and its paths.
type diffFlags struct {
	format       string
	failOn       *review.Level
	sinceReceipt bool
	objects      bool
	paths        []string
}

// diffCommand is llsd diff.
func diffCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	flags, code := diffArgs(args, stdout, stderr)
	if flags.paths == nil {
		return code
	}
	var sides [2]map[string]*review.Stack
	if flags.objects {
		var err error
		if sides, err = readObjectSides(flags.paths); err != nil {
			fmt.Fprintln(stderr, "llsd diff:", err)
			return 2
		}
	} else if code := renderSides(&sides, flags, stdin, stderr); code != 0 {
		return code
	}
	findings := review.Compare(sides[0], sides[1])
	if err := writeFindings(stdout, flags.format, findings, sides); err != nil {
		fmt.Fprintln(stderr, "llsd diff:", err)
		return 1
	}
	top, found := review.Highest(findings)
	switch {
	case flags.objects && found && (flags.failOn == nil || top >= *flags.failOn):
		return 1 // kubectl's and Argo CD's "differences found"
	case !flags.objects && found && flags.failOn != nil && top >= *flags.failOn:
		return 3
	}
	return 0
}

// renderSides renders both sides of llsd diff into stacks, or returns the exit code.
func renderSides(sides *[2]map[string]*review.Stack, flags diffFlags, stdin io.Reader, stderr io.Writer) int {
	paths := flags.paths
	var read [2]*inputs // what a side was read as, when it was read before its render
	if flags.sinceReceipt {
		in, code := readInputs("diff", paths, stdin, stderr)
		if code != 0 || in.unread > 0 {
			return max(code, 1)
		}
		stacks, err := review.Stacks(in.items) // what was rendered, before the render replaces it
		if err != nil {
			fmt.Fprintf(stderr, "llsd diff: %s: %v\n", paths[0], err)
			return 1
		}
		if !review.HaveReceipts(stacks) {
			fmt.Fprintf(stderr, "llsd diff: %s holds no render receipt (the llamastack.io/config-hash of a rendered "+
				"LlamaStackDistribution): render it first (kpt fn render), or compare two packages: llsd diff BEFORE AFTER\n", paths[0])
			return 1
		}
		sides[0], read[1], paths = stacks, &in, []string{"", paths[0]} // the same documents, rendered now
	}
	for i, path := range paths {
		if sides[i] != nil {
			continue
		}
		var r *rendered
		var code int
		if read[i] != nil {
			r, code = renderInputs("diff", *read[i], stderr)
		} else {
			if dir, cleanup, ok, err := gitRevision(path); err != nil {
				fmt.Fprintln(stderr, "llsd diff:", err)
				return 1
			} else if ok {
				defer cleanup()
				path = dir
			}
			r, code = renderPaths("diff", []string{path}, stdin, stderr)
		}
		if code != 0 {
			return code
		}
		if r.failed > 0 {
			fmt.Fprintf(stderr, "llsd diff: %s does not render\n", path)
			return 1
		}
		items, err := fn.ParseKubeObjects([]byte(r.out))
		if err == nil {
			sides[i], err = review.Stacks(items)
		}
		if err != nil {
			fmt.Fprintf(stderr, "llsd diff: %s: %v\n", path, err)
			return 1
		}
	}
	return 0
}

// diffArgs reads llsd diff's flags and its paths, or returns nil paths and the exit code.
func diffArgs(args []string, stdout, stderr io.Writer) (diffFlags, int) {
	flags := diffFlags{format: "text"}
	usage := func(format string, a ...any) (diffFlags, int) {
		fmt.Fprintf(stderr, "llsd diff: "+format, a...)
		return diffFlags{}, 2
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(a, "=")
		switch {
		case a == "-h" || a == "--help" || a == "help":
			fmt.Fprint(stdout, diffUsage)
			return diffFlags{}, 0
		case a == "--since-receipt":
			flags.sinceReceipt = true
		case a == "--objects":
			flags.objects = true
		case name == "--format" || name == "--fail-on":
			if !inline {
				if i+1 == len(args) {
					return usage("%s needs a value\n\n%s", name, diffUsage)
				}
				i++
				value = args[i]
			}
			if name == "--format" {
				if !slices.Contains([]string{"text", "markdown", "json"}, value) {
					return usage("--format %s: use text, markdown or json\n", value)
				}
				flags.format = value
				continue
			}
			level, err := review.ParseLevel(value)
			if err != nil {
				return usage("--fail-on: %v\n", err)
			}
			flags.failOn = &level
		case strings.HasPrefix(a, "-") && a != "-":
			return usage("unknown flag %s\n\n%s", a, diffUsage)
		default:
			flags.paths = append(flags.paths, a)
		}
	}
	switch {
	case flags.sinceReceipt && flags.objects:
		return usage("--since-receipt renders a package, --objects compares objects without rendering: choose one\n\n%s", diffUsage)
	case flags.sinceReceipt && len(flags.paths) != 1:
		return usage("--since-receipt compares one rendered package with its render now: name it\n\n%s", diffUsage)
	case flags.objects && len(flags.paths) != 2:
		return usage("--objects compares the live objects with the target's: name both\n\n%s", diffUsage)
	case !flags.sinceReceipt && !flags.objects && len(flags.paths) != 2:
		return usage("name the package before and after the change\n\n%s", diffUsage)
	}
	return flags, 0
}

// writeFindings prints the review in format.
func writeFindings(w io.Writer, format string, findings []review.Finding, sides [2]map[string]*review.Stack) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Findings []review.Finding `json:"findings"`
		}{Findings: append([]review.Finding{}, findings...)})
	case "markdown":
		_, err := io.WriteString(w, review.Markdown(findings, sides[0], sides[1]))
		return err
	}
	if len(findings) == 0 {
		_, err := fmt.Fprintln(w, "no change to any server")
		return err
	}
	for _, f := range findings {
		if _, err := fmt.Fprintln(w, f); err != nil {
			return err
		}
	}
	return nil
}
