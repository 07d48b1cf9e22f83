// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"encoding/base64"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
	"github.com/llamastack/llsd/pkg/api"
)

// ogxLLSD is a postgres-backed starter (so that the launcher hands over to the image's
// entrypoint) on the distribution named below.
const ogxLLSD = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: ogx, namespace: ai}
spec:
  distribution: %s
  providers:
    inference: {id: %s, provider: vllm, endpoint: http://vllm:8000/v1}
  resources:
    models: [llama3]
  storage:
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
`

// An OGX 0.8 LlamaStackDistribution, by name, by official image and by an image that carries
// its config in OGX's own labels (through the registry), renders a config the 0.8 strict
// schema and start-up rules accept, and a Deployment that runs OGX: its entrypoint, OGX_PORT,
// the state volume at /.ogx.
func TestOGX08(t *testing.T) {
	labelled, registry := ogxLabelledImage(t, "acme/ogx-starter:custom", "starter/0.8.yaml", "0.8.0")

	for _, tc := range []struct {
		reason, distribution, inference, image, base string
		opts                                         distribution.Options
	}{
		{reason: "starter by name", distribution: `{name: starter, serverVersion: "0.8"}`, inference: "vllm",
			image: "docker.io/ogxai/distribution-starter:0.8.0", base: "embedded starter/0.8.yaml", opts: distribution.Options{}},
		{reason: "starter by official image", distribution: `{image: "docker.io/ogxai/distribution-starter:0.8.0"}`, inference: "vllm",
			image: "docker.io/ogxai/distribution-starter:0.8.0", base: "embedded starter/0.8.yaml", opts: distribution.Options{}},
		{reason: "starter by an OGX-labelled image", distribution: `{image: "` + labelled + `"}`, inference: "vllm", image: labelled, base: "label com.ogx.config.config.yaml", opts: registry},
		{reason: "postgres-demo by name", distribution: `{name: postgres-demo, serverVersion: "0.8"}`, inference: "vllm-inference",
			image: "docker.io/ogxai/distribution-postgres-demo:0.8.0", base: "embedded postgres-demo/0.8.yaml", opts: distribution.Options{}},
		{reason: "postgres-demo by official image", distribution: `{image: "docker.io/ogxai/distribution-postgres-demo:0.8.0"}`, inference: "vllm-inference",
			image: "docker.io/ogxai/distribution-postgres-demo:0.8.0", base: "embedded postgres-demo/0.8.yaml", opts: distribution.Options{}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			obj, errs := api.Decode([]byte(fmt.Sprintf(ogxLLSD, tc.distribution, tc.inference)))
			require.Empty(t, errs)
			res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test", Distribution: tc.opts})
			require.Empty(t, errs, "%v", errs)
			assert.Equal(t, "0.8", res.LLSD.Annotations[api.AnnotationServerVersion])
			assert.Contains(t, res.LLSD.Annotations[api.AnnotationBaseConfig], tc.base)
			checkStarts(t, res) // the 0.8 strict schema and start-up rules, with the pod's env and volumes

			_, dep := renderedServer(res)
			c := dep.Spec.Template.Spec.Containers[0]
			assert.Equal(t, tc.image, c.Image)
			assert.Equal(t, "/usr/local/bin/ogx-entrypoint.sh", c.Command[len(c.Command)-1], "the launcher hands over to OGX's entrypoint")
			env := map[string]string{}
			for _, e := range c.Env {
				env[e.Name] = e.Value
			}
			assert.Equal(t, "8321", env["OGX_PORT"])
			assert.NotContains(t, env, "LLAMA_STACK_PORT", "OGX does not read it")
			mounts := map[string]string{}
			for _, m := range c.VolumeMounts {
				mounts[m.Name] = m.MountPath
			}
			assert.Equal(t, "/.ogx", mounts["lls-storage"], "the state volume is where OGX writes")
		})
	}
}

// OGX 1.x LlamaStackDistributions by name (the default is the newest), by serverVersion, by
// image in either repository and through the registry's OGX labels render configs that pass
// their version's strict schema and start-up rules, and Deployments that run the image as
// built; a 1.4 image renders with the 1.3 profile and says so; a 1.2 server behind an Ingress
// starts also on the 1.2.0 image, whose entrypoint does not pass --insecure; 2.0 is refused.
func TestOGX1(t *testing.T) {
	labelled, registry := ogxLabelledImage(t, "ogxai/distribution-starter:1.3.0", "starter/1.3.yaml", "1.3.0")
	for _, tc := range []struct {
		reason, distribution, inference, image, version, warning string
		opts                                                     distribution.Options
	}{
		{reason: "starter by name: the newest", distribution: `{name: starter}`, inference: "vllm", image: "docker.io/ogxai/distribution-starter:1.3.0", version: "1.3", warning: "", opts: distribution.Options{}},
		{reason: "1.0 by serverVersion: its images are in docker.io/ogx", distribution: `{name: starter, serverVersion: "1.0"}`, inference: "vllm",
			image: "docker.io/ogx/distribution-starter:1.0.0", version: "1.0", warning: "", opts: distribution.Options{}},
		{reason: "1.1 by serverVersion", distribution: `{name: starter, serverVersion: "1.1"}`, inference: "vllm", image: "docker.io/ogxai/distribution-starter:1.1.0", version: "1.1", warning: "", opts: distribution.Options{}},
		{reason: "1.2 by serverVersion: 1.2.1", distribution: `{name: starter, serverVersion: "1.2"}`, inference: "vllm", image: "docker.io/ogxai/distribution-starter:1.2.1", version: "1.2", warning: "", opts: distribution.Options{}},
		{reason: "postgres-demo by name", distribution: `{name: postgres-demo}`, inference: "vllm-inference", image: "docker.io/ogxai/distribution-postgres-demo:1.3.0", version: "1.3", warning: "", opts: distribution.Options{}},
		{reason: "a 1.1 image of docker.io/ogx", distribution: `{image: "docker.io/ogx/distribution-starter:1.1.3"}`, inference: "vllm", image: "docker.io/ogx/distribution-starter:1.1.3", version: "1.1", warning: "", opts: distribution.Options{}},
		{reason: "a 1.2.0 image, whose entrypoint passes no --insecure", distribution: `{image: "docker.io/ogxai/distribution-starter:1.2.0"}`, inference: "vllm",
			image: "docker.io/ogxai/distribution-starter:1.2.0", version: "1.2", warning: "", opts: distribution.Options{}},
		{reason: "through the registry's OGX labels", distribution: `{image: "` + labelled + `"}`, inference: "vllm", image: labelled, version: "1.3", warning: "", opts: registry},
		{reason: "a 1.4 image: the 1.3 profile, with a warning", distribution: `{image: "docker.io/ogxai/distribution-starter:1.4.0"}`, inference: "vllm",
			image: "docker.io/ogxai/distribution-starter:1.4.0", version: "1.4", warning: "OGX 1.4 is newer than the newest OGX llsd knows (1.3)", opts: distribution.Options{}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			obj, errs := api.Decode([]byte(fmt.Sprintf(ogxLLSD, tc.distribution, tc.inference) + "  networking: {expose: {hostname: chat.example.com}}\n"))
			require.Empty(t, errs)
			res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test", Distribution: tc.opts})
			require.Empty(t, errs, "%v", errs)
			assert.Equal(t, tc.version, res.LLSD.Annotations[api.AnnotationServerVersion])
			if tc.warning != "" {
				require.NotEmpty(t, res.Warnings)
				assert.Contains(t, res.Warnings[0].Message, tc.warning)
			}
			checkStarts(t, res)

			_, dep := renderedServer(res)
			c := dep.Spec.Template.Spec.Containers[0]
			assert.Equal(t, tc.image, c.Image)
			assert.Equal(t, "/usr/local/bin/ogx-entrypoint.sh", c.Command[len(c.Command)-1])
			assert.Equal(t, int64(1001), *dep.Spec.Template.Spec.SecurityContext.RunAsUser, "the image's user from 1.3, and a user of group 0 before")
		})
	}
	obj, errs := api.Decode([]byte(fmt.Sprintf(ogxLLSD, `{image: "docker.io/ogxai/distribution-starter:2.0.0"}`, "vllm")))
	require.Empty(t, errs)
	_, errs = pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
	assert.ErrorContains(t, errs.ToAggregate(), "Unsupported config.yaml version 2.0")
}

// ogxLabelledImage pushes to an in-process registry an image labelled as OGX labels its own:
// the embedded base config (a file of distributions/) and the server version. It returns the
// image's reference and the resolver options that read labels from that registry.
func ogxLabelledImage(t *testing.T, ref, baseConfig, version string) (string, distribution.Options) {
	reg := registrytest.New(t)
	config, err := distributions.FS.ReadFile(baseConfig)
	require.NoError(t, err)
	labelled := reg.Push(t, ref, registrytest.Image(t, map[string]string{
		"com.ogx.distribution.default-config": "config.yaml",
		"com.ogx.config.config.yaml":          base64.StdEncoding.EncodeToString(config),
		"com.ogx.distribution.version":        version,
	}, nil))
	return labelled, distribution.Options{Labels: &oci.Client{InsecureHosts: []string{reg.Host}, Cache: &oci.Cache{Dir: t.TempDir()}}}
}
