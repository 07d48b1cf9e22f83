// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/kptdev/krm-functions-sdk/go/fn/testhelpers"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/krm"
)

// Each directory of testdata/ is a ResourceList: its *.yaml files are the items,
// _fnconfig.yaml the function config, _expected.yaml the output with results.
// WRITE_GOLDEN_OUTPUT=1 (make golden) rewrites the expected files (review the diff).
func TestGolden(t *testing.T) {
	testhelpers.RunGoldenTests(t, "testdata", krm.Processor{Version: "test"})
}

// Running the function on its own output changes nothing.
func TestIdempotent(t *testing.T) {
	input := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata: {name: demo, namespace: ai}
  spec:
    distribution: {name: starter}
    storage: {sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}}
    networking: {expose: {hostname: llama.example.com}, allowedFrom: {namespaces: [apps]}}
    workload: {storage: {size: 1Gi}, podDisruptionBudget: {maxUnavailable: 1}}
`)
	first, err := fn.Run(krm.Processor{Version: "test"}, input)
	require.NoError(t, err)
	second, err := fn.Run(krm.Processor{Version: "test"}, first)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second))
}

// Every render golden, run again on its own output, is the same: each object a render writes
// (a Route, a ServiceMonitor, an HPA, the trusted-CA ConfigMap, ...) is known as llsd's by its
// group, kind and name, and replaced rather than kept or refused.
func TestEveryGoldenRendersIdempotently(t *testing.T) {
	dirs, err := filepath.Glob("../render/testdata/*/llsd.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, llsd := range dirs {
		dir := filepath.Dir(llsd)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			doc, err := os.ReadFile(llsd)
			require.NoError(t, err)
			spec := map[string]any{}
			if data, err := os.ReadFile(filepath.Join(dir, "options.yaml")); err == nil {
				var options map[string]any // the render package's options, written as the function config's
				require.NoError(t, yaml.Unmarshal(data, &options))
				for key, value := range options {
					switch key {
					case "platform":
						spec["platform"] = value
					case "ingressClassName", "ingressDomain", "ingressControllerNamespace":
						ingress, _ := spec["ingress"].(map[string]any)
						if ingress == nil {
							ingress = map[string]any{}
						}
						ingress[map[string]string{"ingressClassName": "className", "ingressDomain": "domain",
							"ingressControllerNamespace": "controllerNamespace"}[key]] = value
						spec["ingress"] = ingress
					case "openShiftAI":
						spec["openshiftAI"] = map[string]any{"release": distribution.DefaultRelease}
					case "dashboardNamespace": // the release's
					default:
						t.Fatalf("%s: option %s has no function config form here: add it", dir, key)
					}
				}
			}
			options, err := json.Marshal(spec)
			require.NoError(t, err)
			config := "functionConfig: {apiVersion: fn.llamastack.io/v1alpha1, kind: RenderOptions, metadata: {name: o}, spec: " + string(options) + "}\n"
			var items strings.Builder
			for _, d := range strings.Split(string(doc), "\n---\n") {
				items.WriteString("- " + indent(d, "  ")[2:])
			}
			input := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
` + config + "items:\n" + items.String())
			first, err := fn.Run(krm.Processor{Version: "test"}, input)
			require.NoError(t, err)
			require.NotContains(t, string(first), "severity: error")
			second, err := fn.Run(krm.Processor{Version: "test"}, first)
			require.NoError(t, err)
			assert.Equal(t, itemsOf(t, first), itemsOf(t, second), "results add up run by run; the objects stay")
		})
	}
}

// itemsOf is the objects of a ResourceList as YAML.
func itemsOf(t *testing.T, list []byte) string {
	t.Helper()
	rl, err := fn.ParseResourceList(list)
	require.NoError(t, err)
	var out strings.Builder
	for _, item := range rl.Items {
		out.WriteString(item.String() + "---\n")
	}
	return out.String()
}

// indent puts prefix before every line of s.
func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// Objects of an LLSD read from a package file go into <dir>/<name>.generated.yaml, numbered
// without gaps per file, so kpt writes one file per LLSD; the LLSD stays in its own file.
func TestGeneratedObjectsBesideTheirLLSD(t *testing.T) {
	llsd := func(name, path, index string) string {
		return `- apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata:
    name: ` + name + `
    namespace: ai
    annotations: {internal.config.kubernetes.io/path: '` + path + `', internal.config.kubernetes.io/index: '` + index + `'}
  spec: {distribution: {name: starter}}
`
	}
	input := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
` +
		llsd("chat", "stacks/llsd.yaml", "0") + llsd("rag", "stacks/llsd.yaml", "1") + llsd("edge", "llsd.yaml", "0")
	out, err := fn.Run(krm.Processor{Version: "test"}, []byte(input))
	require.NoError(t, err)
	rl, err := fn.ParseResourceList(out)
	require.NoError(t, err)

	indexes := map[string][]int{}
	for _, o := range rl.Items {
		path := o.GetAnnotation("internal.config.kubernetes.io/path")
		if o.GetKind() == "LlamaStackDistribution" {
			assert.Contains(t, []string{"stacks/llsd.yaml", "llsd.yaml"}, path, o.GetName())
			continue
		}
		assert.Equal(t, path, o.GetAnnotation("config.kubernetes.io/path"), "legacy twin agrees")
		index, err := strconv.Atoi(o.GetAnnotation("internal.config.kubernetes.io/index"))
		require.NoError(t, err)
		indexes[path] = append(indexes[path], index)
	}
	require.Len(t, indexes, 3, "one file per LLSD: %v", indexes)
	for file, got := range indexes {
		sort.Ints(got)
		for i, index := range got {
			assert.Equal(t, i, index, file)
		}
	}
	assert.Contains(t, indexes, "stacks/chat.generated.yaml")
	assert.Contains(t, indexes, "edge.generated.yaml")
}

// An OGXServer is the render's input: a package (kpt) keeps it in its file, marked local
// configuration so that kpt live apply leaves it out, next to the objects it renders; a render
// that prints (llsd render, kustomize) leaves it out. Rendering the output again changes nothing.
func TestAnOGXServerIsTheRendersInput(t *testing.T) {
	server := `- apiVersion: ogx.io/v1beta1
  kind: OGXServer
  metadata:
    name: chat
    namespace: ai
%s  spec: {distribution: {name: starter}}
`
	inPackage := fmt.Sprintf(server, "    annotations: {internal.config.kubernetes.io/path: 'chat.yaml', internal.config.kubernetes.io/index: '0'}\n")
	for _, tc := range []struct {
		reason, item string
		standalone   bool
		kept         bool
	}{
		{reason: "a kpt package keeps its file", item: inPackage, kept: true},
		{reason: "a printed render leaves it out", item: fmt.Sprintf(server, ""), standalone: true},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			input := []byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
` + tc.item)
			p := krm.Processor{Version: "test", Standalone: tc.standalone}
			first, err := fn.Run(p, input)
			require.NoError(t, err)
			rl, err := fn.ParseResourceList(first)
			require.NoError(t, err)
			kinds := map[string]bool{}
			for _, o := range rl.Items {
				kinds[o.GetKind()] = true
				if o.GetKind() == "OGXServer" {
					assert.Equal(t, "true", o.GetAnnotation("config.kubernetes.io/local-config"))
				}
			}
			assert.Equal(t, tc.kept, kinds["OGXServer"])
			assert.True(t, kinds["Deployment"] && kinds["ConfigMap"] && kinds["Service"] && kinds["NetworkPolicy"], "%v", kinds)
			assert.False(t, kinds["LlamaStackDistribution"], "nothing an operator-less cluster lacks a CRD for")
			if tc.kept {
				second, err := fn.Run(p, first)
				require.NoError(t, err)
				assert.Equal(t, itemsOf(t, first), itemsOf(t, second))
			}
		})
	}
}

// Render options that would render objects the API server rejects, or name a distribution
// the catalog does not have, are errors that say which option and why.
func TestRenderOptionsAreValidated(t *testing.T) {
	for _, tc := range []struct{ reason, spec, want string }{
		{reason: "a domain that is no DNS name", spec: "ingress: {domain: Apps.Example.com}", want: `spec.ingress.domain "Apps.Example.com"`},
		{reason: "a controller namespace that is no namespace name", spec: "ingress: {controllerNamespace: ingress_nginx}", want: "spec.ingress.controllerNamespace"},
		{reason: "an override of a distribution that does not exist", spec: "imageOverrides: {startr: registry/x:0.7.1}",
			want: "spec.imageOverrides[startr]: no distribution has this name (did you mean starter?)"},
		{reason: "a platform llsd does not know", spec: "platform: OpenShift", want: `spec.platform "OpenShift": use kubernetes or openshift`},
		{reason: "negative limits: each is named, always in the same order", spec: "limits: {settingsDepth: -3, llsds: -1, settingsBytes: -2}",
			want: "spec.limits.llsds -1: a limit is a positive number (0 or unset: the default); " +
				"spec.limits.settingsBytes -2: a limit is a positive number (0 or unset: the default); " +
				"spec.limits.settingsDepth -3: a limit is a positive number (0 or unset: the default)"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, err := krm.ParseOptions([]byte(`apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: o}
spec: {` + tc.spec + "}\n"))
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
}

// The platform can come from Argo CD's plugin environment, and a misspelt one is refused there
// too: a wrong platform would render pods the SCC rejects, or an Ingress OpenShift ignores.
func TestPlatformFromTheEnvironment(t *testing.T) {
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	opts, err := krm.RenderOptions{}.WithEnv(env(map[string]string{"ARGOCD_ENV_LLSD_PLATFORM": "openshift"}))
	require.NoError(t, err)
	assert.Equal(t, "openshift", opts.PipelineOptions("test").Render.Platform)
	_, err = krm.RenderOptions{}.WithEnv(env(map[string]string{"LLSD_PLATFORM": "okd"}))
	require.ErrorContains(t, err, `spec.platform "okd": use kubernetes or openshift`)
}

// Only objects a render of the named LLSD writes may carry its generated-from annotation; one
// of the user's own with it is an error, not silently dropped. An object of an earlier render
// that the LLSD no longer asks for is removed with a warning; an older config's ConfigMap
// without one.
func TestOwnershipMarker(t *testing.T) {
	llsd := "- {apiVersion: llamastack.io/v1alpha2, kind: LlamaStackDistribution, metadata: {name: chat, namespace: ai}, spec: {distribution: {name: starter}}}\n"
	generated := func(apiVersion, kind, name string) string {
		return "- {apiVersion: " + apiVersion + ", kind: " + kind + ", metadata: {name: " + name + ", namespace: ai, annotations: {llamastack.io/generated-from: chat}}}\n"
	}
	for _, tc := range []struct {
		reason, item, want string
		severity           fn.Severity
	}{
		{reason: "a Secret of the user's with the annotation", item: generated("v1", "Secret", "db-password"),
			want: "Secret db-password carries llamastack.io/generated-from: chat, which llsd writes only on the objects it renders", severity: fn.Error},
		{reason: "a Deployment of another name", item: generated("apps/v1", "Deployment", "other"),
			want: "Deployment other carries llamastack.io/generated-from: chat", severity: fn.Error},
		{reason: "an Ingress of an earlier render, no longer asked for", item: generated("networking.k8s.io/v1", "Ingress", "chat-ingress"),
			want: "Ingress chat-ingress was generated from LlamaStackDistribution chat, which no longer asks for it: it is removed", severity: fn.Warning},
		{reason: "a Knative Service of the generated Service's name is no object of llsd's (F15)",
			item: generated("serving.knative.dev/v1", "Service", "chat-service"),
			want: "Service chat-service carries llamastack.io/generated-from: chat, which llsd writes only on the objects it renders", severity: fn.Error},
		{reason: "the ConfigMap of an older config", item: generated("v1", "ConfigMap", "chat-config-0123456789"), want: "", severity: ""},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			rl := &fn.ResourceList{Items: mustItems(t, llsd+tc.item)}
			_, err := krm.Processor{Version: "test"}.Process(rl)
			require.NoError(t, err)
			var got []string
			for _, r := range rl.Results {
				if r.Severity == tc.severity {
					got = append(got, r.Message)
				}
			}
			if tc.want == "" {
				assert.Empty(t, rl.Results, tc.reason)
				return
			}
			require.Len(t, got, 1, "%s: %v", tc.reason, rl.Results)
			assert.Contains(t, got[0], tc.want, tc.reason)
		})
	}
}

func mustItems(t *testing.T, list string) fn.KubeObjects {
	rl, err := fn.ParseResourceList([]byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
` + list))
	require.NoError(t, err)
	return rl.Items
}

// Nothing llsd is given is ignored without a word: a ConfigMap function config gives its
// options (the KRM catalog's convention) or is refused, and an object of llsd's group with a
// kind llsd does not know is an error that names the one meant.
func TestNothingIsIgnored(t *testing.T) {
	llsd := "- {apiVersion: llamastack.io/v1alpha2, kind: LlamaStackDistribution, metadata: {name: chat, namespace: ai}, spec: {distribution: {name: starter}}}\n"
	for _, tc := range []struct {
		reason, config, items, want string
	}{
		{reason: "a ConfigMap's data are render options", config: "{apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}, data: {platform: openshift}}", items: llsd, want: ""},
		{reason: "an option llsd does not know", config: "{apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}, data: {plattform: openshift}}", items: llsd,
			want: `the function config ConfigMap has key "plattform", which is no llsd option (did you mean platform?)`},
		{reason: "a bad option value", config: "{apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}, data: {platform: gke}}", items: llsd, want: `with the render options of the function config ConfigMap (platform): RenderOptions fn.llamastack.io/v1alpha1: spec.platform "gke": use kubernetes or openshift`},
		{reason: "a function config of another kind", config: "{apiVersion: example.com/v1, kind: Settings, metadata: {name: cfg}}", items: llsd, want: "example.com/v1 Settings is no function config llsd takes"},
		{reason: "a misspelt kind", config: "", items: "- {apiVersion: llamastack.io/v1alpha2, kind: LlamaStackDistrubution, metadata: {name: chat}, spec: {distribution: {name: starter}}}\n",
			want: "kind LlamaStackDistrubution is not a kind of llamastack.io (did you mean LlamaStackDistribution?)"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			input := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
` + tc.items
			if tc.config != "" {
				input += "functionConfig: " + tc.config + "\n"
			}
			rl, err := fn.ParseResourceList([]byte(input))
			require.NoError(t, err)
			ok, err := krm.Processor{Version: "test"}.Process(rl)
			require.NoError(t, err)
			if tc.want == "" {
				assert.True(t, ok, "%s: %v", tc.reason, rl.Results)
				return
			}
			assert.False(t, ok, tc.reason)
			require.NotEmpty(t, rl.Results, tc.reason)
			assert.Contains(t, rl.Results[0].Message, tc.want, tc.reason)
		})
	}
	// The ConfigMap's platform took effect: OpenShift leaves the user to the SCC.
	rl, err := fn.ParseResourceList([]byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
` + llsd +
		"functionConfig: {apiVersion: v1, kind: ConfigMap, metadata: {name: cfg}, data: {platform: openshift}}\n"))
	require.NoError(t, err)
	_, err = krm.Processor{Version: "test"}.Process(rl)
	require.NoError(t, err)
	for _, item := range rl.Items {
		if item.GetKind() == "Deployment" {
			_, found, _ := item.NestedInt64("spec", "template", "spec", "securityContext", "runAsUser")
			assert.False(t, found, "platform: openshift from the ConfigMap")
		}
	}
}
