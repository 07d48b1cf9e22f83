// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
)

// v1alpha1Samples are the documents of the v1alpha1 samples in testdata/v1alpha1 (this
// project's own inputs in the shapes v1alpha1 users write, every field of the API among them),
// keyed by file#index; refused ones are in testdata/v1alpha1/refused.
func v1alpha1Samples(t testing.TB, dir string) map[string][]byte {
	files, err := filepath.Glob(filepath.Join("testdata", "v1alpha1", dir, "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	samples := map[string][]byte{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for i, doc := range strings.Split(string(data), "\n---\n") {
			samples[fmt.Sprintf("%s#%d", filepath.Base(file), i)] = []byte(doc)
		}
	}
	return samples
}

// renderV1alpha1 renders a v1alpha1 document as llsd does and describes everything it produced:
// the generated objects, the warnings and the errors, with the field paths the user wrote.
func renderV1alpha1(t testing.TB, doc []byte, opts pipeline.Options) string {
	decoded, errs := api.DecodeObject(doc)
	var res *pipeline.Result
	if len(errs) == 0 {
		res, errs = pipeline.RenderDecoded(decoded, opts)
	}
	var out strings.Builder
	for _, e := range errs {
		fmt.Fprintf(&out, "error: %s: %s\n", v1alpha1.SpokePath(e.Field), e.ErrorBody())
	}
	if res == nil {
		return out.String()
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(&out, "warning: %s: %s\n", v1alpha1.SpokePath(w.Field), w.Message)
	}
	objects, err := render.YAML(res.Objects)
	require.NoError(t, err)
	out.Write(objects)
	return out.String()
}

// The v1alpha1 samples render: objects a real cluster accepts (the API-server and
// start-up suites render them too), with warnings only where llsd cannot do what was asked.
func TestV1alpha1SamplesRender(t *testing.T) {
	warnings := map[string][]string{
		"network.yaml#0": {
			`warning: spec.network.allowedFrom.namespaces[0]: no namespace can be called "WebFrontend"`,
			`warning: spec.network.allowedFrom.namespaces[1]: no namespace can be called "Batch_Jobs"`,
		},
	}
	for name, doc := range v1alpha1Samples(t, "") {
		t.Run(name, func(t *testing.T) {
			out := renderV1alpha1(t, doc, pipeline.Options{RendererVersion: "test"})
			assert.NotContains(t, out, "error: ")
			assert.Contains(t, out, "kind: Deployment")
			for _, w := range warnings[name] {
				assert.Contains(t, out, w)
			}
		})
	}
}

// exposeRoute: true is an Ingress on Kubernetes and a Route on OpenShift.
func TestV1alpha1ExposeRoutePerPlatform(t *testing.T) {
	doc := v1alpha1Samples(t, "")["network.yaml#1"]
	for platform, kind := range map[string]string{"": "Ingress", render.PlatformOpenShift: "Route"} {
		opts := pipeline.Options{RendererVersion: "test"}
		opts.Render.Platform = platform
		out := renderV1alpha1(t, doc, opts)
		assert.Contains(t, out, "\nkind: "+kind+"\n", "platform %q", platform)
	}
}

// What llsd cannot render is refused with the v1alpha1 field and the fix, all problems at once.
func TestV1alpha1SamplesRefused(t *testing.T) {
	tests := map[string]struct {
		reason string
		want   []string
	}{
		"external-configmaps.yaml#0": {
			reason: "a field of a downstream operator build",
			want:   []string{"error: spec.server.envFromExternalConfigMaps: ", "unknown field"},
		},
	}
	samples := v1alpha1Samples(t, "refused")
	require.Len(t, samples, len(tests), "every refused sample has its expected errors")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out := renderV1alpha1(t, samples[name], pipeline.Options{RendererVersion: "test"})
			assert.NotContains(t, out, "kind: Deployment", tc.reason)
			for _, want := range tc.want {
				assert.Contains(t, out, want, tc.reason)
			}
		})
	}
}

// No v1alpha1 field is silently dropped: every field of the v1alpha1 spec appears in a sample
// that renders, and changing its value there changes what llsd produces (objects, warnings or
// errors). A field llsd read and then ignored would leave the output as it was.
func TestNoV1alpha1FieldIsDropped(t *testing.T) {
	samples := v1alpha1Samples(t, "")
	leaves := specLeaves(reflect.TypeFor[v1alpha1.LlamaStackDistributionSpec](), "spec")
	covered := map[string]bool{}
	names := slices.Sorted(maps.Keys(samples))
	opts := pipeline.Options{RendererVersion: "test"}
	for _, name := range names {
		var doc map[string]any
		require.NoError(t, yaml.Unmarshal(samples[name], &doc))
		before := renderV1alpha1(t, samples[name], opts)
		for _, leaf := range leaves {
			if _, ok := lookup(doc, leaf); !ok {
				continue
			}
			covered[leaf] = true
			t.Run(name+"/"+leaf, func(t *testing.T) {
				changed := mutateAt(t, doc, leaf)
				after := renderV1alpha1(t, changed, opts)
				assert.NotEqual(t, before, after, "changing %s in %s changes nothing llsd renders", leaf, name)
			})
		}
	}
	for _, leaf := range leaves {
		assert.True(t, covered[leaf], "no v1alpha1 sample sets %s: add it to a sample in testdata/v1alpha1", leaf)
	}
}

// specLeaves are the JSON paths of the fields of a v1alpha1 type, down to Kubernetes' own types
// (a Volume, a ResourceRequirements), which count as one field each.
func specLeaves(t reflect.Type, path string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t.PkgPath() != reflect.TypeFor[v1alpha1.LlamaStackDistributionSpec]().PkgPath() {
		return []string{path}
	}
	var leaves []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		leaves = append(leaves, specLeaves(f.Type, path+"."+name)...)
	}
	return leaves
}

// lookup finds the value at a dotted path (from spec) in a decoded document.
func lookup(doc map[string]any, path string) (any, bool) {
	var node any = doc
	for _, key := range strings.Split(path, ".") {
		m, ok := node.(map[string]any)
		if !ok {
			return nil, false
		}
		if node, ok = m[key]; !ok {
			return nil, false
		}
	}
	return node, true
}

// mutateAt returns the document with another value at path: a boolean flipped, a number plus
// one, a quantity ten times as large, "x" added to a string; in a list or object, the first of
// its values (keys in order) is changed.
func mutateAt(t *testing.T, doc map[string]any, path string) []byte {
	raw, err := json.Marshal(doc)
	require.NoError(t, err)
	var copied map[string]any
	require.NoError(t, json.Unmarshal(raw, &copied))
	keys := strings.Split(path, ".")
	parent, _ := lookup(copied, strings.Join(keys[:len(keys)-1], "."))
	m := parent.(map[string]any)
	m[keys[len(keys)-1]] = mutated(m[keys[len(keys)-1]])
	out, err := json.Marshal(copied)
	require.NoError(t, err)
	return out
}

func mutated(v any) any {
	switch v := v.(type) {
	case bool:
		return !v
	case float64:
		return v + 1
	case string:
		if q, err := resource.ParseQuantity(v); err == nil && !strings.HasPrefix(v, "/") {
			q.Mul(10)
			return q.String()
		}
		return v + "x"
	case []any:
		v[0] = mutated(v[0])
		return v
	case map[string]any:
		first := slices.Sorted(maps.Keys(v))[0]
		v[first] = mutated(v[first])
		return v
	}
	panic(fmt.Sprintf("no mutation for %T", v))
}
