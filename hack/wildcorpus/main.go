// SPDX-License-Identifier: Apache-2.0

// wildcorpus checks, or writes, the public LlamaStackDistribution files of
// internal/pipeline/testdata/wild against their sources: for each input of corpus.yaml, the file
// at the recorded commit of its repository (a Markdown page: the code block's lines, less the
// indentation of its opening fence). Run from the repository root with a clone of each source
// repository, named by the source's key in corpus.yaml:
//
//	go run ./hack/wildcorpus -clone operator=../llama-stack-k8s-operator -clone ... [-write]
//
// Sources without a clone are skipped, and said so. To add an input, append its entry (file,
// source, path, lines, reason) to corpus.yaml and run with -write; then record what llsd does
// with it (errors, warnings, fix) and run the tests.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

var corpusDir = filepath.Join("internal", "pipeline", "testdata", "wild")

type corpus struct {
	Sources map[string]struct {
		Commit string `json:"commit"`
	} `json:"sources"`
	Inputs []struct {
		File   string `json:"file"`
		Source string `json:"source"`
		Path   string `json:"path"`
		Lines  string `json:"lines"`
	} `json:"inputs"`
}

type clones map[string]string

func (c clones) String() string { return fmt.Sprint(map[string]string(c)) }

func (c clones) Set(v string) error {
	name, dir, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want source=directory, not %q", v)
	}
	c[name] = dir
	return nil
}

func main() {
	dirs := clones{}
	flag.Var(dirs, "clone", "source=directory of a clone of its repository (repeatable)")
	write := flag.Bool("write", false, "write the files instead of comparing them")
	flag.Parse()
	if err := run(dirs, *write); err != nil {
		fmt.Fprintln(os.Stderr, "wildcorpus:", err)
		os.Exit(1)
	}
}

func run(dirs clones, write bool) error {
	raw, err := os.ReadFile(filepath.Join(corpusDir, "corpus.yaml"))
	if err != nil {
		return err
	}
	var c corpus
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return err
	}
	differ := 0
	for _, in := range c.Inputs {
		dir, ok := dirs[in.Source]
		if !ok {
			fmt.Printf("skip %s: no -clone %s=...\n", in.File, in.Source)
			continue
		}
		want, err := extract(dir, c.Sources[in.Source].Commit, in.Path, in.Lines)
		if err != nil {
			return fmt.Errorf("%s: %w", in.File, err)
		}
		file := filepath.Join(corpusDir, in.File)
		if write {
			if err := os.WriteFile(file, want, 0o644); err != nil {
				return err
			}
			continue
		}
		if got, err := os.ReadFile(file); err != nil || string(got) != string(want) {
			fmt.Printf("differs from its source: %s\n", in.File)
			differ++
		}
	}
	if differ > 0 {
		return fmt.Errorf("%d files differ from their sources", differ)
	}
	return nil
}

// extract is a file at a commit, or the lines first-last of it less the indentation of the
// line before them (a code block's opening fence).
func extract(dir, commit, path, lines string) ([]byte, error) {
	out, err := exec.Command("git", "-C", dir, "show", commit+":"+path).Output()
	if err != nil {
		return nil, fmt.Errorf("git show %s:%s in %s: %w", commit, path, dir, err)
	}
	if lines == "" {
		return out, nil
	}
	first, last, err := lineRange(lines)
	if err != nil {
		return nil, err
	}
	all := strings.Split(string(out), "\n")
	if first < 2 || last > len(all) {
		return nil, fmt.Errorf("lines %s are not inside %s", lines, path)
	}
	fence := all[first-2]
	indent := len(fence) - len(strings.TrimLeft(fence, " "))
	var b strings.Builder
	for _, l := range all[first-1 : last] {
		b.WriteString(l[min(indent, len(l)-len(strings.TrimLeft(l, " "))):])
		b.WriteString("\n")
	}
	return []byte(b.String()), nil
}

func lineRange(lines string) (int, int, error) {
	a, b, _ := strings.Cut(lines, "-")
	first, err1 := strconv.Atoi(a)
	last, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || first > last {
		return 0, 0, fmt.Errorf("lines %q: want first-last", lines)
	}
	return first, last, nil
}
