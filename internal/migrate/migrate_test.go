// SPDX-License-Identifier: Apache-2.0

package migrate_test

import (
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

	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
)

// inputs are the LLSDs the comparison runs on: the render goldens and the examples, and the
// public files of ../shared/wild-llsd that render, when they are beside the clone.
func inputs(t *testing.T) map[string][]byte {
	out := map[string][]byte{}
	for _, pattern := range []string{"../render/testdata/*/llsd.yaml", "../../examples/*/*.yaml", "../../examples/*/*/*.yaml", "../../examples/*/*/*/*.yaml"} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			if strings.Contains(string(data), "kind: LlamaStackDistribution") && !strings.Contains(f, "expected") {
				out[f] = data
			}
		}
	}
	if dir := testenv.SharedDir("wild-llsd"); dir != "" {
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			out[f] = data
		}
	}
	return out
}

// An LLSD migrated to an OGXServer renders the same config.yaml and the same pod (the variables
// that carry a Secret named by the Secret they read; the resources but where the successor's
// defaults apply, which the migration says), for every input that renders; and the OGXServer,
// migrated back, renders them too.
func TestAMigratedServerRendersTheSameConfigAndPod(t *testing.T) {
	compared := 0
	for file, data := range inputs(t) {
		t.Run(filepath.Base(filepath.Dir(file))+"/"+filepath.Base(file), func(t *testing.T) { compared += compareMigrated(t, file, data) })
	}
	require.GreaterOrEqual(t, compared, 10, "the own inputs alone compare ten servers")
}

func compareMigrated(t *testing.T, file string, data []byte) int {
	compared := 0
	{
		items, err := fn.ParseKubeObjects(data)
		require.NoError(t, err)
		opts := pipeline.Options{RendererVersion: "test"}
		before, beforeResults := renderAll(items, opts)
		if hasErrors(beforeResults) {
			return 0 // nothing to migrate: the LLSD does not render
		}
		migrated, results := migrate.Items(items, opts)
		require.False(t, hasErrors(results), "%s: %v", file, results)
		for _, o := range migrated {
			assert.NotEqual(t, "LlamaStackDistribution", o.GetKind(), file)
		}
		after, afterResults := renderAll(migrated, opts)
		if hasErrors(afterResults) {
			lost := false
			for name := range before {
				lost = lost || len(lossy(results, name)) > 0
			}
			require.True(t, lost, "%s: the OGXServer does not render, and no warning said what was lost: %v", file, afterResults)
			return 0
		}
		defaulted := mentionsAll(results, "the successor requests")
		for name, b := range before {
			if lost := lossy(results, name); len(lost) > 0 {
				continue // what the OGXServer cannot say, the warnings say: lost
			}
			a, ok := after[name]
			require.True(t, ok, "%s: %s has no render as an OGXServer", file, name)
			assert.Equal(t, normalizeConfig(b), normalizeConfig(a), "%s: %s: the config", file, name)
			assert.Equal(t, normalizePod(b, defaulted), normalizePod(a, defaulted), "%s: %s: the pod", file, name)
			compared++
		}
		back, backResults := migrate.Items(migrated, opts)
		require.False(t, hasErrors(backResults), "%s: %v", file, backResults)
		again, againResults := renderAll(back, opts)
		require.False(t, hasErrors(againResults), "%s: %v", file, againResults)
		for name, b := range after {
			assert.Equal(t, normalizeConfig(b), normalizeConfig(again[name]), "%s: %s: back to an LLSD, the config", file, name)
		}
	}
	return compared
}

// rendered is one server's config and Deployment.
type rendered struct {
	config string
	dep    *appsv1.Deployment
}

func renderAll(items fn.KubeObjects, opts pipeline.Options) (map[string]rendered, fn.Results) {
	out := map[string]rendered{}
	var results fn.Results
	maps := map[string]map[string]string{}
	for _, item := range items {
		if item.GetKind() == "ConfigMap" {
			data, _, _ := item.NestedStringMap("data")
			maps[item.GetNamespace()+"/"+item.GetName()] = data
		}
	}
	opts.ConfigMaps = maps
	for _, item := range items {
		if !api.IsRenderable(item.GetKind()) {
			continue
		}
		decoded, errs := api.DecodeObject([]byte(item.String()))
		if len(errs) == 0 {
			var res *pipeline.Result
			if res, errs = pipeline.RenderDecoded(decoded, opts); len(errs) == 0 {
				r := rendered{}
				for _, o := range res.Objects {
					switch v := o.(type) {
					case *appsv1.Deployment:
						r.dep = v
					case *corev1.ConfigMap:
						if v.Name == res.LLSD.Annotations[api.AnnotationConfigMap] {
							r.config = v.Data[render.ConfigKey]
						}
					}
				}
				out[item.GetNamespace()+"/"+item.GetName()] = r
			}
		}
		for _, e := range errs {
			results = append(results, &fn.Result{Message: e.Error(), Severity: fn.Error})
		}
	}
	return out, results
}

func hasErrors(results fn.Results) bool {
	return slices.ContainsFunc(results, func(r *fn.Result) bool { return r.Severity == fn.Error })
}

func mentionsAll(results fn.Results, text string) bool {
	return slices.ContainsFunc(results, func(r *fn.Result) bool { return strings.Contains(r.Message, text) })
}

var envRef = regexp.MustCompile(`\$\{env\.(LLSD_[A-Z0-9_]+)`)

// secretOf names each variable of the container that reads a Secret by that Secret and key.
func secretOf(dep *appsv1.Deployment) map[string]string {
	out := map[string]string{}
	for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			out[e.Name] = "secret:" + e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
		}
	}
	return out
}

func normalizeConfig(r rendered) string {
	names := secretOf(r.dep)
	return envRef.ReplaceAllStringFunc(r.config, func(m string) string {
		if s, ok := names[strings.TrimPrefix(m, "${env.")]; ok {
			return "${env." + s
		}
		return m
	})
}

// normalizePod is the pod template as YAML, with the variables that read Secrets named by
// them, sorted, without the config hash (the config is compared on its own) and, where the
// successor's defaults apply, without the resources.
func normalizePod(r rendered, defaulted bool) string {
	pod := r.dep.Spec.Template.DeepCopy()
	names := secretOf(r.dep)
	c := &pod.Spec.Containers[0]
	for i, e := range c.Env {
		if s, ok := names[e.Name]; ok {
			c.Env[i].Name = s
		}
	}
	slices.SortFunc(c.Env, func(a, b corev1.EnvVar) int { return strings.Compare(a.Name, b.Name) })
	delete(pod.Annotations, "llamastack.io/config-hash")
	for i := range pod.Spec.Volumes {
		if pod.Spec.Volumes[i].Name == "config" && pod.Spec.Volumes[i].ConfigMap != nil {
			pod.Spec.Volumes[i].ConfigMap.Name = ""
		}
	}
	// An OGXServer's pod has its config also where the successor mounts it (/etc/ogx), the same
	// file: what a command written for the successor names.
	pod.Spec.Volumes = slices.DeleteFunc(pod.Spec.Volumes, func(v corev1.Volume) bool { return v.Name == "ogx-config" })
	c.VolumeMounts = slices.DeleteFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.Name == "ogx-config" })
	if defaulted {
		c.Resources = corev1.ResourceRequirements{}
	}
	data, _ := yaml.Marshal(pod)
	return string(data)
}

// lossy are the migration's warnings for the object ns/name that say something is lost (all
// but the successor's resource defaults and a kept image, which change nothing rendered here).
func lossy(results fn.Results, name string) []string {
	var out []string
	for _, r := range results {
		if r.Severity != fn.Warning || r.ResourceRef == nil || r.ResourceRef.Namespace+"/"+r.ResourceRef.Name != name {
			continue
		}
		if !strings.Contains(r.Message, "the successor requests") && !strings.Contains(r.Message, "the OGXServer keeps that image") {
			out = append(out, r.Message)
		}
	}
	return out
}
