// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// patternCase is one thing the public files of ../shared/wild-llsd taught, written again as a
// minimal input of this project's own, with what llsd must do with it: the behaviour holds in a
// clone that has nothing beside it. wild-corpus.yaml names the case of each public file.
type patternCase struct {
	name   string
	reason string
	input  string
	// errors each appear in one error ("field: message"); none means it renders and starts.
	errors []string
	// warnings each appear in one warning.
	warnings []string
}

var patternCases = []patternCase{
	{
		name:   "autoscaling-sqlite-state",
		reason: "an autoscaler over replicas that each keep their own SQLite state, on a ReadWriteOnce volume, scaled on requests never set",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: scaled}
spec:
  server:
    distribution: {name: starter}
    storage: {size: 5Gi}
    autoscaling: {minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 60, targetMemoryUtilizationPercentage: 80}
`,
		errors: []string{
			"spec.server.autoscaling.maxReplicas: Invalid value: 3: 3 replicas would each keep their own registry",
			"spec.server.autoscaling.maxReplicas: Invalid value: 3: spec.server.storage is a ReadWriteOnce volume",
			"spec.server.containerSpec.resources.requests.cpu: Required value: the autoscaler scales on cpu utilization",
			"spec.server.containerSpec.resources.requests.memory: Required value: the autoscaler scales on memory utilization",
		},
	},
	{
		name:   "replicas-on-one-volume",
		reason: "several replicas of one volume that attaches to one node",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: crowded}
spec:
  replicas: 2
  server:
    distribution: {name: starter}
    storage: {size: 1Gi}
`,
		errors: []string{
			"spec.replicas: Invalid value: 2: 2 replicas would each keep their own registry",
			"spec.replicas: Invalid value: 2: spec.server.storage is a ReadWriteOnce volume",
		},
	},
	{
		name:   "user-config-ignored-keys",
		reason: "a config of the user's own with keys the server ignores: a warning names each",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: own-config}
spec:
  server:
    distribution: {name: starter}
    userConfig: {configMapName: own-config-yaml}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: own-config-yaml}
data:
  config.yaml: |
    version: 2
    distro_name: own
    apis: [inference]
    providers:
      inference:
      - provider_id: ollama
        provider_type: remote::ollama
        config: {url: http://ollama:11434/v1}
    storage:
      backends:
        kv_default: {type: kv_sqlite, db_path: /tmp/kv.db}
        sql_default: {type: sql_sqlite, db_path: /tmp/sql.db}
      stores:
        metadata: {backend: kv_default, namespace: registry}
        inference: {backend: sql_default, table_name: inference_store}
        conversations: {backend: sql_default, table_name: conversations}
        prompts: {backend: sql_default, table_name: prompts}
        connectors: {backend: sql_default, table_name: connectors}
    models: []
`,
		warnings: []string{
			"ConfigMap own-config-yaml key config.yaml: OGX 1.3 ignores",
			"providers.inference[0].config: remote::ollama ignores url in OGX 1.3 (did you mean base_url?)",
		},
	},
	{
		name:   "env-nothing-reads",
		reason: "a variable older distribution configs read, which the config of today does not",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: unread}
spec:
  server:
    distribution: {name: starter}
    containerSpec:
      env:
      - {name: INFERENCE_MODEL, value: granite}
`,
		warnings: []string{"spec.server.containerSpec.env[0].name: INFERENCE_MODEL does nothing: config.yaml has no ${env.INFERENCE_MODEL}: register the model under spec.resources.models"},
	},
	{
		name:   "endpoint-without-v1",
		reason: "an OpenAI-compatible endpoint written without its /v1",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: short-url}
spec:
  server:
    distribution: {name: starter}
    containerSpec:
      env:
      - {name: OLLAMA_URL, value: "http://ollama.models.svc:11434"}
`,
		warnings: []string{"spec.server.containerSpec.env[0].value: OLLAMA_URL is the endpoint of provider ollama (remote::ollama)"},
	},
	{
		name:   "namespace-with-capitals",
		reason: "a namespace name no namespace can have admits nothing",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: capitals}
spec:
  server:
    distribution: {name: starter}
  network:
    allowedFrom: {namespaces: [TeamOne]}
`,
		warnings: []string{`spec.network.allowedFrom.namespaces[0]: no namespace can be called "TeamOne", so this entry admits nothing`},
	},
	{
		name:   "retired-distribution",
		reason: "a distribution name the server project retired: the error says what replaced it",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: retired}
spec:
  server:
    distribution: {name: together}
`,
		errors: []string{`spec.server.distribution.name: Invalid value: "together": llama-stack 0.2.15 folded the together distribution into starter`},
	},
	{
		name:   "unknown-distribution",
		reason: "a distribution name that never existed",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: invented}
spec:
  server:
    distribution: {name: startr}
`,
		errors: []string{`spec.server.distribution.name: Invalid value: "startr": unknown distribution (did you mean starter?)`},
	},
	{
		name:   "fields-one-level-too-high",
		reason: "fields written one level above their place, and pod fields only v1alpha2 has, each named at once with where it belongs",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: flat}
spec:
  image: registry.example.com/stack:1.3.0
  resources: {limits: {cpu: "1"}}
  tolerations: []
  server:
    distribution: {name: starter}
`,
		errors: []string{
			`spec.image: Unsupported value: unknown field "image" (did you mean spec.server.distribution.image?)`,
			`spec.resources: Unsupported value: unknown field "resources" (did you mean spec.server.containerSpec.resources?)`,
			`spec.tolerations: Unsupported value: unknown field "tolerations": llamastack.io/v1alpha2 has it, at spec.workload.pod.tolerations`,
		},
	},
	{
		name:   "type-placeholders",
		reason: "a reference page's type names where values belong: every one named at its path",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: placeholders}
spec:
  replicas: integer
  server:
    distribution: {name: starter}
    containerSpec:
      port: integer
      resources: {requests: {cpu: string}}
`,
		errors: []string{
			`spec.replicas: Invalid value: "string": must be of type integer`,
			`spec.server.containerSpec.port: Invalid value: "string": must be of type integer`,
			`spec.server.containerSpec.resources.requests[cpu]: Invalid value: "string": must be a quantity`,
		},
	},
	{
		name:   "ca-bundle-key-singular",
		reason: "configMapKey, a field the API calls configMapKeys",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: one-key}
spec:
  server:
    distribution: {name: starter}
    tlsConfig:
      caBundle: {configMapName: team-ca, configMapKey: team.pem}
`,
		errors: []string{`spec.server.tlsConfig.caBundle.configMapKey: Unsupported value: unknown field "configMapKey" (did you mean`},
	},
	{
		name:   "ca-bundle-other-namespace",
		reason: "a CA bundle in a namespace whose ConfigMaps the pod cannot mount",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: far-ca, namespace: apps}
spec:
  server:
    distribution: {name: starter}
    tlsConfig:
      caBundle: {configMapName: team-ca, configMapNamespace: certificates}
`,
		errors: []string{`spec.server.tlsConfig.caBundle.configMapNamespace: Invalid value: "certificates": a pod can mount only`},
	},
	{
		name:   "custom-image-own-config",
		reason: "an image llsd has no config for, asked for nothing: it runs what it ships, which llsd says it cannot check",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: bespoke}
spec:
  server:
    distribution: {image: registry.example.com/team/stack:2025-10}
`,
		warnings: []string{"spec.server.distribution: llsd has no base config for image registry.example.com/team/stack:2025-10"},
	},
	{
		name:   "container-name",
		reason: "a server container called otherwise: llsd keeps its name and says which to use",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: renamed}
spec:
  server:
    distribution: {name: starter}
    containerSpec: {name: server}
`,
		warnings: []string{"spec.server.containerSpec.name: llsd names the server container llama-stack, not server"},
	},
	{
		name:   "mount-over-state",
		reason: "a volume of the user's mounted where the server keeps its state",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: own-state}
spec:
  server:
    distribution: {name: starter}
    podOverrides:
      volumes:
      - {name: state, emptyDir: {}}
      volumeMounts:
      - {name: state, mountPath: /.ogx}
`,
		warnings: []string{"spec.server.podOverrides.volumeMounts[0]: mounts volume state at /.ogx in place of llsd's volume"},
	},
}

// patternCaseNames are the names wild-corpus.yaml may give as an entry's case.
func patternCaseNames() []string {
	names := make([]string, len(patternCases))
	for i, c := range patternCases {
		names[i] = c.name
	}
	return names
}

// Every pattern the public files taught holds on the project's own minimal input.
func TestPatternsThePublicFilesTaught(t *testing.T) {
	require.Len(t, slices.Compact(slices.Sorted(slices.Values(patternCaseNames()))), len(patternCases), "case names are unique")
	for _, tc := range patternCases {
		t.Run(tc.name, func(t *testing.T) {
			got := renderWild(t, []byte(tc.input), nil)
			for _, want := range tc.errors {
				assert.True(t, mentions(got.errors, want), "%s: no error says %q; errors:\n%s", tc.reason, want, strings.Join(got.errors, "\n"))
			}
			for _, want := range tc.warnings {
				assert.True(t, mentions(got.warnings, want), "%s: no warning says %q; warnings:\n%s", tc.reason, want, strings.Join(got.warnings, "\n"))
			}
			if len(tc.errors) == 0 {
				require.Empty(t, got.errors, tc.reason)
				assertServersStart(t, got)
			}
		})
	}
}
