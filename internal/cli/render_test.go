// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/cli"
	"github.com/llamastack/llsd/internal/testsupport/yamlbomb"
)

const stack = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: my-stack, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: {secretKeyRef: {name: vllm-creds, key: token}}}
  resources:
    models: [llama3.2-8b]
`

func run(t *testing.T, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Main(args, nil, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// assertRefused renders dir and checks that llsd refuses it: exit code 1, nothing on stdout
// (never a partial output), and want on stderr.
func assertRefused(t *testing.T, dir, want string, msgAndArgs ...any) {
	t.Helper()
	code, out, stderr := run(t, "render", dir)
	assert.Equal(t, 1, code, msgAndArgs...)
	assert.Empty(t, out, msgAndArgs...)
	assert.Contains(t, stderr, want, msgAndArgs...)
}

func writeFile(t *testing.T, dir, name, content string) string {
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestRenderPrintsTheManifests(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "stack.yaml", stack+`---
apiVersion: v1
kind: Namespace
metadata: {name: ai}
`)
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{"kind: LlamaStackDistribution", "kind: ConfigMap", "name: my-stack-config-",
		"kind: Deployment", "kind: Service", "kind: Namespace", "llamastack.io/config-map: my-stack-config-",
		"name: LLSD_VLLM_API_KEY"} {
		assert.Contains(t, out, want)
	}
	assert.NotContains(t, out, "status:")

	// Rendering the output again changes nothing: generated objects are replaced, not doubled.
	again := writeFile(t, t.TempDir(), "out.yaml", out)
	code, out2, stderr := run(t, "render", again)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, out, out2)
	assert.Equal(t, 1, strings.Count(out2, "kind: Deployment"))
}

func TestRenderFailsWithoutPartialOutput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a-good.yaml", stack)
	writeFile(t, dir, "b-bad.yaml", strings.NewReplacer("provider: vllm", "provider: watsonx", "name: my-stack", "name: other").Replace(stack))
	assertRefused(t, dir, `b-bad.yaml: LlamaStackDistribution other: spec.providers.inference[0].provider: Invalid value: "watsonx"`,
		"one bad LLSD means no manifests at all")
}

func TestRenderOverrideConfigUsesTheUsersConfigMap(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "stack.yaml", `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own}
spec:
  distribution: {image: registry.example.com/custom:1.0}
  overrideConfig: {configMapName: my-config}
`)
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, out, "kind: ConfigMap", "the user's ConfigMap is theirs: llsd generates none")
	assert.Contains(t, out, "name: my-config")
	assert.Contains(t, out, "image: registry.example.com/custom:1.0")
	assert.NotContains(t, out, "llamastack.io/config-hash", "the ConfigMap is not in the input: its content is unknown")

	// With the ConfigMap in the input, its content drives rollouts: an edit changes the pod template.
	hashes := map[string]bool{}
	for _, content := range []string{"version: 2", "version: 2\ndistro_name: changed"} {
		writeFile(t, dir, "config.yaml", `apiVersion: v1
kind: ConfigMap
metadata: {name: my-config}
data:
  config.yaml: |
    `+
			strings.ReplaceAll(content, "\n", "\n    ")+"\n")
		code, out, stderr := run(t, "render", dir)
		require.Equal(t, 0, code, stderr)
		i := strings.Index(out, "llamastack.io/config-hash: ")
		require.Positive(t, i, out)
		hashes[out[i:i+90]] = true
	}
	assert.Len(t, hashes, 2)
}

// As a KRM function llsd reads ResourceLists with or without a function config (kpt fn
// render sends none), and reports failures on stderr too.
func TestKRMFunctionOnStdin(t *testing.T) {
	items := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- ` +
		strings.ReplaceAll(strings.TrimSpace(stack), "\n", "\n  ") + "\n"
	var stdout, stderr bytes.Buffer
	code := cli.Main(nil, strings.NewReader(items), &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Contains(t, stdout.String(), "kind: Deployment")

	stdout.Reset()
	bad := strings.Replace(items, "provider: vllm", "provider: watsonx", 1)
	code = cli.Main(nil, strings.NewReader(bad), &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stdout.String(), "severity: error", "the results go back to the orchestrator")
	assert.Contains(t, stderr.String(), `Invalid value: "watsonx"`, "and to stderr, where kustomize shows them")
	assert.NotContains(t, stdout.String(), "kind: Deployment")
}

// Render options come from a RenderOptions document among the inputs, and from
// LLSD_* / ARGOCD_ENV_LLSD_* variables on top; the options document is not output.
func TestRenderOptionsFromDocumentAndEnvironment(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "stack.yaml", strings.Replace(stack, "spec:\n", `spec:
  networking: {expose: true}
`, 1))
	writeFile(t, dir, "options.yaml", `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: llsd}
`+
		`spec:
  ingress: {className: nginx, domain: from-file.example.com}
  imageOverrides: {starter: mirror.local/starter:0.6.0}
`)
	t.Setenv("ARGOCD_ENV_LLSD_INGRESS_DOMAIN", "from-env.example.com")
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "host: my-stack.ai.from-env.example.com", "the environment wins over the document")
	assert.Contains(t, out, "ingressClassName: nginx")
	assert.Contains(t, out, "image: mirror.local/starter:0.6.0")
	assert.Contains(t, out, "llamastack.io/server-version: \"0.6\"", "the mirror's tag selects the server version")
	assert.NotContains(t, out, "kind: RenderOptions")

	t.Setenv("LLSD_IMAGE_OVERRIDES", "starter")
	code, _, stderr = run(t, "render", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `LLSD_IMAGE_OVERRIDES: "starter" is not name=image`)
}

func TestRenderRejectsTheSameLLSDTwice(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.yaml", stack)
	writeFile(t, dir, "b.yaml", stack)
	assertRefused(t, dir, "LlamaStackDistribution ai/my-stack appears twice ("+filepath.Join(dir, "a.yaml")+" and "+filepath.Join(dir, "b.yaml")+")")
}

func TestRenderRejectsAnOGXServerWithTheNameOfAnLLSD(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.yaml", stack)
	writeFile(t, dir, "b.yaml", "apiVersion: ogx.io/v1beta1\nkind: OGXServer\nmetadata: {name: my-stack, namespace: ai}\nspec: {distribution: {name: starter}}\n")
	assertRefused(t, dir, "LlamaStackDistribution ai/my-stack and OGXServer ai/my-stack have one namespace and name ("+
		filepath.Join(dir, "a.yaml")+" and "+filepath.Join(dir, "b.yaml")+"): both would generate the same objects")
}

func TestRenderRejectsACABundleFromAnotherNamespace(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "stack.yaml", strings.Replace(stack, "spec:\n",
		`spec:
  networking: {tls: {caBundle: {configMapName: corp-ca, configMapNamespace: security}}}
`, 1))
	assertRefused(t, dir, `spec.networking.tls.caBundle.configMapNamespace: Invalid value: "security": a pod can mount only ConfigMaps of its own namespace`)
}

// llsd render is the KRM function on the same documents: kustomize's output of the function
// (items without local configuration) equals llsd render's output, for a mix of an LLSD, a
// local-config LLSD (rendered, not itself output), another object and render options.
func TestRenderIsTheKRMFunction(t *testing.T) {
	localConfig := strings.Replace(strings.Replace(stack, "name: my-stack", "name: local-stack", 1),
		"metadata: {", "metadata: {annotations: {config.kubernetes.io/local-config: 'true'}, ", 1)
	namespace := `apiVersion: v1
kind: Namespace
metadata: {name: ai}
`
	options := `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: llsd}
spec: {ingress: {className: nginx}}
`

	dir := t.TempDir()
	writeFile(t, dir, "a.yaml", stack+"---\n"+localConfig+"---\n"+namespace)
	writeFile(t, dir, "options.yaml", options)
	code, rendered, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, rendered, "name: local-stack-config-", "a local-config LLSD renders its objects")
	assert.Equal(t, 1, strings.Count(rendered, "kind: LlamaStackDistribution"), "and is itself local configuration")

	var rl strings.Builder
	rl.WriteString(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
`)
	for _, doc := range []string{stack, localConfig, namespace} {
		rl.WriteString("- " + strings.ReplaceAll(strings.TrimSpace(doc), "\n", "\n  ") + "\n")
	}
	rl.WriteString("functionConfig:\n  " + strings.ReplaceAll(strings.TrimSpace(options), "\n", "\n  ") + "\n")
	var stdout, fnStderr bytes.Buffer
	require.Equal(t, 0, cli.Main(nil, strings.NewReader(rl.String()), &stdout, &fnStderr), fnStderr.String())
	out, err := fn.ParseResourceList(stdout.Bytes())
	require.NoError(t, err)
	var kustomized []any
	for _, item := range out.Items {
		if !item.IsLocalConfig() {
			var o any
			require.NoError(t, yaml.Unmarshal([]byte(item.String()), &o))
			kustomized = append(kustomized, o)
		}
	}
	var fromRender []any
	for _, doc := range strings.Split(rendered, "\n---\n") {
		var o any
		require.NoError(t, yaml.Unmarshal([]byte(doc), &o))
		fromRender = append(fromRender, o)
	}
	byName := func(objs []any) map[string]any { // the SDK sorts a ResourceList's items, kustomize its output
		out := map[string]any{}
		for _, o := range objs {
			m := o.(map[string]any)
			out[fmt.Sprint(m["kind"], "/", m["metadata"].(map[string]any)["name"])] = o
		}
		return out
	}
	assert.Len(t, fromRender, 10)
	assert.Equal(t, byName(kustomized), byName(fromRender))
}

// Errors about a v1alpha1 object name its v1alpha1 fields.
func TestErrorsOnV1alpha1UseItsPaths(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "old.yaml", `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: old, namespace: ai}
spec:
  replicas: 2
  server:
    distribution: {name: starter}
`)
	code, _, stderr := run(t, "validate", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "LlamaStackDistribution old: spec.replicas: Invalid value: 2: 2 replicas would each keep their own registry")
}

// What would be ignored silently is an error: a key written twice (the last one would win),
// render options with a misspelt kind or version.
func TestRenderRefusesWhatWouldBeIgnored(t *testing.T) {
	for _, tc := range []struct{ reason, doc, want string }{
		{reason: "a key twice", doc: strings.Replace(stack, "spec:\n", `spec:
  workload: {replicas: 1}
  workload: {workers: 2}
`, 1),
			want: `key "workload" already set in map`},
		{reason: "options of another version", doc: `apiVersion: fn.llamastack.io/v1alpha2
kind: RenderOptions
metadata: {name: o}
spec: {}
---
` + stack,
			want: "fn.llamastack.io/v1alpha2 RenderOptions is not a function config llsd knows: write apiVersion: fn.llamastack.io/v1alpha1"},
		{reason: "options of a misspelt kind", doc: `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOption
metadata: {name: o}
spec: {}
---
` + stack,
			want: "kind: RenderOptions"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "in.yaml", tc.doc)
			assertRefused(t, dir, tc.want, tc.reason)
		})
	}
}

// A user's object that carries llsd's labels is the user's: it passes through a render, and
// through a render of the output. Only what llsd generated from an LLSD being rendered is
// replaced; an object generated from an LLSD that is not among the inputs stays, with a warning.
func TestRenderKeepsTheUsersObjects(t *testing.T) {
	userSecret := `apiVersion: v1
kind: Secret
metadata:
  name: mine
  namespace: ai
  labels: {app.kubernetes.io/managed-by: llsd}
` +
		"stringData: {token: S3NT1NEL}\n"
	orphan := `apiVersion: v1
kind: ConfigMap
metadata:
  name: gone-config-0123456789
  namespace: ai
` +
		`  annotations: {llamastack.io/generated-from: gone}
data: {a: b}
`
	dir := t.TempDir()
	writeFile(t, dir, "in.yaml", stack+"---\n"+userSecret+"---\n"+orphan)
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "S3NT1NEL", "the user's Secret passes through")
	assert.Contains(t, out, "name: gone-config-0123456789")
	assert.Contains(t, stderr, "ConfigMap gone-config-0123456789 was generated from LlamaStackDistribution ai/gone, which is not among the inputs")

	again := writeFile(t, t.TempDir(), "out.yaml", out)
	code, out2, stderr := run(t, "render", again)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, out, out2, "rendering the output again changes nothing")
}

// Hostile or broken input fails with an error that names the limit, instead of taking the
// memory or the time of the machine that renders it.
func TestRenderLimits(t *testing.T) {
	deep := strings.Repeat("{a: ", 9000) + "1" + strings.Repeat("}", 9000)
	var wide, long strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&wide, "k%d: %d, ", i, i)
	}
	for i := range 1000 {
		fmt.Fprintf(&long, "k%d: %s, ", i, strings.Repeat("v", 80))
	}
	withSettings := func(settings string) string {
		return strings.Replace(stack, "apiKey:", "settings: "+settings+", apiKey:", 1)
	}
	var many strings.Builder
	for i := range 2001 {
		fmt.Fprintf(&many, `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s%d}
spec: {distribution: {name: starter}}
---
`, i)
	}
	for _, tc := range []struct{ reason, doc, want string }{
		{reason: "settings nested 9,000 deep", doc: withSettings(deep), want: "settings are nested 9000 levels deep, more than the limit of 16"},
		{reason: "settings of 20,000 keys, counted before they are decoded", doc: withSettings("{" + wide.String() + "}"),
			want: "has 20000 keys at spec.providers.inference.settings, more than 4096"},
		{reason: "settings of 80 KiB", doc: withSettings("{" + long.String() + "}"), want: "settings: Too long: may not be more than 65536 bytes"},
		{reason: "2,001 LlamaStackDistributions", doc: many.String(), want: "2001 LlamaStackDistributions in one render, more than the limit of 2000"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "in.yaml", tc.doc)
			assertRefused(t, dir, tc.want, tc.reason)
		})
	}

	code, _, stderr := run(t, "render", os.DevNull, "/dev/zero")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "/dev/zero: more than 67108864 bytes of input")

	outside := writeFile(t, t.TempDir(), "secret.yaml", `apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {k: S3NT1NEL}
`)
	dir := t.TempDir()
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "link.yaml")))
	code, out, stderr := run(t, "render", dir)
	assert.Equal(t, 1, code)
	assert.NotContains(t, out+stderr, "S3NT1NEL")
	assert.Contains(t, stderr, "link.yaml cannot be read as a file of "+dir+" (a link to a file outside it?)")
}

// A directory is read as what it holds: links inside it are followed (by a relative or an
// absolute path), a link out of it is refused even when it is swapped in while llsd reads,
// and a pipe named *.yaml is skipped instead of waiting for a writer forever.
func TestRenderReadsADirectoryAsItIs(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "stack.yaml", stack)
	require.NoError(t, os.Mkdir(filepath.Join(dir, "more"), 0o755))
	writeFile(t, dir, "more/ns.yaml", `apiVersion: v1
kind: Namespace
metadata: {name: ai}
`)
	require.NoError(t, os.Symlink("more/ns.yaml", filepath.Join(dir, "relative.yaml")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "more", "ns.yaml"), filepath.Join(dir, "absolute.yaml")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.yaml"), 0o644))
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, 3, strings.Count(out, "kind: Namespace"), "the file and both links to it")

	outside := writeFile(t, t.TempDir(), "secret.yaml", `apiVersion: v1
kind: Secret
metadata: {name: s}
stringData: {k: S3NT1NEL}
`)
	swapped := filepath.Join(dir, "swapped.yaml")
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			target := filepath.Join(dir, "more", "ns.yaml")
			if i%2 == 1 {
				target = outside
			}
			_ = os.Remove(swapped)
			_ = os.Symlink(target, swapped)
		}
	}()
	for range 300 {
		_, out, stderr := run(t, "render", dir)
		if strings.Contains(out+stderr, "S3NT1NEL") {
			t.Error("a link swapped to a file outside the directory was read")
			break
		}
	}
	close(stop)
	<-done
}

// A RenderOptions document applies to the files of its directory and below, as a kpt
// package's function config does: two packages with their own options render side by side,
// and two options in one directory are an error. Options from the environment that are wrong
// are an error naming the variable, not an object.
func TestRenderOptionsApplyToTheirDirectory(t *testing.T) {
	root := t.TempDir()
	options := func(class string) string {
		return `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: llsd}
spec: {ingress: {className: ` + class + "}}\n"
	}
	exposed := func(name string) string {
		return strings.Replace(strings.Replace(stack, "my-stack", name, 1), "spec:\n", "spec:\n  networking: {expose: {hostname: "+name+".example.com}}\n", 1)
	}
	for _, pkg := range []string{"a", "b", filepath.Join("b", "c"), "plain"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, pkg), 0o755))
	}
	writeFile(t, filepath.Join(root, "a"), "fn.yaml", options("nginx"))
	writeFile(t, filepath.Join(root, "a"), "stack.yaml", exposed("alpha"))
	writeFile(t, filepath.Join(root, "b"), "fn.yaml", options("traefik"))
	writeFile(t, filepath.Join(root, "b", "c"), "stack.yaml", exposed("beta"))
	writeFile(t, filepath.Join(root, "plain"), "stack.yaml", exposed("gamma"))

	code, out, stderr := run(t, "render", root)
	require.Equal(t, 0, code, stderr)
	classes := map[string]string{}
	for _, doc := range strings.Split(out, "\n---\n") {
		var o struct {
			Kind     string                `json:"kind"`
			Metadata struct{ Name string } `json:"metadata"`
			Spec     struct {
				IngressClassName string `json:"ingressClassName"`
			} `json:"spec"`
		}
		require.NoError(t, yaml.Unmarshal([]byte(doc), &o))
		if o.Kind == "Ingress" {
			classes[o.Metadata.Name] = o.Spec.IngressClassName
		}
	}
	assert.Equal(t, map[string]string{"alpha-ingress": "nginx", "beta-ingress": "traefik", "gamma-ingress": ""}, classes,
		"each takes the options of its package; gamma is under none")

	writeFile(t, filepath.Join(root, "a"), "more-fn.yaml", options("haproxy"))
	code, out, stderr = run(t, "validate", root)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "two RenderOptions documents for the files of "+filepath.Join(root, "a"))
	require.NoError(t, os.Remove(filepath.Join(root, "a", "more-fn.yaml")))

	t.Setenv("LLSD_PLATFORM", "gke")
	code, out, stderr = run(t, "validate", filepath.Join(root, "plain"))
	assert.Equal(t, 1, code)
	assert.Empty(t, out, "no summary of objects: the options are wrong")
	assert.Equal(t, "llsd validate: with the render options of the environment (LLSD_PLATFORM): RenderOptions fn.llamastack.io/v1alpha1: spec.platform \"gke\": use kubernetes or openshift\n", stderr)
}

// A directory is read as kpt reads a package: what its .krmignore ignores is left out (an
// expected output next to its source would be the same LLSD twice), and a kpt package below
// (a directory with a Kptfile) follows its own .krmignore, not its parent's.
func TestRenderHonoursKRMIgnore(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "pkg", "out"), 0o755))
	writeFile(t, root, ".krmignore", "expected.yaml\n/pkg/out/\n")
	writeFile(t, root, "stack.yaml", stack)
	writeFile(t, root, "expected.yaml", stack)
	writeFile(t, filepath.Join(root, "pkg", "out"), "stack.yaml", stack)
	code, out, stderr := run(t, "validate", root)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "1 LlamaStackDistribution(s) checked, 0 invalid\n", out)

	// A kpt package below: the root's /pkg/out/ does not reach into it, its own file does.
	writeFile(t, filepath.Join(root, "pkg"), "Kptfile", `apiVersion: kpt.dev/v1
kind: Kptfile
metadata: {name: pkg}
`)
	writeFile(t, filepath.Join(root, "pkg", "out"), "stack.yaml", strings.Replace(stack, "my-stack", "other", 1))
	code, out, stderr = run(t, "validate", root)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "2 LlamaStackDistribution(s) checked, 0 invalid\n", out)
	writeFile(t, filepath.Join(root, "pkg"), ".krmignore", "out/\n")
	code, out, stderr = run(t, "validate", root)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, "1 LlamaStackDistribution(s) checked, 0 invalid\n", out)
}

// A base config ConfigMap among the inputs reaches the render: the function reads only the
// ConfigMaps an LLSD references, and spec.distribution.baseConfig is one of those references.
func TestRenderReadsTheBaseConfigConfigMap(t *testing.T) {
	dir := t.TempDir()
	imageConfig, err := distributions.FS.ReadFile("starter/0.7.yaml") // stands in for the config the image ships
	require.NoError(t, err)
	writeFile(t, dir, "base.yaml", `apiVersion: v1
kind: ConfigMap
metadata: {name: base, namespace: ai}
data:
  run.yaml: |
    `+
		strings.ReplaceAll(strings.TrimSuffix(string(imageConfig), "\n"), "\n", "\n    ")+"\n")
	writeFile(t, dir, "stack.yaml", strings.Replace(stack, "distribution: {name: starter}",
		`distribution: {image: "quay.io/example/llama-stack:1", serverVersion: "0.7", baseConfig: {configMapName: base, key: run.yaml}}`, 1))
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "llamastack.io/config-source: configmap")
	assert.Contains(t, out, "llamastack.io/base-config: ConfigMap base key run.yaml")
}

// Two directories, each with its own RenderOptions, are rendered apart, yet an object defined
// in both would generate the same objects twice: refused by render and validate alike, naming
// both files.
func TestOneLLSDPerNameAcrossDirectories(t *testing.T) {
	root := t.TempDir()
	llsd := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec: {distribution: {name: starter}}
`
	options := `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: llsd}
spec: {platform: kubernetes}
`
	for _, dir := range []string{"team-a", "team-b"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, dir), 0o755))
		writeFile(t, filepath.Join(root, dir), "llsd.yaml", llsd)
		writeFile(t, filepath.Join(root, dir), "options.yaml", options)
	}
	for _, command := range []string{"render", "validate"} {
		code, out, stderr := run(t, command, root)
		assert.Equal(t, 1, code, command)
		assert.Contains(t, stderr, "LlamaStackDistribution ai/chat appears twice ("+filepath.Join(root, "team-a", "llsd.yaml")+" and "+
			filepath.Join(root, "team-b", "llsd.yaml")+")", command)
		if command == "render" {
			assert.Empty(t, out, "no partial output")
		}
	}
}

// The RenderOptions at the top of a tree is the platform's; one in a tenant's directory below
// may tighten it but not loosen it: a tenant that allows privileged pods is refused, naming
// both files, and nothing is rendered.
func TestATenantsOptionsCannotLoosenThePlatforms(t *testing.T) {
	root := t.TempDir()
	tenant := filepath.Join(root, "tenants", "team-a")
	require.NoError(t, os.MkdirAll(tenant, 0o755))
	options := func(spec string) string {
		return `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: llsd}
spec: {` + spec + "}\n"
	}
	hostRoot := strings.Replace(stack, "spec:\n", `spec:
  workload:
    overrides: {volumes: [{name: root, hostPath: {path: /}}], volumeMounts: [{name: root, mountPath: /host}]}
`, 1)
	writeFile(t, root, "options.yaml", options("podSecurity: baseline"))
	writeFile(t, tenant, "options.yaml", options("podSecurity: privileged"))
	writeFile(t, tenant, "stack.yaml", hostRoot)

	code, out, stderr := run(t, "render", root)
	assert.Equal(t, 1, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, filepath.Join(tenant, "options.yaml")+", below "+filepath.Join(root, "options.yaml"))
	assert.Contains(t, stderr, "spec.podSecurity privileged is looser than baseline above it")

	writeFile(t, tenant, "options.yaml", options("podSecurity: restricted, ingress: {className: nginx}"))
	code, out, stderr = run(t, "render", root)
	assert.Equal(t, 1, code, "the tenant's stricter standard applies")
	assert.Empty(t, out)
	assert.Contains(t, stderr, `Pod Security Standard "restricted"`)
}

// What render and validate read, and what they say when there is nothing: a missing path is an
// error (exit 1, as every error), nothing to render is said on stderr, a JSON file in a
// directory is read as kpt reads it, and validate over the examples passes (#44).
func TestInputsAreReadAndSaid(t *testing.T) {
	code, _, stderr := run(t, "render", filepath.Join(t.TempDir(), "missing.yaml"))
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "no such file or directory")

	empty := t.TempDir()
	code, out, stderr := run(t, "render", empty)
	assert.Equal(t, 0, code)
	assert.Empty(t, out)
	assert.Contains(t, stderr, "llsd render: no LlamaStackDistribution or OGXServer found in "+empty)

	dir := t.TempDir()
	writeFile(t, dir, "stack.json", `{"apiVersion": "llamastack.io/v1alpha2", "kind": "LlamaStackDistribution",
  "metadata": {"name": "from-json", "namespace": "ai"}, "spec": {"distribution": {"name": "starter"}}}`)
	code, out, stderr = run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "name: from-json-config-")

	code, _, stderr = run(t, "validate", filepath.Join("..", "..", "examples"))
	assert.Equal(t, 0, code, stderr)
}

// Each command's help is its own, however it is asked for (#44).
func TestHelpIsTheCommands(t *testing.T) {
	_, viaHelp, _ := run(t, "help", "render")
	_, viaFlag, _ := run(t, "render", "--help")
	assert.Equal(t, viaFlag, viaHelp, "llsd help render is llsd render --help")
	assert.Contains(t, viaFlag, "OGXServers", "render's help names both kinds it renders")
	code, out, _ := run(t, "version", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Usage: llsd version")
}

// A file's aliases (*name) are expanded as kustomize expands them, so that llsd render gives
// the objects kustomize build does (it panicked where the SDK looks a field up, metadata's
// namespace here); an object they would blow up is refused before it is expanded.
func TestRenderExpandsAliases(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "in.yaml", `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: &n stack, namespace: *n}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000/v1"}
  resources: {models: [llama3]}
`)
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "name: stack\n  namespace: stack\n", "the alias is its value")
	assert.NotContains(t, out, "*n")

	writeFile(t, dir, "in.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {"+yamlbomb.Laughs(9)+"}\n")
	code, _, stderr = run(t, "render", dir)
	assert.NotEqual(t, 0, code)
	assert.Contains(t, stderr, "its aliases (*name) expand it to more than 1 MiB or 100000 nodes")
}
