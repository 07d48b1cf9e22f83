// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/version"
	"github.com/llamastack/llsd/pkg/api"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
)

// renderCommand prints the manifests of every LlamaStackDistribution in paths, with the
// other documents passed through and objects llsd generated before left out. On any error
// it prints nothing to stdout: never a partial set of manifests.
func renderCommand(paths []string, stdin io.Reader, stdout, stderr io.Writer) int {
	r, code := renderPaths("render", paths, stdin, stderr)
	if code != 0 {
		return code
	}
	if r.failed > 0 {
		return 1
	}
	if r.checked == 0 {
		// not an error (the other documents pass through), but never silence
		fmt.Fprintln(stderr, "llsd render: no LlamaStackDistribution or OGXServer found in", strings.Join(paths, " "))
	}
	_, _ = io.WriteString(stdout, r.out)
	return 0
}

// rendered is what a render of some paths gave: the manifests, and how many
// LlamaStackDistributions were rendered and how many of them failed.
type rendered struct {
	out             string
	checked, failed int
	ogxServers      int // of checked
	unread          int // files that could not be read, of failed
}

// renderPaths renders the documents of the command's paths with the KRM function itself, in
// its standalone mode: the files become a ResourceList, as kustomize or kpt would pass it
// (a RenderOptions document is the function config), and the function's output is written
// as kustomize would write it (local configuration left out). `llsd render` prints the
// result and `llsd validate` only its verdict, so both refuse exactly what the function
// refuses.
//
// A RenderOptions document applies to the files of its directory and below, as a package's
// function config does under kpt: `llsd validate examples/` renders each example with its
// own options. Each package is one ResourceList; two RenderOptions in one directory are an
// error.
func renderPaths(command string, paths []string, stdin io.Reader, stderr io.Writer) (*rendered, int) {
	in, code := readInputs(command, paths, stdin, stderr)
	if code != 0 {
		return nil, code
	}
	return renderInputs(command, in, stderr)
}

// renderInputs renders documents already read (renderPaths).
func renderInputs(command string, in inputs, stderr io.Writer) (*rendered, int) {
	r := &rendered{failed: in.unread, unread: in.unread}
	// LLSD_CACHE and LLSD_SHARED_DIR are the Makefile's and the tests', read by no llsd command
	for _, w := range krm.MisspeltVariables(os.Environ(), envMaxInputBytes, oci.CacheDirEnv, "LLSD_CACHE", "LLSD_SHARED_DIR") {
		fmt.Fprintf(stderr, "llsd %s: warning: %s\n", command, w)
	}
	for _, item := range in.items {
		if api.IsRenderable(item.GetKind()) && !krm.IsGenerated(item) {
			r.checked++
			if item.GetKind() == ogx.Kind {
				r.ogxServers++
			}
		}
	}
	rl := &fn.ResourceList{Items: in.items, FunctionConfig: fn.NewEmptyKubeObject()}
	p := krm.Processor{Version: version.Get(), Standalone: true, LookupEnv: os.LookupEnv, FileOf: in.fileOf,
		NamespaceOf: in.namespaceOf(os.Getenv(argoCDAppNamespace))}
	if _, err := p.Process(rl); err != nil {
		fmt.Fprintf(stderr, "llsd %s: %v\n", command, err)
		return nil, 1
	}
	if optionErrors := slices.DeleteFunc(slices.Clone(rl.Results), func(res *fn.Result) bool {
		return res.Severity != fn.Error || res.ResourceRef != nil || res.File != nil
	}); len(optionErrors) > 0 {
		report(optionErrors, "llsd "+command+": ", stderr) // the options are wrong, not an object
		return nil, 1
	}
	r.failed += report(rl.Results, "", stderr)
	text, err := writeItems(rl.Items)
	if err != nil {
		fmt.Fprintf(stderr, "llsd %s: %v\n", command, err)
		return nil, 1
	}
	r.out = text
	return r, 0
}

// argoCDAppNamespace is the variable in which Argo CD gives a config-management plugin the
// destination namespace of the Application it renders.
const argoCDAppNamespace = "ARGOCD_APP_NAMESPACE"

// inputs are the documents of the command's paths, each with the file it came from, and how
// many files could not be read.
type inputs struct {
	items  fn.KubeObjects
	files  map[*fn.KubeObject]string
	unread int
	// namespaces are the namespaces kustomizations give the files of their directory and below.
	namespaces map[string]string
}

func (in inputs) fileOf(o *fn.KubeObject) string { return in.files[o] }

// readInputs reads the documents of the command's paths, and counts the files that could not
// be read, each reported on stderr; a code other than 0 ends the command. Kptfiles and
// Kustomizations are left out: kpt and kustomize never pass them to a function.
func readInputs(command string, paths []string, stdin io.Reader, stderr io.Writer) (inputs, int) {
	in := inputs{files: map[*fn.KubeObject]string{}, namespaces: map[string]string{}}
	files, ok := inputFiles(command, paths, stderr)
	if !ok {
		return in, 1 // a path that cannot be read: an error, as any other
	}
	documents := 0
	for _, file := range files {
		items, err := readItems(file, stdin, &documents)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", file.name, err)
			in.unread++
			continue
		}
		for _, item := range items {
			if isKustomization(file.name) {
				if ns, _, _ := item.NestedString("namespace"); ns != "" {
					in.namespaces[filepath.Dir(file.name)] = ns
				}
			}
			if item.GetKind() == "" || item.GetKind() == "Kptfile" || item.GetKind() == "Kustomization" {
				continue
			}
			in.items = append(in.items, item)
			in.files[item] = file.name
		}
	}
	return in, 0
}

// isKustomization reports whether a file is a kustomization, which may name no kind.
func isKustomization(file string) bool {
	return slices.Contains([]string{"kustomization.yaml", "kustomization.yml", "Kustomization"}, filepath.Base(file))
}

// namespaceOf is the namespace an object that names none is applied to: that of the nearest
// kustomization at or above its file, as kustomize build sets it before llsd renders (so that
// llsd validate of a kustomize directory judges what kustomize renders), else the default (an
// Argo CD Application's destination); "" for none.
func (in inputs) namespaceOf(fallback string) func(*fn.KubeObject) string {
	return func(o *fn.KubeObject) string {
		for dir := filepath.Dir(in.files[o]); ; dir = filepath.Dir(dir) {
			if ns, ok := in.namespaces[dir]; ok {
				return ns
			}
			if parent := filepath.Dir(dir); parent == dir {
				return fallback
			}
		}
	}
}

// readItems reads the documents of a file (- is standard input) as KRM items that carry
// their file in the path annotation, as kpt's would.
func readItems(in inputFile, stdin io.Reader, documents *int) (fn.KubeObjects, error) {
	var data []byte
	var err error
	file := in.name
	switch {
	case file == "-":
		file = "<stdin>"
		data, err = readLimited(stdin)
	case in.dir != nil:
		var f *os.File
		if f, err = in.open(); err == nil && f == nil {
			return nil, nil // no regular file: skipped
		} else if err == nil {
			data, err = readLimited(f)
			_ = f.Close()
		}
	default:
		var f *os.File
		if f, err = os.Open(file); err == nil {
			data, err = readLimited(f)
			_ = f.Close()
		}
	}
	if err == nil { // aliases expanded as kustomize expands them: the SDK panics on some
		data, err = krm.ExpandAliases(data)
	}
	if err == nil {
		*documents, err = krm.CheckInput(data, *documents)
	}
	if err != nil {
		return nil, err
	}
	items, err := fn.ReadKubeObjectsFromFile(file, string(data))
	if err != nil {
		if streamErr := streamSyntaxError(data); streamErr != nil {
			return nil, fmt.Errorf("not YAML: %w", streamErr)
		}
		return nil, fmt.Errorf("not YAML: %w", err)
	}
	return items, nil
}

// streamSyntaxError is the syntax error of a YAML stream with the line in the file: the
// reader of KRM objects parses each document on its own and counts its lines from the
// document's start (line 6 of the second document for line 10 of the file).
func streamSyntaxError(data []byte) error {
	dec := yamlv3.NewDecoder(bytes.NewReader(data))
	for {
		var doc yamlv3.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			if m := keyNotFound().FindStringSubmatch(err.Error()); m != nil {
				start, _ := strconv.Atoi(m[1])
				if line, indent := misindented(data, start); line > 0 {
					return fmt.Errorf("line %d is indented by %d spaces, as no key above it is: indent it as the key it belongs with", line, indent)
				}
			}
			return err
		}
	}
}

// keyNotFound is the YAML parser's error for a mapping broken by a line out of its indentation;
// it names the line where the mapping began, not the line that broke it.
var keyNotFound = lazyre.New(`^yaml: line (\d+): did not find expected key$`)

// misindented finds the first line from line start (1-based) on whose indentation is that of
// no open mapping or list above it, and that indentation; 0 when there is none. Block scalars
// (|, >) and comments are skipped.
func misindented(data []byte, start int) (line, indent int) {
	var open []int // the indentations of the open collections
	scalar := -1   // the indentation of the key whose block scalar is being read, -1 for none
	opens := false // whether the line before opens a collection (key: with no value, or - )
	for i, text := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(text, " ")
		n := len(text) - len(trimmed)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			continue
		case scalar >= 0 && n > scalar:
			continue
		case strings.HasPrefix(trimmed, "---"):
			open, scalar, opens = nil, -1, false
			continue
		}
		scalar = -1
		for len(open) > 0 && open[len(open)-1] > n {
			open = open[:len(open)-1]
		}
		deeper := len(open) > 0 && open[len(open)-1] < n
		if deeper && !opens && i+1 >= start {
			return i + 1, n
		}
		if len(open) == 0 || deeper {
			open = append(open, n)
		}
		if strings.HasPrefix(trimmed, "- ") {
			open = append(open, n+2)
		}
		end := strings.TrimRight(trimmed, " ")
		opens = strings.HasSuffix(end, ":") || end == "-"
		if blockScalar().MatchString(end) {
			scalar = n
		}
	}
	return 0, 0
}

// blockScalar is a key whose value is a block scalar (|, >, with indicators).
var blockScalar = lazyre.New(`:\s+[|>][-+0-9]*\s*$`)

// envMaxInputBytes bounds what llsd reads from one file or standard input (64 MiB by
// default): a device such as /dev/zero, or a huge file, fails instead of taking all memory.
const envMaxInputBytes = "LLSD_MAX_INPUT_BYTES"

// readLimited reads r up to the input limit.
func readLimited(r io.Reader) ([]byte, error) {
	limit := int64(64 << 20)
	if v := os.Getenv(envMaxInputBytes); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%s: %q is not a positive number of bytes", envMaxInputBytes, v)
		}
		limit = n
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = fmt.Errorf("more than %d bytes of input: a manifest is not that large (set %s to allow more)", limit, envMaxInputBytes)
	}
	return data, err
}

// report prints the function's results, errors and warnings, as
// "file: Kind name: field: message", and returns how many objects failed.
func report(results fn.Results, prefix string, stderr io.Writer) int {
	failed := map[string]bool{}
	for _, r := range results {
		var where []string
		if r.File != nil && r.File.Path != "" {
			where = append(where, r.File.Path)
		}
		if ref := r.ResourceRef; ref != nil {
			where = append(where, ref.Kind+" "+ref.Name)
		}
		message := r.Message
		if r.Field != nil && r.Field.Path != "" {
			message = r.Field.Path + ": " + message
		}
		if r.Severity == fn.Warning {
			message = "warning: " + message
		}
		fmt.Fprintln(stderr, prefix+strings.Join(append(where, message), ": "))
		if r.Severity == fn.Error {
			failed[fmt.Sprint(r.ResourceRef, r.File)] = true
		}
	}
	return len(failed)
}

// writeItems writes the output items as a YAML stream, without local configuration (which
// kustomize and kpt do not apply either) and without the annotations of the input files.
func writeItems(items fn.KubeObjects) (string, error) {
	var sb strings.Builder
	var nodes []*yaml.RNode
	for _, item := range items {
		if !item.IsLocalConfig() {
			nodes = append(nodes, item.MoveToResourceNode())
		}
	}
	err := krm.WriteDocuments(&sb, nodes, []string{
		kioutil.PathAnnotation, kioutil.LegacyPathAnnotation, kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation, //nolint:staticcheck // both spellings
		kioutil.IdAnnotation, kioutil.LegacyIdAnnotation, //nolint:staticcheck // both spellings
	})
	return sb.String(), err
}
