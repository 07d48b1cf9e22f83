// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
)

// Distributions llsd's catalog does not have: a name mapped to an image by the render option
// distributions (rh-dev mapped to an image of one's own), and custom images without config labels. A spec
// that generates nothing runs the image's own config, with a warning; one that generates gets
// its base config from spec.distribution.baseConfig; each refusal names the fix, and the fix
// renders a server that starts and objects the API server takes.
func TestDistributionsOutsideTheCatalog(t *testing.T) {
	const image = "quay.io/example/llama-stack-custom:2.1"
	imageConfig, err := distributions.FS.ReadFile("starter/0.7.yaml") // stands in for the config the image ships
	require.NoError(t, err)
	v1 := func(distribution, extra string) string {
		return `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  server:
    distribution: ` +
			distribution + `
    containerSpec: {port: 8321, env: [{name: OLLAMA_URL, value: 'http://ollama:11434/v1'}]}
` + extra
	}
	v2 := func(distribution, extra string) string {
		return `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: ` + distribution + "\n" + extra
	}
	const providers = "  providers: {inference: {provider: ollama, endpoint: 'http://ollama:11434/v1'}}\n"
	mapped := distribution.Options{Distributions: map[string]string{"rh-dev": image}}
	base := map[string]map[string]string{"ai/image-config": {"run.yaml": string(imageConfig)}}
	for _, tc := range []struct {
		reason, doc string
		dist        distribution.Options
		configMaps  map[string]map[string]string
		want        []string // substrings of the problems, in order
		source      api.ConfigSource
	}{
		{reason: "a mapped name that asks for no generated config: the image runs its own",
			doc: v1("{name: rh-dev}", ""), dist: mapped,
			want:   []string{"warning: spec.distribution: llsd has no base config for image " + image + ", and the spec asks for no generated config: the image runs the config it ships, which llsd cannot check"},
			source: api.ConfigSourceImage},
		{reason: "a mapped name with providers: no base to generate from",
			doc: v2("{name: rh-dev}", providers), dist: mapped,
			want: []string{`error: spec.distribution.name: Invalid value: "rh-dev": rh-dev is image ` + image + ` (render option distributions): llsd has no base config.yaml for this image ` +
				`(only the official {llamastack,ogx,ogxai}/distribution-{postgres-demo,starter} images are built in): put the config the image ships in a ConfigMap and set spec.distribution.baseConfig to it`}},
		{reason: "the fix: the image's config in a ConfigMap",
			doc:  v2("{name: rh-dev, serverVersion: \"0.7\", baseConfig: {configMapName: image-config, key: run.yaml}}", providers),
			dist: mapped, configMaps: base, source: api.ConfigSourceConfigMap},
		{reason: "a custom image with a base config and no serverVersion: the version from the config's structure",
			doc:        v2("{image: "+image+", baseConfig: {configMapName: image-config, key: run.yaml}}", providers),
			configMaps: base, source: api.ConfigSourceConfigMap},
		{reason: "a base config that is not among the inputs",
			doc:  v2("{image: "+image+", baseConfig: {configMapName: image-config}}", providers),
			want: []string{`error: spec.distribution.baseConfig.configMapName: Not found: "image-config (llsd generates from the base config at render time: put the ConfigMap among the inputs`}},
		{reason: "a base config under another key",
			doc:        v2("{image: "+image+", baseConfig: {configMapName: image-config}}", providers),
			configMaps: base,
			want:       []string{`error: spec.distribution.baseConfig.configMapName: Not found: "image-config has no key config.yaml (it has run.yaml): set spec.distribution.baseConfig.key`}},
		{reason: "a name nobody mapped",
			doc:  v1("{name: team-build}", ""),
			want: []string{`error: spec.server.distribution.name: Invalid value: "team-build": unknown distribution: use one of postgres-demo, remote-vllm, starter, set distribution.image, or map the name to its image with the render option distributions (team-build: <image>)`}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			obj, errs := api.Decode([]byte(tc.doc))
			require.Empty(t, errs)
			res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test", Distribution: tc.dist, ConfigMaps: tc.configMaps})
			var problems []string
			for _, e := range errs {
				problems = append(problems, "error: "+writtenAs(tc.doc, e.Field)+": "+e.ErrorBody())
			}
			if res != nil {
				for _, w := range res.Warnings {
					problems = append(problems, "warning: "+w.String())
				}
			}
			require.Len(t, problems, len(tc.want), strings.Join(problems, "\n"))
			for i, want := range tc.want {
				assert.Contains(t, problems[i], want)
			}
			if res == nil {
				return
			}
			assert.Equal(t, string(tc.source), res.LLSD.Annotations[api.AnnotationConfigSource])
			assertRunsImage(t, res, image, tc.source == api.ConfigSourceImage)
			if testenv.MissingAssets() == "" {
				for _, o := range append([]render.Object{res.LLSD}, res.Objects...) {
					require.NoError(t, dryRunApply(t, o))
				}
			}
			checkStarts(t, res)
		})
	}
}

// writtenAs is a field path as the document's author wrote it.
func writtenAs(doc, path string) string {
	if strings.Contains(doc, "v1alpha1") {
		return strings.Replace(path, "spec.distribution", "spec.server.distribution", 1)
	}
	return path
}

// assertRunsImage checks the server container's image, and that a server running its image's
// own config gets neither a config volume nor RUN_CONFIG_PATH (which would name a file that is
// not there).
func assertRunsImage(t *testing.T, res *pipeline.Result, image string, ownConfig bool) {
	t.Helper()
	for _, o := range res.Objects {
		d, ok := o.(*appsv1.Deployment)
		if !ok {
			continue
		}
		c := d.Spec.Template.Spec.Containers[0]
		assert.Equal(t, image, c.Image)
		hasPath := false
		for _, e := range c.Env {
			hasPath = hasPath || e.Name == "RUN_CONFIG_PATH"
		}
		assert.Equal(t, !ownConfig, hasPath, "RUN_CONFIG_PATH")
		hasConfig := false
		for _, v := range d.Spec.Template.Spec.Volumes {
			hasConfig = hasConfig || v.Name == "config"
		}
		assert.Equal(t, !ownConfig, hasConfig, "a config volume")
		_, isConfigMap := any(res.Objects[0]).(*corev1.ConfigMap)
		assert.Equal(t, !ownConfig, isConfigMap, "a generated ConfigMap")
		return
	}
	assert.Fail(t, "no Deployment rendered")
}
