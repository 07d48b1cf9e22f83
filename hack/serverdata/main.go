// SPDX-License-Identifier: Apache-2.0

// serverdata writes the server reference data that llsd's tests read, testdata/server/<release>/,
// from the server's source at each release's tag:
//
//   - schema.json: the run config's JSON Schema, exported from the server's own pydantic models
//     by export.py (StackConfig plus every provider's config class); the strict form the tests
//     validate with is derived from it (servercheck.Strict);
//   - provider-fields.txt: every provider's config keys, with type, default, required (*) and
//     secret (string(password)), from the same models;
//   - configs/<distribution>_<stem>.json: the distribution configs the release ships, as facts in
//     llsd's own form: each parsed as the server parses it (PyYAML, YAML 1.1) and written as
//     canonical JSON (sorted keys, no comments, numbers keeping their type; fastcodec.TreeJSON,
//     the form of distributions/*/*.json), so that the repository holds the server's settings,
//     not its files.
//
// It also writes testdata/server/PROVENANCE.md (repository, tag, commit of each release).
// Run from the repository root with a clone of the server repository (github.com/ogx-ai/ogx,
// formerly llamastack/llama-stack; any clone with the release tags) and python3 with pydantic 2:
//
//	go run ./hack/serverdata -repo ../ogx [-release v1.3.0]
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/fastcodec"
	"github.com/llamastack/llsd/internal/gitarchive"
)

// release is one server source tree the tests read data of.
type release struct {
	Label string // directory under testdata/server
	Ref   string // tag or commit
	// Package is the server's Python package (llama_stack, ogx); empty for a release whose
	// models the exporter cannot load (before 0.3), of which only configs are kept.
	Package string
	// Distributions is the directory of the distribution configs (default src/<Package>/distributions).
	Distributions string
	// Only keeps just these <distribution>/<file> configs (default: every config.yaml and run*.yaml).
	Only []string
	Why  string
}

// releases are the server sources of every profile (internal/profile) plus two older releases whose
// configs the version fingerprint is tested on.
var releases = []release{
	{Label: "v0.2.14", Ref: "v0.2.14", Distributions: "llama_stack/templates", Only: []string{"remote-vllm/run.yaml"},
		Why: "pre-0.3 flat config, for the version fingerprint"},
	{Label: "v0.4.5", Ref: "v0.4.5", Distributions: "src/llama_stack/distributions", Only: []string{"meta-reference-gpu/config.yaml"},
		Why: "last release shipping meta-reference-gpu, for the version fingerprint"},
	{Label: "v0.6.0", Ref: "v0.6.0", Package: "llama_stack", Why: "profile 0.6"},
	{Label: "v0.7.1", Ref: "v0.7.1", Package: "llama_stack", Why: "profile 0.7 (last llama-stack-branded release)"},
	{Label: "v0.8.0", Ref: "v0.8.0", Package: "ogx", Why: "profile 0.8: the configs the 0.8.0 image ships"},
	{Label: "main-d1b6632", Ref: "d1b6632946ca1bb953d47ea3317b8f3c30771d88", Package: "ogx",
		Why: "profile 0.8: schema and provider fields (main a week after 0.8.0; adds two file_processors providers)"},
	{Label: "v1.0.0", Ref: "v1.0.0", Package: "ogx", Why: "profile 1.0"},
	{Label: "v1.1.0", Ref: "v1.1.0", Package: "ogx", Why: "profile 1.1"},
	{Label: "v1.2.1", Ref: "v1.2.1", Package: "ogx", Why: "profile 1.2"},
	{Label: "v1.3.0", Ref: "v1.3.0", Package: "ogx", Why: "profile 1.3"},
}

const outDir = "testdata/server"

func main() {
	repo := flag.String("repo", "", "a clone of the server repository with the release tags (required)")
	origin := flag.String("origin", "github.com/ogx-ai/ogx", "the repository to name in PROVENANCE.md")
	only := flag.String("release", "", "regenerate only this release (a label of the table in main.go)")
	flag.Parse()
	if err := run(*repo, *origin, *only); err != nil {
		fmt.Fprintln(os.Stderr, "serverdata:", err)
		os.Exit(1)
	}
}

func run(repo, origin, only string) error {
	if repo == "" {
		return errors.New("-repo is required: a clone of github.com/ogx-ai/ogx with the release tags")
	}
	commits := map[string]string{}
	for _, r := range releases {
		commit, err := git(repo, "rev-parse", r.Ref+"^{commit}")
		if err != nil {
			return fmt.Errorf("%s: %w", r.Label, err)
		}
		commits[r.Label] = strings.TrimSpace(string(commit))
		if only != "" && r.Label != only {
			continue
		}
		fmt.Fprintf(os.Stderr, "serverdata: %s (%s)\n", r.Label, commits[r.Label])
		if err := write(repo, r); err != nil {
			return fmt.Errorf("%s: %w", r.Label, err)
		}
	}
	if only != "" && commits[only] == "" {
		return fmt.Errorf("no release %q in the table", only)
	}
	return os.WriteFile(filepath.Join(outDir, "PROVENANCE.md"), provenance(origin, commits), 0o644)
}

// write regenerates one release's directory from its source tree.
func write(repo string, r release) error {
	tree, err := os.MkdirTemp("", "serverdata-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tree)
	archive, err := git(repo, "archive", r.Ref, "--", r.distributions(), sourceDir(r))
	if err != nil {
		return err
	}
	if err := gitarchive.Untar(archive, tree); err != nil {
		return err
	}
	dir := filepath.Join(outDir, r.Label)
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := writeConfigs(filepath.Join(tree, r.distributions()), filepath.Join(dir, "configs"), r.Only); err != nil {
		return err
	}
	if r.Package == "" {
		return nil
	}
	cmd := exec.Command("python3", filepath.Join("hack", "serverdata", "export.py"), filepath.Join(tree, "src"), r.Package,
		filepath.Join(dir, "schema.json"), filepath.Join(dir, "provider-fields.txt"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("export.py: %w (needs python3 with pydantic 2)", err)
	}
	return nil
}

func (r release) distributions() string {
	if r.Distributions != "" {
		return r.Distributions
	}
	return "src/" + r.Package + "/distributions"
}

// sourceDir is the part of the tree the exporter imports.
func sourceDir(r release) string {
	if r.Package == "" {
		return r.distributions()
	}
	return "src"
}

// writeConfigs writes every run config of every distribution (config.yaml, run*.yaml) as
// <distribution>_<stem>.json in canonical form (canonicalConfig).
func writeConfigs(from, to string, only []string) error {
	dists, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, d := range dists {
		files, _ := os.ReadDir(filepath.Join(from, d.Name()))
		for _, f := range files {
			name := d.Name() + "/" + f.Name()
			if !isRunConfig(f.Name()) || (only != nil && !slices.Contains(only, name)) {
				continue
			}
			data, err := os.ReadFile(filepath.Join(from, name))
			if err != nil {
				return err
			}
			canonical, err := canonicalConfig(data)
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			stem := strings.TrimSuffix(f.Name(), ".yaml")
			if err := os.WriteFile(filepath.Join(to, d.Name()+"_"+stem+".json"), canonical, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// canonicalConfig is a config file's settings as the server reads them, in canonical JSON:
// what the server would do with the file, without its layout, comments or prose.
func canonicalConfig(data []byte) ([]byte, error) {
	tree, err := configyaml.UnmarshalMap(data)
	if err != nil {
		return nil, err
	}
	return fastcodec.TreeJSON(tree)
}

func isRunConfig(name string) bool {
	return name == "config.yaml" || (strings.HasPrefix(name, "run") && strings.HasSuffix(name, ".yaml"))
}

func git(repo string, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func provenance(origin string, commits map[string]string) []byte {
	var b strings.Builder
	b.WriteString("# Server reference data: where each directory comes from\n\n" +
		"Written by `go run ./hack/serverdata -repo <clone>` (see its doc comment); do not edit by hand.\n" +
		"`schema.json` and `provider-fields.txt` are exported from the server's pydantic models at the\n" +
		"commit below (hack/serverdata/export.py); `configs/` holds the settings of the distribution configs\n" +
		"of that commit, parsed as the server parses them and written as canonical JSON (sorted keys, no\n" +
		"comments), as `<distribution>_<stem>.json`.\n\n" +
		"| directory | repository | ref | commit | why |\n|---|---|---|---|---|\n")
	for _, r := range releases {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` | `%s` | %s |\n", r.Label, origin, shortRef(r.Ref), commits[r.Label], r.Why)
	}
	return []byte(b.String())
}

func shortRef(ref string) string {
	if len(ref) == 40 {
		return "main@" + ref[:7]
	}
	return ref
}
