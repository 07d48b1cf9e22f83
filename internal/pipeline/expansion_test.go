// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// No value a user writes reads a secret, by any expansion: every user string field gets
// references to each of llsd's secret variables in each syntax that could read one (the
// kubelet's $(NAME), the server's ${env.NAME}, percent-encoded, escaped), and the render
// either refuses it or produces a pod in which, after the kubelet's expansion and the
// server's substitution with every Secret set to a sentinel, the sentinel appears only in the
// secret variables themselves and at credential keys of the config.
func TestNoUserValueReadsASecret(t *testing.T) {
	base := []byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference: [{id: vllm, provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: {secretKeyRef: {name: k, key: k}}}]
    vectorIo: [{id: pgvector, provider: pgvector, endpoint: "postgresql://pg:5432/vectors", secretRefs: {user: {secretKeyRef: {name: v, key: u}}, password: {secretKeyRef: {name: v, key: v}}}}]
  storage:
    kv: {type: redis, endpoint: "redis:6379", password: {secretKeyRef: {name: r, key: r}}}
    sql: {type: postgres, connectionString: {secretKeyRef: {name: p, key: p}}}
  telemetry: {endpoint: "http://otel:4318", headers: {authorization: {secretKeyRef: {name: t, key: t}}}}
  workload:
    storage: {mountPath: /data}
    overrides:
      env: [{name: MY_URL, value: "http://other:1/v1"}]
`)
	secretVars := []string{"LLSD_VLLM_API_KEY", "LLSD_PGVECTOR_PASSWORD", "LLSD_STORAGE_KV_PASSWORD",
		"LLSD_STORAGE_SQL_CONNECTION_STRING", "OTEL_EXPORTER_OTLP_HEADERS"}
	forms := func(name string) []string {
		return []string{"$(" + name + ")", "${env." + name + "}", "${env." + name + ":=x}", "$$(" + name + ")",
			url.PathEscape("${env." + name + "}"), "%24%7Benv." + name + "%7D", "%2524%257Benv." + name + "%257D",
			"%24%28" + name + "%29", "%24%7Benv." + name + "%7D%zz"}
	}
	setters := map[string]func(s *v1alpha2.LlamaStackDistributionSpec, v string){
		"model name":      func(s *v1alpha2.LlamaStackDistributionSpec, v string) { models(s).Name = v },
		"providerModelId": func(s *v1alpha2.LlamaStackDistributionSpec, v string) { models(s).ProviderModelID = v },
		"quantization":    func(s *v1alpha2.LlamaStackDistributionSpec, v string) { models(s).Quantization = v },
		"shield": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Resources = &v1alpha2.ResourcesSpec{Shields: []string{v}}
		},
		"endpoint path":     func(s *v1alpha2.LlamaStackDistributionSpec, v string) { s.Providers.Inference[0].Endpoint += "/" + v },
		"endpoint query":    func(s *v1alpha2.LlamaStackDistributionSpec, v string) { s.Providers.Inference[0].Endpoint += "?x=" + v },
		"pgvector database": func(s *v1alpha2.LlamaStackDistributionSpec, v string) { s.Providers.VectorIo[0].Endpoint += v },
		"settings value": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Providers.Inference[0].Settings = settings(map[string]any{"tls_verify": v})
		},
		"settings nested": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Providers.Inference[0].Settings = settings(map[string]any{"network": map[string]any{"proxy": v}})
		},
		"env read by settings": func(s *v1alpha2.LlamaStackDistributionSpec, v string) { setEnv(s, v, "${env.MY_URL}") },
		"env value":            func(s *v1alpha2.LlamaStackDistributionSpec, v string) { setEnv(s, v, "") },
		"command": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Workload.Overrides.Command = []string{"run", v}
		},
		"args": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Workload.Overrides.Args = []string{"--x=" + v}
		},
		"subPathExpr": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Workload.Overrides.VolumeMounts = []corev1.VolumeMount{{Name: "lls-storage", MountPath: "/more", SubPathExpr: v}}
		},
		"telemetry endpoint":     func(s *v1alpha2.LlamaStackDistributionSpec, v string) { s.Telemetry.Endpoint += "/" + v },
		"telemetry service name": func(s *v1alpha2.LlamaStackDistributionSpec, v string) { s.Telemetry.ServiceName = v },
		"state mount path":       func(s *v1alpha2.LlamaStackDistributionSpec, v string) { s.Workload.Storage.MountPath = "/data/" + v },
		"redis endpoint":         func(s *v1alpha2.LlamaStackDistributionSpec, v string) { s.Storage.KV.Endpoint = "redis-" + v + ":6379" },
		"MCP server URL": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Resources = &v1alpha2.ResourcesSpec{MCPServers: []v1alpha2.MCPServerSpec{{ID: "tools", URL: "http://tools:8080/" + v}}}
		},
		"MCP server label": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.Resources = &v1alpha2.ResourcesSpec{MCPServers: []v1alpha2.MCPServerSpec{{ID: "tools", URL: "http://tools:8080/mcp", Label: v}}}
		},
		"external provider path": func(s *v1alpha2.LlamaStackDistributionSpec, v string) {
			s.ExternalProviders = &v1alpha2.ExternalProvidersSpec{Inference: []v1alpha2.ExternalProviderRef{{
				ProviderID: "ext", Image: "registry.example.com/ext:1", Module: "ext", ProviderType: "remote::ext", Path: "/opt/" + v}}}
		},
	}
	obj, errs := api.Decode(base)
	require.Empty(t, errs)
	_, errs = pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
	require.Empty(t, errs, "the base spec renders")
	rendered := 0
	for field, set := range setters {
		for _, name := range secretVars {
			for _, value := range forms(name) {
				obj, errs := api.Decode(base)
				require.Empty(t, errs)
				set(&obj.Spec, value)
				res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
				if len(errs) > 0 {
					continue // refused
				}
				rendered++
				if leak := sentinelLeak(t, res); leak != "" {
					t.Errorf("%s = %q: the value of %s reached %s", field, value, name, leak)
				}
			}
		}
	}
	require.Positive(t, rendered, "every input was refused: the test proves nothing about what renders")
}

const sentinel = "S3NT1NEL"

// sentinelLeak returns where a Secret's value lands in the rendered server, other than in
// the secret variables themselves and at credential keys of config.yaml; "" if nowhere.
func sentinelLeak(t *testing.T, res *pipeline.Result) string {
	config, dep := renderedServer(res)
	pod := dep.Spec.Template.Spec
	for _, c := range append(pod.InitContainers, pod.Containers...) {
		env := servercheck.KubeletEnv(c, func(name string) string { return sentinel + name })
		secret := map[string]bool{}
		for _, e := range c.Env {
			if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil || e.Name == "OTEL_EXPORTER_OTLP_HEADERS" {
				secret[e.Name] = true
			}
		}
		for name, value := range env {
			if strings.Contains(value, sentinel) && !secret[name] {
				return fmt.Sprintf("the variable %s of container %s", name, c.Name)
			}
		}
		for _, s := range append(append([]string{}, c.Command...), c.Args...) {
			if strings.Contains(servercheck.KubeletExpand(s, env), sentinel) {
				return fmt.Sprintf("the command line of container %s", c.Name)
			}
		}
		for _, m := range c.VolumeMounts {
			if strings.Contains(servercheck.KubeletExpand(m.SubPathExpr, env), sentinel) {
				return fmt.Sprintf("the subPathExpr of %s in container %s", m.MountPath, c.Name)
			}
		}
		if c.Name != api.ContainerName || config == nil {
			continue
		}
		tree, err := configyaml.UnmarshalMap(config)
		require.NoError(t, err)
		expanded, err := servercheck.SubstituteFor(res.LLSD.Annotations[api.AnnotationServerVersion], tree, servercheck.FixtureEnv(env), "/")
		if err != nil {
			continue // the server would not start: nothing is served
		}
		leak := ""
		walk(expanded, "", func(path, key, value string) {
			if strings.Contains(value, sentinel) && !credentialKey(key) && leak == "" {
				leak = "config.yaml " + path
			}
		})
		if leak != "" {
			return leak
		}
	}
	return ""
}

func models(s *v1alpha2.LlamaStackDistributionSpec) *v1alpha2.ModelSpec {
	s.Resources = &v1alpha2.ResourcesSpec{Models: []v1alpha2.ModelSpec{{Name: "m"}}}
	return &s.Resources.Models[0]
}

func settings(v map[string]any) *apiextensionsv1.JSON {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return &apiextensionsv1.JSON{Raw: raw}
}

// setEnv sets MY_URL to value and, when read is set, has the vLLM provider's settings read it.
func setEnv(s *v1alpha2.LlamaStackDistributionSpec, value, read string) {
	s.Workload.Overrides.Env[0].Value = value
	if read != "" {
		s.Providers.Inference[0].Settings = settings(map[string]any{"tls_verify": read})
	}
}
