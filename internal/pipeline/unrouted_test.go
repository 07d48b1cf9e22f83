// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api"
)

// An image built with S3 files and, where the version has it, a Docling Serve file processor
// (its config, in a ConfigMap, lists them, as the config of such an image does), on every
// supported version: the spec configures S3 with a bucket, an endpoint and credentials from a
// Secret and Docling Serve with its endpoint, and the server starts with them serving the files
// and file_processors APIs alone. No credential reaches the ConfigMap.
func TestS3FilesAndDoclingServeOnAnImageThatShipsThem(t *testing.T) {
	for _, v := range profile.Supported() {
		t.Run(string(v), func(t *testing.T) {
			prof, _ := profile.For(v)
			require.NoError(t, prof.Load())
			docling := slices.Contains(prof.ProviderTypes("file_processors"), "remote::docling-serve")
			res := renderOnImageThatShips(t, v, docling)
			checkStarts(t, res)

			config, dep := renderedServer(res)
			cfg, err := configyaml.UnmarshalMap(config)
			require.NoError(t, err)
			files := cfg["providers"].(map[string]any)["files"].([]any)
			require.Len(t, files, 1, "the spec's list replaces the image's: the server serves files with one provider")
			s3 := files[0].(map[string]any)["config"].(map[string]any)
			assert.Equal(t, "llsd-files", s3["bucket_name"])
			assert.Equal(t, "http://minio.storage:9000", s3["endpoint_url"])
			assert.Equal(t, map[string]any{"backend": "sql_default", "table_name": "s3_files"}, s3["metadata_store"],
				"the image's S3 provider keeps its metadata table")
			assert.True(t, strings.HasPrefix(s3["aws_secret_access_key"].(string), "${env.LLSD_"), "the key comes from the pod's env: %v", s3["aws_secret_access_key"])
			if docling {
				processors := cfg["providers"].(map[string]any)["file_processors"].([]any)
				require.Len(t, processors, 1)
				assert.Equal(t, "http://docling.ai:5001", processors[0].(map[string]any)["config"].(map[string]any)["base_url"])
			}
			var fromSecret []string
			for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
				if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil && e.ValueFrom.SecretKeyRef.Name == "minio" {
					fromSecret = append(fromSecret, e.ValueFrom.SecretKeyRef.Key)
				}
			}
			assert.ElementsMatch(t, []string{"access-key", "secret-key"}, fromSecret)
		})
	}
}

// renderOnImageThatShips renders S3 files (and Docling Serve) on a custom image of version v
// whose config is the version's starter plus those providers.
func renderOnImageThatShips(t *testing.T, v profile.Version, docling bool) *pipeline.Result {
	starter, err := distributions.FS.ReadFile("starter/" + string(v) + ".yaml")
	require.NoError(t, err)
	imageConfig, err := configyaml.UnmarshalMap(starter)
	require.NoError(t, err)
	providers := imageConfig["providers"].(map[string]any)
	providers["files"] = append(providers["files"].([]any), map[string]any{"provider_id": "s3", "provider_type": "remote::s3",
		"config": map[string]any{"bucket_name": "${env.S3_BUCKET:=}", "metadata_store": map[string]any{"backend": "sql_default", "table_name": "s3_files"}}})
	processors := ""
	if docling {
		providers["file_processors"] = append(providers["file_processors"].([]any),
			map[string]any{"provider_id": "docling", "provider_type": "remote::docling-serve"})
		processors = `
    fileProcessors:
    - provider: docling-serve
      endpoint: http://docling.ai:5001`
	}
	base, err := configyaml.Marshal(imageConfig)
	require.NoError(t, err)
	obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: docs, namespace: ai}
spec:
  distribution:
    image: registry.example.com/ai/llama-stack-s3:custom
    serverVersion: "` + string(v) + `"
    baseConfig: {configMapName: image-config}
  providers:
    files:
    - provider: s3
      endpoint: http://minio.storage:9000
      settings: {bucket_name: llsd-files, region: eu-west-1}
      secretRefs:
        aws_access_key_id: {secretKeyRef: {name: minio, key: access-key}}
        aws_secret_access_key: {secretKeyRef: {name: minio, key: secret-key}}` + processors + `
`))
	require.Empty(t, errs)
	res, errs := pipeline.Render(obj, pipeline.Options{ConfigMaps: map[string]map[string]string{
		"ai/image-config": {"config.yaml": string(base)}}})
	require.Empty(t, errs)
	return res
}
