// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
)

// wildCorpusFile is what llsd does with each public LlamaStackDistribution file of
// ../shared/wild-llsd: this project's expectations of files it does not hold.
var wildCorpusFile = filepath.Join("testdata", "wild-corpus.yaml")

// wildCorpus is wild-corpus.yaml.
type wildCorpus struct {
	Inputs []wildInput `json:"inputs"`
}

// wildInput is one public file and what llsd does with it.
type wildInput struct {
	// File is the file's path in ../shared/wild-llsd, as SOURCES.tsv names it.
	File   string `json:"file"`
	Reason string `json:"reason"`
	// Errors each appear in one error of the render ("field: message"); none means it renders.
	Errors []string `json:"errors,omitempty"`
	// Warnings each appear in one warning.
	Warnings []string `json:"warnings,omitempty"`
	// Fix is what the errors say to do, as a JSON merge patch per LlamaStackDistribution
	// name: applied, the file renders.
	Fix map[string]json.RawMessage `json:"fix,omitempty"`
	// FixOptions is what the errors say to do when it is a render option: a RenderOptions
	// spec the fixed render takes ({openshiftAI: {release: "3.3"}}).
	FixOptions json.RawMessage `json:"fixOptions,omitempty"`
	// Case names the project's own input for the pattern the file taught (patternCases).
	Case string `json:"case,omitempty"`
}

func readWildCorpus(t *testing.T) wildCorpus {
	raw, err := os.ReadFile(wildCorpusFile)
	require.NoError(t, err)
	var c wildCorpus
	require.NoError(t, yaml.UnmarshalStrict(raw, &c))
	return c
}

// wildSources are the files SOURCES.tsv of dir lists.
func wildSources(t *testing.T, dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, "SOURCES.tsv"))
	require.NoError(t, err)
	var files []string
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if i > 0 {
			file, _, _ := strings.Cut(line, "\t")
			files = append(files, file)
		}
	}
	return files
}

// wildRender is what `llsd render` makes of one file: its output and its results as the user
// reads them.
type wildRender struct {
	items    fn.KubeObjects
	errors   []string
	warnings []string
}

func renderWild(t *testing.T, data []byte, fix map[string]json.RawMessage) wildRender {
	return renderWildWith(t, data, fix, fn.NewEmptyKubeObject())
}

// renderFixed renders a corpus file with its fix: the patches, and the render options.
func renderFixed(t *testing.T, data []byte, in wildInput) wildRender {
	if len(in.FixOptions) == 0 {
		return renderWild(t, data, in.Fix)
	}
	options, err := fn.ParseKubeObject([]byte(`{"apiVersion": "fn.llamastack.io/v1alpha1", "kind": "RenderOptions", "metadata": {"name": "fix"}, "spec": ` +
		string(in.FixOptions) + `}`))
	require.NoError(t, err)
	return renderWildWith(t, data, in.Fix, options)
}

// renderWildWith is renderWild with a function config (RenderOptions).
func renderWildWith(t *testing.T, data []byte, fix map[string]json.RawMessage, functionConfig *fn.KubeObject) wildRender {
	items, err := fn.ParseKubeObjects(data)
	require.NoError(t, err)
	patched := 0
	for i, item := range items {
		patch, ok := fix[item.GetName()]
		if !ok || !api.IsRenderable(item.GetKind()) {
			continue
		}
		doc, err := yaml.YAMLToJSON([]byte(item.String()))
		require.NoError(t, err)
		doc, err = jsonpatch.MergePatch(doc, patch)
		require.NoError(t, err)
		items[i], err = fn.ParseKubeObject(doc)
		require.NoError(t, err)
		patched++
	}
	require.Equal(t, len(fix), patched, "every fix names a LlamaStackDistribution or OGXServer of the file")
	rl := &fn.ResourceList{FunctionConfig: functionConfig, Items: items}
	_, _ = krm.Processor{Version: "test", Standalone: true}.Process(rl)
	out := wildRender{items: rl.Items}
	for _, r := range rl.Results {
		line := r.Message
		if r.Field != nil && r.Field.Path != "" {
			line = r.Field.Path + ": " + r.Message
		}
		if r.Severity == fn.Error {
			out.errors = append(out.errors, line)
		} else {
			out.warnings = append(out.warnings, line)
		}
	}
	return out
}

// Every public file of the corpus renders, or is refused with errors whose fix, applied,
// renders; what renders gives a server that starts (its API-server acceptance is
// TestWildLLSDsAreAccepted).
func TestWildLLSDs(t *testing.T) {
	dir := testenv.Shared(t, "wild-llsd")
	corpus := readWildCorpus(t)
	sources := wildSources(t, dir)
	cases := patternCaseNames()
	listed := map[string]bool{}
	for _, in := range corpus.Inputs {
		listed[in.File] = true
	}
	for _, f := range sources {
		assert.True(t, listed[f], "%s (SOURCES.tsv) has no entry in %s", f, wildCorpusFile)
	}
	for _, in := range corpus.Inputs {
		t.Run(in.File, func(t *testing.T) {
			require.Contains(t, sources, in.File, "SOURCES.tsv lists the file")
			require.NotEmpty(t, in.Reason)
			if in.Case != "" {
				require.Contains(t, cases, in.Case, "the own case the entry names exists")
			}
			data, err := os.ReadFile(filepath.Join(dir, in.File))
			require.NoError(t, err)
			got := renderWild(t, data, nil)
			assertSays(t, in, got)
			if len(in.Errors) == 0 {
				require.Empty(t, got.errors, in.Reason)
				assertServersStart(t, got)
				assertForItsPlatform(t, got)
				return
			}
			require.True(t, len(in.Fix) > 0 || len(in.FixOptions) > 0, "a refused file says how its fix is applied")
			fixed := renderFixed(t, data, in)
			require.Empty(t, fixed.errors, "the fix does not render: %s", in.Reason)
			assertServersStart(t, fixed)
			assertForItsPlatform(t, fixed)
		})
	}
}

// The API server accepts every object the corpus renders, as written or fixed.
func TestWildLLSDsAreAccepted(t *testing.T) {
	dir := testenv.Shared(t, "wild-llsd")
	testenv.Need(t, testenv.MissingAssets())
	for _, in := range readWildCorpus(t).Inputs {
		t.Run(in.File, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, in.File))
			require.NoError(t, err)
			got := renderFixed(t, data, in)
			require.Empty(t, got.errors)
			assertAccepted(t, got.items)
		})
	}
}

// assertSays checks that each error and warning a corpus entry expects is said.
func assertSays(t *testing.T, in wildInput, got wildRender) {
	t.Helper()
	for _, want := range in.Errors {
		assert.True(t, mentions(got.errors, want), "no error says %q; errors:\n%s", want, strings.Join(got.errors, "\n"))
	}
	for _, want := range in.Warnings {
		assert.True(t, mentions(got.warnings, want), "no warning says %q; warnings:\n%s", want, strings.Join(got.warnings, "\n"))
	}
}

// assertAccepted dry-runs every rendered object on the API server.
func assertAccepted(t *testing.T, items fn.KubeObjects) {
	t.Helper()
	for _, item := range items {
		var manifest map[string]any
		require.NoError(t, yaml.Unmarshal([]byte(item.String()), &manifest))
		require.NoError(t, dryRunApplyManifest(t, manifest))
	}
}

// assertServersStart runs the start-up oracle on the config each rendered LlamaStackDistribution
// generated, as its Deployment runs it.
func assertServersStart(t *testing.T, r wildRender) {
	t.Helper()
	servers := renderedServers(t, r.items)
	require.NotEmpty(t, servers, "no LlamaStackDistribution rendered")
	for _, s := range servers {
		if s.config != nil { // nil: the user's own config, which llsd checks only as far as warnings go
			checkServerStarts(t, s.version, s.config, s.dep, r.warnings)
		}
	}
}

// renderedServerOf is one LlamaStackDistribution among rendered objects: its server version,
// config.yaml (nil for the user's own) and Deployment.
type renderedServerOf struct {
	name, version string
	config        []byte
	dep           *appsv1.Deployment
}

func renderedServers(t *testing.T, items fn.KubeObjects) []renderedServerOf {
	t.Helper()
	var out []renderedServerOf
	for _, llsd := range items {
		if llsd.GetKind() != "LlamaStackDistribution" {
			continue
		}
		s := renderedServerOf{name: llsd.GetName(), version: llsd.GetAnnotation(api.AnnotationServerVersion)}
		configMap := llsd.GetAnnotation(api.AnnotationConfigMap)
		for _, o := range items {
			if o.GetAnnotation(api.AnnotationGeneratedFrom) != llsd.GetName() || o.GetNamespace() != llsd.GetNamespace() {
				continue
			}
			switch {
			case o.GetKind() == "ConfigMap" && o.GetName() == configMap:
				value, _, err := o.NestedString("data", render.ConfigKey)
				require.NoError(t, err)
				s.config = []byte(value)
			case o.GetKind() == "Deployment":
				s.dep = &appsv1.Deployment{}
				require.NoError(t, yaml.Unmarshal([]byte(o.String()), s.dep))
			}
		}
		require.NotNil(t, s.dep, "no Deployment for %s", llsd.GetName())
		out = append(out, s)
	}
	return out
}

// assertForItsPlatform checks that every server of an OpenShift AI or Open Data Hub
// distribution (rh-dev, or a release's image), rendered with no option, has pods OpenShift
// admits: a file written for the platform gets objects for it.
func assertForItsPlatform(t *testing.T, got wildRender) {
	t.Helper()
	for _, o := range got.items {
		if o.GetKind() != "Deployment" {
			continue
		}
		var d appsv1.Deployment
		require.NoError(t, yaml.Unmarshal([]byte(o.String()), &d))
		image := d.Spec.Template.Spec.Containers[0].Image
		if _, ok := distribution.ReleaseOfImage(image); ok {
			assertOpenShiftPod(t, d.Spec.Template.Spec)
		}
	}
}
