// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// platformSpec is the platform's options in every front end of TestOptionsPrecedence: a
// baseline Pod Security Standard, and authentication required of exposed servers.
const platformSpec = "{podSecurity: baseline, requireAuthentication: true}"

// platformVariables pin the same options as the Argo CD sidecar pins them, every platform
// option set.
var platformVariables = map[string]string{"LLSD_POD_SECURITY": "baseline", "LLSD_REQUIRE_AUTHENTICATION": "true",
	"LLSD_IMAGE_OVERRIDES": "", "LLSD_DISTRIBUTIONS": "", "LLSD_REGISTRY_ENABLED": "false", "LLSD_REGISTRY_INSECURE_HOSTS": "",
	"LLSD_OPENSHIFT_AI_RELEASE": ""}

// optionsDoc is a RenderOptions document with spec.
func optionsDoc(name, spec string) string {
	return "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata:\n  name: " + name +
		"\n  annotations: {config.kubernetes.io/local-config: \"true\"}\nspec: " + spec + "\n"
}

// tenantStack is a tenant's LLSD named team, with more spec lines.
func tenantStack(spec string) string {
	return "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: team, namespace: team-a}\n" +
		"spec:\n  distribution: {name: starter}\n" + spec
}

// A frontEnd renders a package whose platform options are platformSpec (however that front end
// takes a platform's options) and whose directory team/ holds a tenant's files; it returns the
// rendered objects, or the refusal on stderr.
type frontEnd struct {
	name   string
	render func(t *testing.T, tenant map[string]string) (out []byte, refusal string)
}

// The one precedence rule of render options (internal/krm/precedence.go), held in every front
// end: the renderer's pinned variables, then the function config, then each package's
// RenderOptions from the top down, and below the top a source may only tighten. A tenant's
// RenderOptions beside its LLSD cannot loosen what the platform set however the platform set
// it (F7: before, a subdirectory's RenderOptions replaced the function config's), and what it
// tightens holds.
func TestOptionsPrecedence(t *testing.T) {
	nfs := "  workload:\n    overrides: {volumes: [{name: shared, nfs: {server: nfs.example.com, path: /export}}], " +
		"volumeMounts: [{name: shared, mountPath: /shared}]}\n"
	hostRoot := "  workload:\n    overrides: {volumes: [{name: root, hostPath: {path: /}}], volumeMounts: [{name: root, mountPath: /host}]}\n"
	exposed := "  networking: {expose: {hostname: team.apps.example.com}}\n"
	for _, tc := range []struct {
		reason  string
		options string // the tenant's RenderOptions spec ("": none)
		stack   string // more of the tenant's LLSD spec
		refusal string // "" to render
		assert  func(t *testing.T, out string)
	}{
		{reason: "a looser standard would let a hostPath through", options: "{podSecurity: privileged}", stack: hostRoot,
			refusal: "spec.podSecurity privileged is looser than baseline above it"},
		{reason: "the platform's standard holds where the tenant names none", options: "{ingress: {className: traefik}}", stack: hostRoot,
			refusal: `the pods would not meet the Pod Security Standard "baseline"`},
		{reason: "an image of the tenant's choice for a catalog name", options: "{imageOverrides: {starter: evil.example/starter:0.7.1}}",
			refusal: "spec.imageOverrides[starter] maps a name the options above do not map so"},
		{reason: "an OpenShift AI release the platform does not name", options: "{openshiftAI: {release: \"3.4\"}}",
			refusal: "spec.openshiftAI.release 3.4 is not the release the options above name (none)"},
		{reason: "registry reads the platform leaves off", options: "{registry: {enabled: true}}",
			refusal: "spec.registry.enabled turns on registry reads the options above leave off"},
		{reason: "requireAuthentication cannot be unset below", options: "{requireAuthentication: false, ingress: {className: traefik}}", stack: exposed,
			refusal: "the render option requireAuthentication refuses it"},
		{reason: "a stricter standard holds", options: "{podSecurity: restricted}", stack: nfs,
			refusal: `the pods would not meet the Pod Security Standard "restricted"`},
		{reason: "within the platform's standard, the tenant's own options apply", options: "{ingress: {className: traefik}}", stack: nfs,
			assert: func(t *testing.T, out string) { assert.Contains(t, out, "nfs.example.com") }},
		{reason: "no tenant options: the platform's", stack: nfs,
			assert: func(t *testing.T, out string) { assert.Contains(t, out, "nfs.example.com") }},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			tenant := map[string]string{"llsd.yaml": tenantStack(tc.stack)}
			if tc.options != "" {
				tenant["options.yaml"] = optionsDoc("team", tc.options)
			}
			for _, fe := range frontEnds(t) {
				t.Run(fe.name, func(t *testing.T) {
					out, refusal := fe.render(t, tenant)
					if tc.refusal != "" {
						assert.Contains(t, refusal, tc.refusal, "the same refusal in every front end")
						assert.NotContains(t, string(out), "kind: Deployment", "never a partial render")
						return
					}
					require.Empty(t, refusal)
					tc.assert(t, string(out))
				})
			}
		})
	}
}

// frontEnds are the ways a platform gives its options: the renderer's variables (the Argo CD
// sidecar), a RenderOptions at the top of the tree, the function's config (kpt fn eval
// --fn-config, a kpt pipeline's configPath, kustomize's transformer file).
func frontEnds(t *testing.T) []frontEnd {
	kpt := kptPath(t)
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	return []frontEnd{
		{"llsd render with the renderer's variables", func(t *testing.T, tenant map[string]string) ([]byte, string) {
			root := packageWith(t, nil, tenant)
			cmd := exec.Command(llsdBinary, "render", root)
			cmd.Env = os.Environ()
			for k, v := range platformVariables {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			return output(t, cmd)
		}},
		{"llsd render with a RenderOptions at the top", func(t *testing.T, tenant map[string]string) ([]byte, string) {
			root := packageWith(t, map[string]string{"platform.yaml": optionsDoc("platform", platformSpec)}, tenant)
			return output(t, exec.Command(llsdBinary, "render", root))
		}},
		{"the function with a function config", func(t *testing.T, tenant map[string]string) ([]byte, string) {
			list := map[string]any{"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList",
				"functionConfig": document(t, optionsDoc("platform", platformSpec), "")}
			var items []any
			for _, name := range sortedNames(tenant) {
				items = append(items, document(t, tenant[name], "team/"+name)) // the annotations kpt gives a file's objects
			}
			list["items"] = items
			data, err := yaml.Marshal(list)
			require.NoError(t, err)
			cmd := exec.Command(llsdBinary)
			cmd.Stdin = bytes.NewReader(data)
			return output(t, cmd)
		}},
		{"kpt fn eval --fn-config", func(t *testing.T, tenant map[string]string) ([]byte, string) {
			root := packageWith(t, nil, tenant)
			platform := filepath.Join(t.TempDir(), "platform.yaml")
			require.NoError(t, os.WriteFile(platform, []byte(optionsDoc("platform", platformSpec)), 0o644))
			return output(t, exec.Command(kpt, "fn", "eval", "--exec", llsdBinary, "--fn-config", platform, "-o", "unwrap", root))
		}},
		{"kpt fn render with configPath", func(t *testing.T, tenant map[string]string) ([]byte, string) {
			root := packageWith(t, map[string]string{"platform.yaml": optionsDoc("platform", platformSpec),
				"Kptfile": "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: root\n  annotations: {config.kubernetes.io/local-config: \"true\"}\n" +
					"pipeline:\n  mutators:\n  - exec: " + llsdBinary + "\n    configPath: platform.yaml\n"}, tenant)
			return output(t, exec.Command(kpt, "fn", "render", "--allow-exec", "-o", "unwrap", root))
		}},
		{"kustomize with the transformer's file", func(t *testing.T, tenant map[string]string) ([]byte, string) {
			resources := []string{}
			for _, name := range sortedNames(tenant) {
				resources = append(resources, "team/"+name)
			}
			root := packageWith(t, map[string]string{
				"kustomization.yaml": "resources: [" + strings.Join(resources, ", ") + "]\ntransformers: [platform.yaml]\n",
				"platform.yaml": strings.Replace(optionsDoc("platform", platformSpec), "  annotations: {config.kubernetes.io/local-config: \"true\"}\n",
					functionAnnotation()+"    config.kubernetes.io/local-config: \"true\"\n", 1)}, tenant)
			return output(t, exec.Command(kustomize, "build", "--enable-alpha-plugins", "--enable-exec", root))
		}},
	}
}

// packageWith writes a package: top's files at its root, the tenant's in team/.
func packageWith(t *testing.T, top, tenant map[string]string) string {
	root := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(root, "team"), 0o755))
	writeFiles(t, root, top)
	writeFiles(t, filepath.Join(root, "team"), tenant)
	return root
}

// output runs cmd: its stdout when it succeeds, else its stderr (and what stdout held: kpt and
// the function write their results there).
func output(t *testing.T, cmd *exec.Cmd) ([]byte, string) {
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "%s: %s", cmd.Path, stderr.String())
		return nil, stderr.String() + string(out)
	}
	return out, ""
}

// document is a YAML document as a ResourceList item, from file ("" for none) as kpt names it.
func document(t *testing.T, doc, file string) map[string]any {
	var o map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(doc), &o))
	if file != "" {
		metadata := o["metadata"].(map[string]any)
		annotations, _ := metadata["annotations"].(map[string]any)
		if annotations == nil {
			annotations = map[string]any{}
		}
		annotations["internal.config.kubernetes.io/path"], annotations["config.kubernetes.io/path"] = file, file
		metadata["annotations"] = annotations
	}
	return o
}

func sortedNames(files map[string]string) []string {
	var names []string
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
