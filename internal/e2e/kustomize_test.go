// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const stackLLSD = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: demo
  namespace: ai
%sspec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: {secretKeyRef: {name: vllm, key: token}}}
  resources:
    models: [llama3]
  storage:
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
`

func functionAnnotation() string {
	return fmt.Sprintf(`  annotations:
    config.kubernetes.io/function: |
      exec:
        path: %s
`, llsdBinary)
}

// transformerFiles is a kustomization with stackLLSD and llsd as its transformer.
func transformerFiles(kustomization string) map[string]string {
	return map[string]string{
		"llsd.yaml":          fmt.Sprintf(stackLLSD, ""),
		"kustomization.yaml": kustomization,
		"llsd-fn.yaml": `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata:
  name: llsd
` +
			functionAnnotation() + `    config.kubernetes.io/local-config: "true"
spec: {}
`,
	}
}

const kustomizeHow = "run `make test`, or build kustomize with `make kustomize`"

// kustomize build in transformer mode gives exactly what `llsd render` gives.
func TestKustomizeTransformerMatchesRender(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	dir := t.TempDir()
	writeFiles(t, dir, transformerFiles(`resources: [llsd.yaml]
transformers: [llsd-fn.yaml]
`))
	built := objects(t, run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "."))
	rendered := objects(t, run(t, dir, llsdBinary, "render", filepath.Join(dir, "llsd.yaml")))
	assertSameObjects(t, rendered, built)
}

// With namePrefix the LLSD arrives renamed; every object and reference follows.
func TestKustomizeNamePrefix(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	dir := t.TempDir()
	writeFiles(t, dir, transformerFiles(`namePrefix: team-
resources: [llsd.yaml]
transformers: [llsd-fn.yaml]
`))
	built := objects(t, run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "."))
	require.Contains(t, built, "Deployment/team-demo")
	require.Contains(t, built, "Service/team-demo-service")
	cm := ""
	for k := range built {
		if len(k) > len("ConfigMap/team-demo-config-") && k[:len("ConfigMap/team-demo-config-")] == "ConfigMap/team-demo-config-" {
			cm = k[len("ConfigMap/"):]
		}
	}
	require.NotEmpty(t, cm, "the generated ConfigMap carries the prefix: %v", keys(built))
	volumes := built["Deployment/team-demo"]["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["volumes"].([]any)
	assert.Equal(t, cm, volumes[0].(map[string]any)["configMap"].(map[string]any)["name"], "the Deployment mounts the ConfigMap that exists")
}

// A kustomization's namespace and labels reach the objects llsd generates: the LLSD has them
// when llsd runs (kustomize applies them before its transformers), and its objects take both.
func TestKustomizeNamespaceAndLabels(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	dir := t.TempDir()
	writeFiles(t, dir, transformerFiles(`namespace: team-a
labels:
- pairs: {cost-center: "4711", team: search}
`+
		`resources: [llsd.yaml]
transformers: [llsd-fn.yaml]
`))
	built := objects(t, run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "."))
	require.NotEmpty(t, built)
	for name, o := range built {
		md := o["metadata"].(map[string]any)
		assert.Equal(t, "team-a", md["namespace"], name)
		labels, _ := md["labels"].(map[string]any)
		assert.Equal(t, "4711", labels["cost-center"], name)
		assert.Equal(t, "search", labels["team"], name)
	}
}

// Generator mode: the LLSD is the function config; its objects come out once and the
// local-config LLSD itself does not.
func TestKustomizeGenerator(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"llsd.yaml":          fmt.Sprintf(stackLLSD, functionAnnotation()),
		"kustomization.yaml": "generators: [llsd.yaml]\n",
	})
	built := objects(t, run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "."))
	assert.Contains(t, built, "Deployment/demo")
	assert.Contains(t, built, "Service/demo-service")
	assert.NotContains(t, built, "LlamaStackDistribution/demo")
}

// A warning reaches whoever runs kustomize: kustomize drops the results of a function that
// succeeds, so llsd prints every warning on stderr too, naming the file and the object.
func TestKustomizeShowsWarnings(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	dir := t.TempDir()
	files := transformerFiles(`resources: [llsd.yaml]
transformers: [llsd-fn.yaml]
`)
	files["llsd.yaml"] = fmt.Sprintf(stackLLSD, "") + "  workload: {overrides: {env: [{name: OLLAMA_URL, value: \"http://ollama:11434\"}]}}\n" +
		"  networking: {expose: {hostname: llama.example.com}}\n"
	writeFiles(t, dir, files)
	cmd := exec.Command(kustomize, "build", "--enable-alpha-plugins", "--enable-exec", ".")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	assert.NotEmpty(t, out)
	// kustomize passes no file name with its items; the object names the LLSD.
	assert.Contains(t, stderr.String(), "llsd: LlamaStackDistribution demo: warning: spec.workload.overrides.env[0].value:")
	assert.Contains(t, stderr.String(), "/v1", "the warning says what the endpoint lacks")
	assert.Contains(t, stderr.String(), "llsd: LlamaStackDistribution demo: warning: spec.networking.expose: the server is exposed outside the cluster (an Ingress) and authenticates nobody")
}
