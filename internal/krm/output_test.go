// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// WriteResourceList writes what fn.ResourceList.ToYAML writes, for the golden ResourceLists
// processed and for large lists with results, a function config, comments, duplicate
// identifiers and items without a namespace.
func TestWriteResourceListIsToYAML(t *testing.T) {
	inputs := map[string][]byte{}
	dirs, err := filepath.Glob(filepath.Join("testdata", "*"))
	require.NoError(t, err)
	for _, dir := range dirs {
		inputs[dir] = resourceList(t, dir)
	}
	var large strings.Builder
	large.WriteString(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
`)
	for i := range 40 * runtime.GOMAXPROCS(0) {
		fmt.Fprintf(&large, `- apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata: {name: s-%d, namespace: ai}
`+
			"  spec: {distribution: {name: starter}}\n", i%97)
		fmt.Fprintf(&large, `# a comment
- apiVersion: v1
  kind: ConfigMap
  metadata: {name: same}
  data: {i: %q}
`, fmt.Sprint(i))
	}
	large.WriteString(`functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: cfg}
`)
	inputs["large"] = []byte(large.String())
	require.NotEmpty(t, dirs)
	defer func(n int) { parallelWriteMin = n }(parallelWriteMin)
	parallelWriteMin = 0 // the golden lists are small: write them in parallel too
	for name, input := range inputs {
		want := process(t, input, nil, func(rl *fn.ResourceList, _ *Entries) ([]byte, error) { return rl.ToYAML() })
		got := process(t, input, nil, write)
		assert.Equal(t, string(want), string(got), name)
		ahead := process(t, input, &Entries{}, write)
		assert.Equal(t, string(want), string(ahead), "%s, with the entries written ahead", name)
	}
}

func write(rl *fn.ResourceList, entries *Entries) ([]byte, error) {
	var buf bytes.Buffer
	err := WriteResourceList(&buf, rl, entries)
	return buf.Bytes(), err
}

func process(t *testing.T, input []byte, entries *Entries, write func(*fn.ResourceList, *Entries) ([]byte, error)) []byte {
	rl, err := fn.ParseResourceList(input)
	require.NoError(t, err)
	_, err = Processor{Version: "test", Entries: entries}.Process(rl)
	require.NoError(t, err)
	out, err := write(rl, entries)
	require.NoError(t, err)
	return out
}

// resourceList is the ResourceList of a golden directory: its files as items (with their
// path annotations, as kpt passes them) and _fnconfig.yaml as the function config.
func resourceList(t *testing.T, dir string) []byte {
	rl := &fn.ResourceList{}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	require.NoError(t, err)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		switch base := filepath.Base(f); {
		case base == "_fnconfig.yaml":
			rl.FunctionConfig, err = fn.ParseKubeObject(data)
			require.NoError(t, err)
		case !strings.HasPrefix(base, "_"):
			items, err := fn.ReadKubeObjectsFromFile(base, string(data))
			require.NoError(t, err)
			rl.Items = append(rl.Items, items...)
		}
	}
	out, err := rl.ToYAML()
	require.NoError(t, err)
	return out
}

// WriteDocuments writes what one kio.ByteWriter writes: for every golden case processed (llsd's
// own nodes and the users' objects with their comments), and for a lone node from a .json file.
func TestWriteDocumentsIsByteWriter(t *testing.T) {
	clear := []string{"config.kubernetes.io/path", "internal.config.kubernetes.io/path"}
	dirs, err := filepath.Glob(filepath.Join("testdata", "*"))
	require.NoError(t, err)
	inputs := map[string][]byte{}
	for _, dir := range dirs {
		inputs[dir] = resourceList(t, dir)
	}
	inputs["json"] = []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
` +
		"  metadata: {name: c, annotations: {config.kubernetes.io/path: c.json, internal.config.kubernetes.io/path: c.json}}\n")
	for name, input := range inputs {
		nodes := func() []*yaml.RNode {
			rl, err := fn.ParseResourceList(input)
			require.NoError(t, err)
			_, err = Processor{Version: "test", Standalone: true}.Process(rl)
			require.NoError(t, err)
			var out []*yaml.RNode
			for _, item := range rl.Items {
				out = append(out, item.MoveToResourceNode())
			}
			return out
		}
		var want, got bytes.Buffer
		require.NoError(t, kio.ByteWriter{Writer: &want, ClearAnnotations: clear}.Write(nodes()))
		require.NoError(t, WriteDocuments(&got, nodes(), clear))
		assert.Equal(t, want.String(), got.String(), name)
	}
}

// failingWriter refuses every write, as a closed pipe does.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

func TestWriteResourceListReportsAWriteError(t *testing.T) {
	rl, err := fn.ParseResourceList([]byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n" +
		"- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}, data: {k: v}}\n"))
	require.NoError(t, err)
	assert.EqualError(t, WriteResourceList(failingWriter{}, rl, nil), "broken pipe")
}

// The results are written as ToYAML writes them, whatever their text: quotes, line breaks,
// YAML's words (yes, null, 1e3), unicode, empty fields and references.
func FuzzResultsText(f *testing.F) {
	f.Add("a: b 'c' \"d\"\nline2", "warning", "llamastack.io/v1alpha2", "LlamaStackDistribution", "s", "ai", "spec.x", "a.yaml", 0)
	f.Add("yes", "error", "", "", "n", "", "", "", 3)
	f.Add("  leading space\ttab ", "info", "v1", "ConfigMap", "1e3", "null", "spec.providers.inference[0]", "dir/b.yaml", 1)
	f.Add("é ☃ \u2028", "", "", "", "", "", "", "", 0)
	f.Add("0", "0", "", "", "0", "\xf9", "", "", 0)         // a byte that is no UTF-8
	f.Add("1:20", "on", "", "", "-1_0:59.5", "", "", "", 0) // what yaml.v3 quotes as a Go string only
	f.Fuzz(func(t *testing.T, message, severity, apiVersion, kind, name, namespace, path, file string, index int) {
		r := &fn.Result{Message: message, Severity: fn.Severity(severity)}
		if apiVersion+kind+name+namespace != "" || index%2 == 1 {
			r.ResourceRef = &fn.ResourceRef{APIVersion: apiVersion, Kind: kind, Name: name, Namespace: namespace}
		}
		if path != "" || index%3 == 1 {
			r.Field = &fn.Field{Path: path}
		}
		if file != "" || index%5 == 1 {
			r.File = &fn.File{Path: file, Index: index}
		}
		results := fn.Results{r, {Message: message}}
		want, err := (&fn.ResourceList{Results: results}).ToYAML()
		if err != nil {
			return
		}
		got, ok := resultsText(results)
		require.True(t, ok)
		assert.Equal(t, string(want), resourceListHeader+string(got))
	})
}
