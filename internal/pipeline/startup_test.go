// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// renderInput is one LlamaStackDistribution the suites render, with its options.
type renderInput struct {
	name string
	doc  []byte
	opts pipeline.Options
}

// kserveBeside are the InferenceServices and ServingRuntimes of the files beside file: an
// example's package.
func kserveBeside(t testing.TB, file string) pipeline.KServe {
	siblings, err := filepath.Glob(filepath.Join(filepath.Dir(file), "*.yaml"))
	require.NoError(t, err)
	var items fn.KubeObjects
	for _, sibling := range siblings {
		data, err := os.ReadFile(sibling)
		require.NoError(t, err)
		if !strings.Contains(string(data), "serving.kserve.io") || strings.HasSuffix(sibling, "expected.yaml") {
			continue
		}
		more, err := fn.ParseKubeObjects(data)
		require.NoError(t, err)
		for _, item := range more {
			if ns := kustomizeNamespace(t, filepath.Dir(file)); ns != "" && item.GetNamespace() == "" {
				require.NoError(t, item.SetNamespace(ns))
			}
		}
		items = append(items, more...)
	}
	return krm.KServeObjects(items)
}

// kustomizeNamespace is the namespace a kustomization in dir gives its resources ("" for
// none), as kustomize build sets it before llsd renders.
func kustomizeNamespace(t testing.TB, dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "kustomization.yaml"))
	if err != nil {
		return ""
	}
	var k struct {
		Namespace string `json:"namespace"`
	}
	require.NoError(t, yaml.Unmarshal(data, &k))
	return k.Namespace
}

// inKustomizeNamespace is an example's LLSD document in the namespace its kustomization gives
// it, or the Argo CD example's in its Application's destination namespace.
func inKustomizeNamespace(t testing.TB, file string, doc []byte) []byte {
	ns := kustomizeNamespace(t, filepath.Dir(file))
	if strings.Contains(file, filepath.Join("examples", "argocd")) {
		ns = "ai" // ARGOCD_APP_NAMESPACE, as TestArgoCDPluginGenerate runs the plugin
	}
	if ns == "" {
		return doc
	}
	var obj map[string]any
	require.NoError(t, yaml.Unmarshal(doc, &obj))
	if metadata, _ := obj["metadata"].(map[string]any); metadata != nil && metadata["namespace"] == nil {
		metadata["namespace"] = ns
	}
	out, err := yaml.Marshal(obj)
	require.NoError(t, err)
	return out
}

// renderInputs are the LlamaStackDistributions of every golden case that renders (config
// and render suites), every example and every v1alpha1 sample.
func renderInputs(t testing.TB) []renderInput {
	var inputs []renderInput
	root := filepath.Join("..", "..")
	configCases, err := filepath.Glob(filepath.Join(root, "internal", "config", "testdata", "*", "llsd.yaml"))
	require.NoError(t, err)
	renderCases, err := filepath.Glob(filepath.Join(root, "internal", "render", "testdata", "*", "llsd.yaml"))
	require.NoError(t, err)
	for _, file := range append(configCases, renderCases...) {
		dir := filepath.Dir(file)
		if _, err := os.Stat(filepath.Join(dir, "error.txt")); err == nil {
			continue
		}
		opts := pipeline.Options{RendererVersion: "test"}
		if raw, err := os.ReadFile(filepath.Join(dir, "options.yaml")); err == nil {
			target := any(&opts.Distribution)
			if strings.Contains(dir, filepath.Join("render", "testdata")) {
				target = &opts.Render
			}
			require.NoError(t, yaml.UnmarshalStrict(raw, target), dir)
		}
		doc, err := os.ReadFile(file)
		require.NoError(t, err)
		inputs = append(inputs, renderInput{name: strings.TrimPrefix(dir, root+"/"), doc: doc, opts: opts})
	}
	examples, err := filepath.Glob(filepath.Join(root, "examples", "*", "*.yaml"))
	require.NoError(t, err)
	more, err := filepath.Glob(filepath.Join(root, "examples", "*", "*", "*.yaml"))
	require.NoError(t, err)
	for _, file := range append(examples, more...) {
		data, err := os.ReadFile(file)
		require.NoError(t, err)
		for i, doc := range strings.Split(string(data), "\n---\n") {
			if strings.Contains(doc, "kind: LlamaStackDistribution") && !strings.Contains(file, "expected") {
				opts := pipeline.Options{RendererVersion: "test", KServe: kserveBeside(t, file)}
				inputs = append(inputs, renderInput{name: strings.TrimPrefix(file, root+"/") + "#" + string(rune('0'+i)),
					doc: inKustomizeNamespace(t, file, []byte(doc)), opts: opts})
			}
		}
	}
	samples := v1alpha1Samples(t, "")
	for _, name := range slices.Sorted(maps.Keys(samples)) {
		inputs = append(inputs, renderInput{name: "internal/pipeline/testdata/v1alpha1/" + name, doc: samples[name],
			opts: pipeline.Options{RendererVersion: "test"}})
	}
	return inputs
}

// Every rendered server starts: its config.yaml, read with the environment and volumes of the
// rendered Deployment, passes the server's strict schema and its start-up rules. What only a
// contact with another service decides is a render warning.
func TestRenderedServersStart(t *testing.T) {
	inputs := renderInputs(t)
	require.Greater(t, len(inputs), 50)
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			obj, errs := api.Decode(in.doc)
			require.Empty(t, errs)
			res, errs := pipeline.Render(obj, in.opts)
			require.Empty(t, errs)
			checkStarts(t, res)
		})
	}
}

// Secrets reach only the config keys the spec gave them: with every Secret variable of the
// rendered pod set to a sentinel, the config the server reads has the sentinel at those keys
// and nowhere else (not in a model id, a shield, an endpoint...).
func TestSecretsReachOnlyTheirKeys(t *testing.T) {
	for _, in := range renderInputs(t) {
		obj, errs := api.Decode(in.doc)
		require.Empty(t, errs)
		res, errs := pipeline.Render(obj, in.opts)
		require.Empty(t, errs)
		config, dep := renderedServer(res)
		if config == nil {
			continue
		}
		secretKeys := map[string]bool{}
		values := map[string]string{}
		for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				values[e.Name] = "S3NT1NEL" + e.Name
				secretKeys[e.Name] = true
			}
		}
		tree, err := configyaml.UnmarshalMap(config)
		require.NoError(t, err)
		expanded, err := servercheck.SubstituteFor(res.LLSD.Annotations[api.AnnotationServerVersion], tree, servercheck.FixtureEnv(values), "/")
		require.NoError(t, err, in.name)
		walk(expanded, "", func(path, key, value string) {
			if strings.Contains(value, "S3NT1NEL") {
				assert.True(t, credentialKey(key), "%s: a secret reached %s", in.name, path)
			}
		})
	}
}

// credentialKey is a config key that holds a credential.
func credentialKey(key string) bool {
	return regexp.MustCompile(`(^|_)(password|token|api_key|key|credential|user|secret)$`).MatchString(key)
}

func walk(v any, path string, fn func(path, key, value string)) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok {
				fn(path+"."+k, k, s)
				continue
			}
			walk(x, path+"."+k, fn)
		}
	case []any:
		for i, x := range t {
			walk(x, fmt.Sprintf("%s[%d]", path, i), fn)
		}
	}
}

// renderedServer is the config.yaml and Deployment of a render (nil config: overrideConfig).
func renderedServer(res *pipeline.Result) ([]byte, *appsv1.Deployment) {
	var config []byte
	var dep *appsv1.Deployment
	for _, o := range res.Objects {
		switch o := o.(type) {
		case *corev1.ConfigMap:
			if c, ok := o.Data[render.ConfigKey]; ok { // not the trusted-CA ConfigMap
				config = []byte(c)
			}
		case *appsv1.Deployment:
			dep = o
		}
	}
	return config, dep
}

// checkStarts runs the start-up oracle on a rendered LlamaStackDistribution.
func checkStarts(t *testing.T, res *pipeline.Result) {
	config, dep := renderedServer(res)
	if config == nil {
		return // overrideConfig: the user's config
	}
	require.NotNil(t, dep)
	var warnings []string
	for _, w := range res.Warnings {
		warnings = append(warnings, w.String())
	}
	checkServerStarts(t, res.LLSD.Annotations[api.AnnotationServerVersion], config, dep, warnings)
}

// checkServerStarts runs the start-up oracle on a config.yaml as the rendered Deployment runs it,
// for a server version: what only a contact with another service decides needs a warning.
func checkServerStarts(t *testing.T, version string, config []byte, dep *appsv1.Deployment, warnings []string) {
	t.Helper()
	if _, known := servercheck.Releases[version]; !known && strings.HasPrefix(version, "1.") {
		version = "1.3" // a newer 1.x: the server promises to load what 1.3 loads
	}
	problems, err := servercheck.CheckDeployment(version, config, dep, api.ContainerName)
	require.NoError(t, err)
	for _, p := range problems {
		if p.Network {
			assert.True(t, mentions(warnings, p.Subject), "%v needs a render warning about %q; warnings: %v", p, p.Subject, warnings)
			continue
		}
		assert.Fail(t, "the server would not start, or misbehave", "%v", p)
	}
}

func mentions(lines []string, subject string) bool {
	for _, l := range lines {
		if strings.Contains(l, subject) {
			return true
		}
	}
	return false
}

// FuzzRender: whatever LlamaStackDistribution renders, renders a server that starts. The
// seeds are the golden cases and examples; `make fuzz` mutates them.
func FuzzRender(f *testing.F) {
	for _, in := range renderInputs(f) {
		f.Add(in.doc)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		obj, errs := api.Decode(doc)
		if len(errs) > 0 {
			return
		}
		res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "fuzz"})
		if len(errs) > 0 {
			return
		}
		checkStarts(t, res)
	})
}

// olderVersionLacks are the user stories an older server version cannot serve, with the error
// that says why.
var olderVersionLacks = map[string]string{
	"0.6/internal/config/testdata/disabled-agents-on-0.7":             "eval needs agents",
	"0.6/internal/config/testdata/disabled-eval-family":               "post_training needs datasetio",
	"0.6/internal/config/testdata/disabled-vector-io-with-dependents": "agents needs vector_io",
	"0.6/internal/config/testdata/model-metadata":                     "llama-stack 0.6 has no rerank models",
	"0.6/internal/config/testdata/unrouted-apis-replace-base":         "llama-stack 0.6 has no responses API",
	"0.7/internal/config/testdata/unrouted-apis-replace-base":         "has no config key moderation_endpoint in llama-stack 0.7",
	"0.8/internal/config/testdata/unrouted-apis-replace-base":         "has no config key moderation_endpoint in OGX 0.8",
}

// versionLacks is the error of a user story a server version cannot serve, "" for one it can:
// the stories of olderVersionLacks, and those that ask a version without the Safety API (OGX
// 1.0 on) for safety providers or shields.
func versionLacks(name string, story *v1alpha2.LlamaStackDistribution, v profile.Version) string {
	if lacks, ok := olderVersionLacks[name]; ok {
		return lacks
	}
	p, _ := profile.For(v)
	usesSafety := story.Spec.Providers != nil && len(story.Spec.Providers.Safety) > 0 ||
		story.Spec.Resources != nil && len(story.Spec.Resources.Shields) > 0 ||
		story.Spec.ExternalProviders != nil && len(story.Spec.ExternalProviders.Safety) > 0
	if usesSafety && !p.HasAPI("safety") {
		return "has no safety API"
	}
	if story.Spec.Monitoring != nil && !p.MetricsEndpoint {
		return "serves no Prometheus metrics"
	}
	if lacks := authenticationLacks(story.Spec.Authentication, p); lacks != "" {
		return lacks
	}
	if lacks := serverSettingsLack(story, p); lacks != "" {
		return lacks
	}
	if st := story.Spec.Storage; st != nil && len(st.Backends) > 0 {
		if p.PostgresBackendKeys == nil {
			return "keeps prompts and connectors in key-value stores"
		}
		for _, b := range st.Backends {
			if b.CommandTimeout != nil && !slices.Contains(p.PostgresBackendKeys[b.Type], "command_timeout") {
				return "does not accept commandTimeout"
			}
		}
	}
	return ""
}

// authenticationLacks is the error of an authentication field the version's provider lacks.
func authenticationLacks(a *v1alpha2.AuthenticationSpec, p *profile.Profile) string {
	switch {
	case a == nil:
	case a.UpstreamHeader != nil && len(p.AuthKeys("upstream_header")) == 0:
		return "has no upstream_header authentication provider"
	case a.UpstreamHeader != nil && len(a.UpstreamHeader.AttributeHeaders) > 0 && !slices.Contains(p.AuthKeys("upstream_header"), "attribute_headers"):
		return "has no attribute_headers"
	case a.Kubernetes != nil && a.Kubernetes.TenantClaim != "", a.OIDC != nil && a.OIDC.TenantClaim != "":
		if !slices.Contains(p.AuthKeys("kubernetes"), "tenant_claim") {
			return "has no tenant_claim"
		}
	}
	return ""
}

// serverSettingsLack is the error of a server setting the version lacks.
func serverSettingsLack(story *v1alpha2.LlamaStackDistribution, p *profile.Profile) string {
	n, a := story.Spec.Networking, story.Spec.Authentication
	for key, used := range map[string]bool{
		"cors":         n != nil && n.CORS != nil,
		"tls_config":   n != nil && n.TLS != nil && len(n.TLS.Ciphers) > 0,
		"hsts_max_age": n != nil && n.TLS != nil && n.TLS.HSTSMaxAge != nil,
		"tenancy":      a != nil && a.Tenancy != nil,
	} {
		if used && !slices.Contains(p.ServerKeys(), key) {
			return "has no server." + key
		}
	}
	return ""
}

// userStoryOnEveryRelease renders a story of rh-dev for every OpenShift AI release llsd
// generates configs for, whose server version the release decides.
func userStoryOnEveryRelease(t *testing.T, in renderInput, obj *v1alpha2.LlamaStackDistribution) {
	for _, r := range distribution.Releases {
		if r.BaseConfigFile() == "" {
			continue
		}
		t.Run(r.Name+"/"+in.name, func(t *testing.T) {
			opts := in.opts
			opts.Distribution.OpenShiftAIRelease = r.Name
			res, errs := pipeline.Render(obj.DeepCopy(), opts)
			require.Empty(t, errs)
			checkStarts(t, res)
		})
	}
}

// The user stories (the golden cases and examples that name a distribution, whichever
// version they pin) on every supported server version: each renders a server that starts, or
// fails with the error that says what that version lacks.
func TestUserStoriesOnEveryVersion(t *testing.T) {
	for _, in := range renderInputs(t) {
		obj, errs := api.Decode(in.doc)
		require.Empty(t, errs)
		if obj.Spec.Distribution.Name == "" || obj.Spec.OverrideConfig != nil || len(in.opts.Distribution.ImageOverrides) > 0 {
			continue
		}
		if obj.Spec.Distribution.Name == distribution.RHDev {
			userStoryOnEveryRelease(t, in, obj)
			continue
		}
		for _, v := range profile.Supported() {
			name := string(v) + "/" + in.name
			t.Run(name, func(t *testing.T) {
				story := obj.DeepCopy()
				story.Spec.Distribution.ServerVersion = string(v)
				res, errs := pipeline.Render(story, in.opts)
				if lacks := versionLacks(name, story, v); lacks != "" {
					assert.ErrorContains(t, errs.ToAggregate(), lacks)
					return
				}
				require.Empty(t, errs)
				checkStarts(t, res)
			})
		}
	}
}
