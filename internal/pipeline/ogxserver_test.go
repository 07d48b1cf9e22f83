// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
)

// ogxCorpusFile is what llsd does with each public OGXServer file of ../shared/ogxserver, in the
// form of wild-corpus.yaml.
var ogxCorpusFile = filepath.Join("testdata", "ogxserver-corpus.yaml")

// Every public OGXServer file renders, or is refused with errors whose fix, applied, renders;
// what renders gives servers that start and objects the API server accepts. The OGXServer itself
// is the render's input only: it is not in the output.
func TestPublicOGXServers(t *testing.T) {
	dir := testenv.Shared(t, "ogxserver")
	raw, err := os.ReadFile(ogxCorpusFile)
	require.NoError(t, err)
	var corpus wildCorpus
	require.NoError(t, yaml.UnmarshalStrict(raw, &corpus))
	sources := wildSources(t, dir)
	require.Len(t, corpus.Inputs, len(sources), "every file of SOURCES.tsv has an entry")
	for _, in := range corpus.Inputs {
		t.Run(in.File, func(t *testing.T) {
			require.Contains(t, sources, in.File)
			require.NotEmpty(t, in.Reason)
			data, err := os.ReadFile(filepath.Join(dir, in.File))
			require.NoError(t, err)
			got := renderWild(t, data, nil)
			assertSays(t, in, got)
			if len(in.Errors) > 0 {
				require.NotEmpty(t, in.Fix, "a refused file says how its fix is applied")
				got = renderWild(t, data, in.Fix)
				require.Empty(t, got.errors, "the fix does not render: %s", in.Reason)
			}
			require.Empty(t, got.errors, in.Reason)
			for _, item := range got.items {
				assert.NotEqual(t, ogx.Kind, item.GetKind(), "the OGXServer is the render's input, not its output")
			}
			assertOGXServersStart(t, got)
			if testenv.MissingAssets() == "" {
				assertAccepted(t, got.items)
			}
		})
	}
}

// assertOGXServersStart runs the start-up oracle on each rendered Deployment with the config
// ConfigMap it mounts, for the server version of its image.
func assertOGXServersStart(t *testing.T, r wildRender) {
	t.Helper()
	deployments := 0
	for _, o := range r.items {
		if o.GetKind() != "Deployment" {
			continue
		}
		deployments++
		dep := &appsv1.Deployment{}
		require.NoError(t, yaml.Unmarshal([]byte(o.String()), dep))
		config := mountedConfig(t, r.items, dep)
		if config == nil {
			continue // the user's own config, checked only as far as warnings go
		}
		checkServerStarts(t, imageVersion(t, dep.Spec.Template.Spec.Containers[0].Image), config, dep, r.warnings)
	}
	require.NotZero(t, deployments, "nothing rendered")
}

// imageVersion is the server version (major.minor) an image runs: its tag's, or for an
// OpenShift AI image by digest the version of the release that pins it.
func imageVersion(t *testing.T, image string) string {
	if r, ok := distribution.ReleaseOfImage(image); ok {
		return string(r.Version())
	}
	require.NotContains(t, image, "@", "an image by digest that no release pins")
	return strings.Join(strings.SplitN(image[strings.LastIndex(image, ":")+1:], ".", 3)[:2], ".")
}

// mountedConfig is the config.yaml of the generated ConfigMap a Deployment mounts, or nil.
func mountedConfig(t *testing.T, items fn.KubeObjects, dep *appsv1.Deployment) []byte {
	for _, v := range dep.Spec.Template.Spec.Volumes {
		if v.Name != "config" || v.ConfigMap == nil {
			continue
		}
		for _, o := range items {
			if o.GetKind() == "ConfigMap" && o.GetName() == v.ConfigMap.Name && o.GetAnnotation(api.AnnotationGeneratedFrom) != "" {
				value, _, err := o.NestedString("data", render.ConfigKey)
				require.NoError(t, err)
				return []byte(value)
			}
		}
	}
	return nil
}

// An OGXServer renders what the successor operator documents as its defaults: monitoring (the
// metrics port 9464, a ServiceMonitor, a PrometheusRule) and a NetworkPolicy unless turned off,
// state at /.ogx on 10Gi, a CPU request of one core per worker and 1Gi of memory, OGX 1.3 for a
// distribution name; and a typed provider writes its fields under the server's config keys,
// its credential from a Secret.
func TestOGXServerDefaults(t *testing.T) {
	const header = `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
`
	for _, tc := range []struct {
		reason, spec string
		check        func(t *testing.T, objects map[string]map[string]any, config string)
	}{
		{reason: "nothing set", check: func(t *testing.T, objects map[string]map[string]any, config string) {
			assert.Contains(t, objects, "ServiceMonitor/chat-monitor")
			assert.Contains(t, objects, "PrometheusRule/chat-alerts")
			assert.Contains(t, objects, "NetworkPolicy/chat-network-policy")
			dep := objects["Deployment/chat"]
			container := dig(dep, "spec", "template", "spec", "containers", 0)
			assert.Equal(t, "docker.io/ogxai/distribution-starter:1.3.0", container["image"])
			assert.Equal(t, map[string]any{"cpu": "1", "memory": "1Gi"}, dig(container, "resources", "requests"))
			assert.Nil(t, dig(container, "resources", "limits"), "no limits without workers")
			assert.Contains(t, portNames(container), "metrics")
		}},
		{reason: "monitoring and the NetworkPolicy turned off", spec: `  monitoring: {enabled: false}
  network: {policy: {enabled: false}}
`,
			check: func(t *testing.T, objects map[string]map[string]any, config string) {
				assert.NotContains(t, objects, "ServiceMonitor/chat-monitor")
				assert.NotContains(t, objects, "NetworkPolicy/chat-network-policy")
				assert.NotContains(t, portNames(dig(objects["Deployment/chat"], "spec", "template", "spec", "containers", 0)), "metrics")
			}},
		{reason: "storage and workers", spec: "  workload: {workers: 2, storage: {}}\n",
			check: func(t *testing.T, objects map[string]map[string]any, config string) {
				assert.Equal(t, "10Gi", dig(objects["PersistentVolumeClaim/chat-pvc"], "spec", "resources", "requests")["storage"])
				container := dig(objects["Deployment/chat"], "spec", "template", "spec", "containers", 0)
				assert.Equal(t, map[string]any{"cpu": "2", "memory": "1Gi"}, dig(container, "resources", "requests"))
				assert.Equal(t, map[string]any{"cpu": "2", "memory": "1Gi"}, dig(container, "resources", "limits"), "limits follow requests with workers")
				assert.Contains(t, mountPaths(container), "/.ogx")
			}},
		{reason: "a typed vLLM provider with its token and network settings",
			spec: `  providers:
    inference:
      remote:
        vllm:
        - endpoint: http://vllm.models:8000/v1
          apiToken: {name: vllm, key: token}
` +
				`          maxTokens: 2048
          network: {tls: {verify: false}, timeout: {read: 60}}
  resources:
    models: [{name: granite}]
`,
			check: func(t *testing.T, objects map[string]map[string]any, config string) {
				assert.Contains(t, config, "provider_id: remote-vllm")
				assert.Contains(t, config, "base_url: http://vllm.models:8000/v1")
				assert.Contains(t, config, "api_token: ${env.LLSD_REMOTE_VLLM_API_KEY}")
				assert.Contains(t, config, "max_tokens: 2048")
				assert.Contains(t, config, "verify: false")
				assert.Contains(t, config, "read: 60")
				assert.Contains(t, config, "provider_id: remote-vllm\n")
			}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			decoded, errs := api.DecodeObject([]byte(header + tc.spec))
			require.Empty(t, errs)
			res, errs := pipeline.RenderDecoded(decoded, pipeline.Options{RendererVersion: "test"})
			require.Empty(t, errs)
			objects := map[string]map[string]any{}
			config := ""
			for _, o := range res.Objects {
				data, err := yaml.Marshal(o)
				require.NoError(t, err)
				var m map[string]any
				require.NoError(t, yaml.Unmarshal(data, &m))
				objects[m["kind"].(string)+"/"+dig(m, "metadata")["name"].(string)] = m
				if m["kind"] == "ConfigMap" {
					if c, ok := dig(m, "data")[render.ConfigKey].(string); ok {
						config = c
					}
				}
			}
			tc.check(t, objects, config)
		})
	}
}

// dig walks a decoded object by keys and indexes to a mapping (nil when absent).
func dig(m map[string]any, path ...any) map[string]any {
	var cur any = m
	for _, step := range path {
		switch s := step.(type) {
		case string:
			next, _ := cur.(map[string]any)
			cur = next[s]
		case int:
			next, _ := cur.([]any)
			if s >= len(next) {
				return nil
			}
			cur = next[s]
		}
	}
	out, _ := cur.(map[string]any)
	return out
}

func portNames(container map[string]any) []string {
	var out []string
	ports, _ := container["ports"].([]any)
	for _, p := range ports {
		out = append(out, p.(map[string]any)["name"].(string))
	}
	return out
}

func mountPaths(container map[string]any) []string {
	var out []string
	mounts, _ := container["volumeMounts"].([]any)
	for _, m := range mounts {
		out = append(out, m.(map[string]any)["mountPath"].(string))
	}
	return out
}

// An OGXServer's rh-dev (or rh, Open Data Hub's other name for it) renders for a release whose
// operator reconciles OGXServers, not for the newest that reconciles LlamaStackDistributions,
// and never with the successor's pin of the upstream names (OGX 1.3), which OpenShift AI's
// images do not run.
func TestOGXServerOnOpenShiftAI(t *testing.T) {
	const server = `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: %s}
  providers: {inference: {remote: {vllm: [{endpoint: "http://vllm.models:8000/v1"}]}}}
  storage: {sql: {type: postgres, connectionString: {name: state-db, key: dsn}}}
`
	release35, _ := distribution.ReleaseNamed("3.5")
	odh35, _ := distribution.ReleaseNamed("odh-3.5")
	for _, tc := range []struct {
		reason, name, release string
		image                 string
		warnings, notWarnings []string
	}{
		{reason: "rh-dev without the render option: OpenShift AI 3.5, with a warning that names the option",
			name: "rh-dev", image: release35.Image,
			warnings:    []string{"llsd renders it for OpenShift AI 3.5 (OGX 1.2.4", "the newest release whose operator reconciles OGXServers"},
			notWarnings: []string{"reads rh as rh-dev"}},
		{reason: "rh is read as rh-dev, with a warning that OpenShift AI's operator accepts only rh-dev",
			name: "rh", image: release35.Image,
			warnings: []string{"spec.distribution.name: llsd reads rh as rh-dev, as Open Data Hub's operator does; OpenShift AI's operator accepts only rh-dev: write rh-dev"}},
		{reason: "the release the render option names",
			name: "rh", release: "odh-3.5", image: odh35.Image,
			notWarnings: []string{"newest release"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			options := fn.NewEmptyKubeObject()
			if tc.release != "" {
				var err error
				options, err = fn.ParseKubeObject(fmt.Appendf(nil, "apiVersion: %s\nkind: %s\nmetadata: {name: llsd}\nspec: {openshiftAI: {release: %s}}\n",
					krm.OptionsAPIVersion, krm.OptionsKind, tc.release))
				require.NoError(t, err)
			}
			got := renderWildWith(t, fmt.Appendf(nil, server, tc.name), nil, options)
			require.Empty(t, got.errors)
			for _, o := range got.items {
				if o.GetKind() == "Deployment" {
					dep := &appsv1.Deployment{}
					require.NoError(t, yaml.Unmarshal([]byte(o.String()), dep))
					assert.Equal(t, tc.image, dep.Spec.Template.Spec.Containers[0].Image)
				}
			}
			for _, want := range tc.warnings {
				assert.True(t, mentions(got.warnings, want), "no warning says %q; warnings:\n%s", want, strings.Join(got.warnings, "\n"))
			}
			for _, unwanted := range tc.notWarnings {
				assert.False(t, mentions(got.warnings, unwanted), "a warning says %q", unwanted)
			}
			assertOGXServersStart(t, got)
		})
	}
}

// OpenShift AI 3.5's dashboard writes its playground as an OGXServer that runs a ConfigMap of
// its own with ogx run /etc/ogx/config.yaml, where the successor mounts the config: the pod
// has the file there, and llsd checks it as the config the server runs.
func TestOpenShiftAIDashboardOGXServer(t *testing.T) {
	got := renderWild(t, []byte(`apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: lsd-genai-playground, namespace: proj}
spec:
  distribution: {name: rh-dev}
  overrideConfig: {name: playground-config, key: run.yaml}
  network: {port: 8321}
  workload: {overrides: {command: [ogx, run, /etc/ogx/config.yaml, --insecure]}}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: playground-config, namespace: proj}
data:
  run.yaml: |
    version: 2
    distro_name: rh
    apis: [inference]
    providers:
      inference:
      - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://vllm.models:8000/v1"}}
    models: []
    server: {port: 8321}
`), nil)
	require.Empty(t, got.errors)
	assert.True(t, mentions(got.warnings, "ignores the top-level key models"), "the key the command runs is checked: %s", strings.Join(got.warnings, "\n"))
	assert.False(t, mentions(got.warnings, "which is no key of ConfigMap"), strings.Join(got.warnings, "\n"))
	for _, o := range got.items {
		if o.GetKind() != "Deployment" {
			continue
		}
		dep := &appsv1.Deployment{}
		require.NoError(t, yaml.Unmarshal([]byte(o.String()), dep))
		pod := dep.Spec.Template.Spec
		assert.Contains(t, pod.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "ogx-config", MountPath: "/etc/ogx", ReadOnly: true})
		assert.Contains(t, pod.Volumes, corev1.Volume{Name: "ogx-config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: "playground-config"},
			Items:                []corev1.KeyToPath{{Key: "run.yaml", Path: "config.yaml"}},
		}}})
	}
	if testenv.MissingAssets() == "" {
		assertAccepted(t, got.items)
	}
}

// An OGXServer's author reads llsd's messages in the OGXServer's terms: its fields, its API
// names (vector_io, in the message and in the value it wrote), and its own fix where a fix
// names fields it does not have (its server version is its image's tag, its PVC has no access
// modes, its monitoring is on unless turned off).
func TestOGXServerMessagesAreInItsWords(t *testing.T) {
	const header = "apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: chat, namespace: ai}\nspec:\n"
	for _, tc := range []struct {
		reason, spec string
		says         []string
		never        []string
	}{
		{reason: "monitoring on a server without metrics", spec: "  distribution: {image: 'docker.io/ogxai/distribution-starter:1.1.0'}\n",
			says: []string{"spec.monitoring: Invalid value: \"object\": OGX 1.1 serves no Prometheus metrics (OGX 1.2 to OGX 1.3 do): " +
				"set the server version (an OGXServer's is the tag of spec.distribution.image) to one of them, " +
				"or set spec.monitoring.enabled: false (an OGXServer's monitoring is on unless turned off)"},
			never: []string{"serverVersion", "remove spec.monitoring", "spec.telemetry"}},
		{reason: "replicas on a ReadWriteOnce volume", spec: "  distribution: {name: starter}\n  workload: {replicas: 2, storage: {size: 5Gi}}\n",
			says: []string{"spec.workload.replicas: Invalid value: 2: spec.workload.storage is a ReadWriteOnce volume, which attaches to one node: " +
				"replicas scheduled on other nodes cannot start; run one replica, remove spec.workload.storage and keep the state in spec.storage"},
			never: []string{"accessModes"}},
		{reason: "an API others need, disabled", spec: "  distribution: {name: starter}\n  disabledAPIs: [vector_io]\n",
			says: []string{"spec.disabledAPIs[0]: Invalid value: \"vector_io\": responses needs vector_io, so the server would not start: " +
				"also disable responses, or keep vector_io",
				"spec.disabledAPIs[0]: Invalid value: \"vector_io\": tool_runtime needs vector_io, so the server would not start: " +
					"also disable tool_runtime, or keep vector_io"},
			never: []string{"vectorIo", "toolRuntime", "spec.disabled[", "spec.disabled:"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got := renderWild(t, []byte(header+tc.spec), nil)
			all := strings.Join(append(got.errors, got.warnings...), "\n")
			for _, want := range tc.says {
				assert.Contains(t, got.errors, want)
			}
			for _, word := range tc.never {
				assert.NotContains(t, all, word, "a word the OGXServer does not have")
			}
		})
	}
}
