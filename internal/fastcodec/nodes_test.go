// SPDX-License-Identifier: Apache-2.0

package fastcodec_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	yaml2 "go.yaml.in/yaml/v2"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/llamastack/llsd/internal/fastcodec"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
)

// roundTrip is the way objects reached the ResourceList before: YAML text and back.
func roundTrip(t testing.TB, o render.Object) string {
	data, err := render.YAML([]render.Object{o})
	require.NoError(t, err)
	ko, err := fn.ParseKubeObject(data)
	require.NoError(t, err)
	return ko.String()
}

func direct(t testing.TB, o render.Object) string {
	return kubeObject(t, o).String()
}

// kubeObject is a rendered object as the KRM function puts it into the ResourceList.
func kubeObject(t testing.TB, o render.Object) *fn.KubeObject {
	data, err := json.Marshal(o)
	require.NoError(t, err)
	ko, err := fastcodec.KubeObjectFromJSON(data, render.IsRuntimeField)
	require.NoError(t, err)
	return ko
}

// Every object of every golden case becomes the same YAML directly as through the text.
func TestNodesMatchTheYAMLRoundTrip(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "*", "testdata", "*", "llsd.yaml"))
	require.NoError(t, err)
	objects := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		obj, errs := api.Decode(data)
		if len(errs) > 0 {
			continue
		}
		res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
		if len(errs) > 0 {
			continue
		}
		for _, o := range append([]render.Object{res.LLSD}, res.Objects...) {
			what := fmt.Sprintf("%s: %s %s", f, o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
			assert.Equal(t, roundTrip(t, o), direct(t, o), what)
			want, got, written := entries(t, o)
			assert.True(t, written, "the entry writer writes every rendered object: %s", what)
			assert.Equal(t, want, got, what)
			objects++
		}
	}
	assert.Greater(t, objects, 300)
}

// Whatever strings an object carries, in values and keys, the direct nodes write them as the
// text round trip did: quoting, blocks, key order.
func FuzzNodesMatchTheYAMLRoundTrip(f *testing.F) {
	for _, s := range []string{"plain", "on", "yes", "0755", "1e3", "12:30", "", " lead", "trail ", "a: b", "#c", "- x",
		"multi\nline", "multi\nline\n", "  indented\nblock", "tab\there", "\"quoted\"", "'single'", "~", "null", "2026-01-02",
		"a10", "a9", "a010", "é", "x\x00y", "---", "...", "@at", "`tick", "%pct", "!bang", "&amp", "*star", "|bar", ">gt",
		"a \nb", "a\nb ", "a\tb\nc", "\nlead", "a\n\n\nb", " a\nb", "a\r\nb", "0o17", "0x1F", "+1", "-1", ".5", "1_000", "<<", "=", "a #b", "http://x:80/y", strings.Repeat("long ", 30)} {
		f.Add(s, s+"2")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		cm := &corev1.ConfigMap{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
			ObjectMeta: metav1.ObjectMeta{Name: "x", Annotations: map[string]string{a: b, b: a, "k": a}, Labels: map[string]string{"l": b}},
			Data:       map[string]string{a: b, "v": a}}
		d := &appsv1.Deployment{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
			ObjectMeta: metav1.ObjectMeta{Name: "d"},
			Spec: appsv1.DeploymentSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "c", Image: b, Args: []string{a, b}, Env: []corev1.EnvVar{{Name: a, Value: b}}}}}}}}
		for _, o := range []render.Object{cm, d} {
			data, err := render.YAML([]render.Object{o})
			if err != nil {
				return
			}
			before, err := fn.ParseKubeObject(data)
			if err != nil {
				return // the text path could not even carry it
			}
			assert.Equal(t, before.String(), direct(t, o))
			if want, got, written := entries(t, o); written {
				assert.Equal(t, want, got)
			}
		}
	})
}

// Mapping keys are ordered as go-yaml v2 orders them.
func TestNaturalKeyOrder(t *testing.T) {
	keys := []string{"a10", "a9", "a", "A", "b1", "a010", "a01", "a1", "1", "10", "2", "_x", "x_", "x.1", "x.10", "x.2",
		"llamastack.io/config-hash", "llamastack.io/config-map", "app.kubernetes.io/name", "é", "z0", "z00", "z000a"}
	assert.Equal(t, yaml2Order(t, keys), sorted(keys))
}

// naturalLess's ASCII shortcut decides as go-yaml v2's rune by rune comparison does, for keys
// that first differ at a letter, a sign, a digit or a rune outside ASCII, after a common
// prefix or none; and that comparison is go-yaml v2's for each pair of two-rune keys. (Pairs,
// not one sort: go-yaml v2's order is not transitive over keys such as -10, -9a and -010, so
// the order it writes a map of them in depends on the map's iteration.)
func TestNaturalLessIsGoYAMLv2s(t *testing.T) {
	alphabet := []string{"a", "B", "z", "0", "1", "9", ".", "-", "_", "/", "é", "Ü"}
	var pairs, keys []string
	for _, x := range alphabet {
		for _, y := range alphabet {
			pairs = append(pairs, x+y)
			for _, z := range []string{"", "a", "0", "10", "-"} {
				keys = append(keys, x+y+z, "k"+x+y+z)
			}
		}
	}
	for _, a := range keys {
		for _, b := range keys {
			if fastcodec.NaturalLess(a, b) != fastcodec.ByRuneLess(a, b) {
				t.Errorf("%q < %q: the shortcut says %t", a, b, fastcodec.NaturalLess(a, b))
			}
		}
	}
	for _, a := range pairs {
		for _, b := range pairs {
			if a != b && fastcodec.ByRuneLess(a, b) != (yaml2Order(t, []string{a, b})[0] == a) {
				t.Errorf("%q < %q: go-yaml v2 says otherwise", a, b)
			}
		}
	}
}

func sorted(keys []string) []string {
	out := append([]string(nil), keys...)
	fastcodec.SortNatural(out)
	return out
}

// yaml2Order is the order go-yaml v2 writes the keys of a map in.
func yaml2Order(t *testing.T, keys []string) []string {
	t.Helper()
	m := yaml2.MapSlice{}
	values := map[any]any{}
	for _, k := range keys {
		values[k] = 1
	}
	out, err := yaml2.Marshal(values)
	require.NoError(t, err)
	for line := range strings.Lines(string(out)) {
		k, _, _ := strings.Cut(line, ":")
		m = append(m, yaml2.MapItem{Key: strings.Trim(k, `"'`)})
	}
	var want []string
	for _, item := range m {
		want = append(want, fmt.Sprint(item.Key))
	}
	return want
}

// entries returns an object's ResourceList entry as yaml.v3 writes it and as WriteEntry does,
// and whether WriteEntry wrote it.
func entries(t testing.TB, o render.Object) (want, got string, written bool) {
	ko := kubeObject(t, o)
	rl := &fn.ResourceList{Items: fn.KubeObjects{ko}}
	full, err := rl.ToYAML()
	require.NoError(t, err)
	_, want, _ = strings.Cut(string(full), "items:\n")
	var buf bytes.Buffer
	written = fastcodec.WriteEntry(&buf, ko.CopyToResourceNode().YNode())
	return want, buf.String(), written
}

// An object's JSON read straight into nodes is the tree read and written as nodes: the fields
// drop names left out (at the top two levels only), the last of a repeated key kept.
func TestKubeObjectFromJSONIsTheTreesNodes(t *testing.T) {
	for _, data := range []string{
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","creationTimestamp":null,"annotations":{}},"data":{"b":"1","a":"yes"},"status":{}}`,
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","annotations":{"x":""}},"data":{"status":{},"a10":1,"a9":2.5,"n":null,"t":true}}`,
		`{"kind":"K","kind":"L","metadata":{"name":"a","name":"b"},"spec":{"list":[],"map":{},"deep":[{"z":1,"a":[1,"2"]}]}}`,
	} {
		tree, err := fastcodec.DecodeJSON([]byte(data))
		require.NoError(t, err)
		render.StripRuntimeFields(tree)
		want, err := fastcodec.KubeObject(tree)
		require.NoError(t, err)
		got, err := fastcodec.KubeObjectFromJSON([]byte(data), render.IsRuntimeField)
		require.NoError(t, err)
		assert.Equal(t, want.String(), got.String(), data)
	}
	_, err := fastcodec.KubeObjectFromJSON([]byte(`[1]`), render.IsRuntimeField)
	assert.Error(t, err, "not an object")
}
