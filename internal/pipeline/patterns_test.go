// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/testsupport/openshift"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
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
	// check, when set, looks at what rendered.
	check func(t *testing.T, got wildRender)
	// options, when set, is the RenderOptions the render runs with.
	options string
}

// ownOGXConfigMap is a config of the user's, written for OGX 1.x, in the ConfigMap own-config.
const ownOGXConfigMap = `---
apiVersion: v1
kind: ConfigMap
metadata: {name: own-config, namespace: ai}
data:
  config.yaml: |
    version: 2
    image_name: own
    apis: [inference, messages]
    providers:
      inference:
      - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://vllm.models.svc:8000/v1"}}
      messages:
      - {provider_id: builtin, provider_type: inline::builtin, config: {kvstore: {backend: kv_default, namespace: messages}}}
    storage:
      backends:
        kv_default: {type: kv_sqlite, db_path: "${env.SQLITE_STORE_DIR:=~/.ogx/distributions/own}/kvstore.db"}
        sql_default: {type: sql_sqlite, db_path: "${env.SQLITE_STORE_DIR:=~/.ogx/distributions/own}/sql_store.db"}
      stores:
        metadata: {backend: kv_default, namespace: registry}
        inference: {backend: sql_default, table_name: inference_store}
        conversations: {backend: sql_default, table_name: conversations}
        prompts: {backend: kv_default, namespace: prompts}
        connectors: {backend: sql_default, table_name: connectors}
`

var patternCases = []patternCase{
	{
		name:   "autoscaling-sqlite-state",
		reason: "an autoscaler from one replica over replicas that each keep their own SQLite state, on a ReadWriteOnce volume: it starts, and only a scale-out fails, so warnings that say so",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: scaled}
spec:
  server:
    distribution: {name: starter}
    storage: {size: 5Gi}
    autoscaling: {minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 60}
    containerSpec: {resources: {requests: {cpu: "1"}}}
`,
		warnings: []string{
			"spec.server.autoscaling.maxReplicas: when the autoscaler scales out (it starts at one replica and may run 3): 3 replicas would each keep their own registry",
			"spec.server.autoscaling.maxReplicas: when the autoscaler scales out (it starts at one replica and may run 3): spec.server.storage is a ReadWriteOnce volume",
		},
	},
	{
		name:   "autoscaler-without-requests",
		reason: "an autoscaler scaled on the utilization of requests never set: the server runs at its minimum, a warning (#56: the refusal rule)",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: scaled}
spec:
  server:
    distribution: {name: starter}
    autoscaling: {minReplicas: 1, maxReplicas: 3, targetCPUUtilizationPercentage: 60, targetMemoryUtilizationPercentage: 80}
`,
		warnings: []string{
			"spec.server.containerSpec.resources.requests.cpu: the autoscaler scales on cpu utilization, a share of the cpu request, which is not set: the server runs at its minimum of 1 and never scales out under load",
			"spec.server.containerSpec.resources.requests.memory: the autoscaler scales on memory utilization",
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
		name:    "ogx-config-on-a-later-release",
		reason:  "a config of the user's with what OGX 0.8 brought (the messages API, ~/.ogx paths), which 1.x keeps: on a release of OGX 1.2 it is no config of an earlier release",
		options: "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata: {name: options}\nspec: {openshiftAI: {release: \"3.5\"}}\n",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
  distribution: {name: rh-dev}
  overrideConfig: {configMapName: own-config}
` + ownOGXConfigMap,
		check: func(t *testing.T, got wildRender) {
			for _, w := range got.warnings {
				assert.NotContains(t, w, "reads like a config of server", "0.8's marks are 1.x's too")
			}
		},
	},
	{
		name:    "exposed-own-config-without-authentication",
		reason:  "a config of the user's with no server.auth, exposed by a Route: the server answers every caller, read from the ConfigMap",
		options: "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata: {name: options}\nspec: {openshiftAI: {release: \"3.5\"}}\n",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: own, namespace: ai}
spec:
  distribution: {name: rh-dev}
  overrideConfig: {configMapName: own-config}
  networking: {expose: {}}
` + ownOGXConfigMap,
		warnings: []string{"spec.networking.expose: the server is exposed outside the cluster (a Route) and authenticates nobody"},
	},
	{
		name:   "placeholder-in-an-endpoint",
		reason: "an install guide's endpoint copied with its placeholders: the server would connect to the literal text",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: guide, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "https://<isvc-name>-predictor.<namespace>.svc.cluster.local:8443/v1"}
`,
		errors: []string{`spec.providers.inference[0].endpoint: Invalid value: "https://<isvc-name>-predictor.<namespace>.svc.cluster.local:8443/v1": holds <isvc-name>, left to be filled in`},
	},
	{
		name:   "placeholders-in-values",
		reason: "a model name and variables left to be filled in, and a shell variable a heredoc did not expand: warnings that name each",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: guide, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm.models.svc:8000/v1"}
  resources:
    models: ["<model-name>"]
  workload:
    overrides:
      env:
      - {name: VLLM_MAX_TOKENS, value: "4096"}
      - {name: OTEL_SERVICE_NAME, value: "${SERVICE}"}
`,
		warnings: []string{
			"spec.resources.models[0].name: holds <model-name>, left to be filled in",
			"spec.workload.overrides.env[1].value: holds ${SERVICE}, left to be filled in (a guide's placeholder, or a shell variable nothing expanded)",
		},
	},
	{
		name:   "exposed-without-authentication",
		reason: "a server exposed by an Ingress whose config authenticates nobody: whoever reaches the host calls every API",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: open, namespace: ai}
spec:
  distribution: {name: starter}
  providers: {inference: {provider: vllm, endpoint: "http://vllm.models.svc:8000/v1"}}
  networking: {expose: {hostname: llama.example.com}}
`,
		warnings: []string{"spec.networking.expose: the server is exposed outside the cluster (an Ingress) and authenticates nobody"},
	},
	{
		name:    "exposed-without-authentication-refused",
		reason:  "the same, under the render option requireAuthentication: an error",
		options: "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata: {name: options}\nspec: {requireAuthentication: true}\n",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: open, namespace: ai}
spec:
  distribution: {name: starter}
  providers: {inference: {provider: vllm, endpoint: "http://vllm.models.svc:8000/v1"}}
  networking: {expose: {}}
`,
		errors: []string{"spec.networking.expose: Forbidden: the server is exposed outside the cluster (an Ingress) and authenticates nobody",
			"the render option requireAuthentication refuses it"},
	},
	{
		name:   "exposed-with-authentication",
		reason: "rh-dev exposed with its image's OAuth2 provider turned on (AUTH_ISSUER set): no warning of an open server",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: guarded, namespace: ai}
spec:
  distribution: {name: rh-dev}
  storage: {sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}}
  networking: {expose: {hostname: llama.apps.example.com}}
  workload:
    overrides:
      env:
      - {name: AUTH_ISSUER, value: "https://keycloak.example.com/realms/ai"}
      - {name: AUTH_JWKS_URI, value: "https://keycloak.example.com/realms/ai/protocol/openid-connect/certs"}
`,
		check: func(t *testing.T, got wildRender) {
			for _, w := range got.warnings {
				assert.NotContains(t, w, "authenticates nobody", "AUTH_ISSUER turns the image's oauth2_token provider on")
			}
		},
	},
	{
		name:   "exposed-rh-dev-without-issuer",
		reason: "rh-dev exposed (by a Route, as on OpenShift) without AUTH_ISSUER: its image's provider type ${env.AUTH_ISSUER:+oauth2_token} resolves empty, so the server answers every caller",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: open, namespace: ai}
spec:
  distribution: {name: rh-dev}
  storage: {sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}}
  networking: {expose: {hostname: llama.apps.example.com}}
`,
		warnings: []string{"spec.networking.expose: the server is exposed outside the cluster (a Route) and authenticates nobody"},
	},
	{
		name:    "class-dropped-for-a-route",
		reason:  "an Ingress class the author wrote, rendered for OpenShift by a render option: the Route has no class, and a warning says so",
		options: "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata: {name: options}\nspec: {platform: openshift}\n",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: classy, namespace: ai}
spec:
  distribution: {name: starter}
  networking: {expose: {className: nginx, hostname: chat.apps.example.com}}
`,
		warnings: []string{"spec.networking.expose.className: ingress class nginx is not used: the server is rendered for OpenShift"},
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
		name:   "env-url-placeholder",
		reason: "a placeholder left in a variable the config reads as a provider's URL: the server's HttpUrl refuses it at start",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: placeholder-url}
spec:
  server:
    distribution: {name: starter}
    containerSpec:
      env:
      - {name: VLLM_URL, value: REPLACE_WITH_VLLM_URL}
`,
		errors: []string{"spec.server.containerSpec.env[0].value: Invalid value: \"REPLACE_WITH_VLLM_URL\": VLLM_URL is the base_url of provider vllm (remote::vllm) in OGX 1.3: an http or https URL with a host, which this is not, and the server would not start: write the server's URL"},
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
	{
		name:   "name-placeholders",
		reason: "placeholders where names belong (a namespace, a Secret): each refused at its path, all at once, before the API server would",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: templated, namespace: <your-namespace>}
spec:
  server:
    distribution: {name: starter}
    containerSpec:
      env:
      - name: VLLM_API_TOKEN
        valueFrom: {secretKeyRef: {name: <vllm-secret>, key: token}}
`,
		errors: []string{
			`metadata.namespace: Invalid value: "<your-namespace>": a lowercase RFC 1123 label`,
			`spec.server.containerSpec.env[0].valueFrom.secretKeyRef.name: Invalid value: "<vllm-secret>": no Secret can be called so`,
		},
	},
	{
		name:   "wrong-api-group",
		reason: "an API group the operators never had (a design document's, a fork's README)",
		input: `apiVersion: llamastack.ai/v1alpha1
kind: LlamaStackDistribution
metadata: {name: elsewhere}
spec:
  server:
    distribution: {name: starter}
`,
		errors: []string{`apiVersion: Invalid value: "llamastack.ai/v1alpha1": the API group of LlamaStackDistribution is llamastack.io: write apiVersion: llamastack.io/v1alpha1`},
	},
	{
		name:   "misplaced-port",
		reason: "the port one level too high",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: ported}
spec:
  server:
    port: 8321
    distribution: {name: starter}
`,
		errors: []string{`spec.server.port: Unsupported value: unknown field "port" (did you mean spec.server.containerSpec.port?)`},
	},
	{
		name:   "retired-server-arguments",
		reason: "arguments of a server module retired before llama-stack 0.6, passed to an OGX 1.3 image whose command line refuses them (a crash loop)",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: old-args}
spec:
  server:
    distribution: {name: remote-vllm}
    containerSpec:
      env: [{name: VLLM_URL, value: "http://vllm.inference.svc:8000/v1"}]
      args: [--yaml-config, /config/run.yaml]
`,
		errors: []string{`spec.server.containerSpec.args[0]: Invalid value: "--yaml-config": OGX 1.3's command line has no option --yaml-config`},
	},
	{
		name:   "retired-server-module",
		reason: "python -m of a server module that starts nothing on today's servers",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: old-module}
spec:
  server:
    distribution: {name: starter}
    containerSpec:
      command: [python, -m, llama_stack.distribution.server.server, --config, /etc/llama-stack/config.yaml]
`,
		errors: []string{`python -m llama_stack.distribution.server.server starts no server after llama-stack 0.2.14, and the image runs OGX 1.3`},
	},
	{
		name:   "llama-command-on-ogx",
		reason: "llama stack run on an OGX image, whose command is ogx",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: renamed-cli}
spec:
  server:
    distribution: {name: starter}
    containerSpec:
      command: [/bin/sh, -c, llama stack run /etc/llama-stack/config.yaml]
`,
		errors: []string{`the image runs OGX 1.3, whose command is ogx, not llama: start it with ogx stack run <config file>`},
	},
	{
		name: "rh-dev",
		reason: "OpenShift AI's distribution name: rendered for the newest release whose operator reconciles LLSDs, with a warning that names the release option, " +
			"and for OpenShift, where it runs: no fixed user or group, which restricted-v2 would refuse, and the platform's CA bundle",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: platform-stack, namespace: ai}
spec:
  server:
    distribution: {name: rh-dev}
    containerSpec:
      env:
      - {name: VLLM_URL, value: "http://granite.models.svc:8080/v1"}
      - {name: POSTGRES_HOST, value: postgres.ai.svc}
      - name: POSTGRES_PASSWORD
        valueFrom: {secretKeyRef: {name: postgres, key: password}}
`,
		warnings: []string{"spec.server.distribution: rh-dev is OpenShift AI's and Open Data Hub's distribution: llsd renders it for OpenShift AI 3.4 (llama-stack 0.7.1",
			"name the release your cluster runs with the render option openshiftAI.release"},
		check: func(t *testing.T, got wildRender) {
			pod := renderedPod(t, got)
			assert.Equal(t, "registry.redhat.io/rhoai/odh-llama-stack-core-rhel9@sha256:be82f455d597351c6e50447b26a8e388705897995483ce33b76c3154510eef69", pod.Containers[0].Image)
			assert.Contains(t, pod.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "lls-storage", MountPath: "/opt/app-root/src/.llama/distributions/rh"})
			assertOpenShiftPod(t, pod)
		},
	},
	{
		name:    "rh-dev-on-kubernetes",
		reason:  "rh-dev rendered for plain Kubernetes (a demo on kind) by the render option platform: a fixed user, and a warning that says what changes",
		options: "apiVersion: fn.llamastack.io/v1alpha1\nkind: RenderOptions\nmetadata: {name: options}\nspec: {platform: kubernetes}\n",
		input: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: kind-demo, namespace: ai}
spec:
  distribution: {name: rh-dev}
  storage: {sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}}
`,
		warnings: []string{"which runs on OpenShift; rendered for plain Kubernetes as the render option platform says: the pods run as user 1001"},
		check: func(t *testing.T, got wildRender) {
			pod := renderedPod(t, got)
			assert.Equal(t, ptr.To[int64](1001), pod.SecurityContext.RunAsUser)
		},
	},
	{
		name:   "rh-dev-without-postgres",
		reason: "rh-dev written for a release that kept its state in SQLite: OpenShift AI 3.4 keeps it in Postgres, which the pod would look for on localhost",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: older-platform}
spec:
  server:
    distribution: {name: rh-dev}
`,
		errors: []string{"spec.storage: Required value: the distribution keeps storage backend kv_default (kv_postgres) and sql_default (sql_postgres) on localhost",
			"set POSTGRES_HOST in spec.server.containerSpec.env", "render for that one (render option openshiftAI.release"},
	},
	{
		name:   "dashboard-playground",
		reason: "the OpenShift AI dashboard's playground: a command that runs the ConfigMap's run.yaml from /etc/llama-stack, where the ConfigMap is mounted whole",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: playground, namespace: ai, labels: {opendatahub.io/dashboard: "true"}}
spec:
  server:
    distribution: {name: rh-dev}
    containerSpec:
      command: [/bin/sh, -c, llama stack run /etc/llama-stack/run.yaml]
    userConfig: {configMapName: playground-config}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: playground-config, namespace: ai}
data:
  run.yaml: |
    version: 2
    image_name: rh
    apis: [inference]
    providers:
      inference:
      - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://granite.models.svc:8080/v1"}}
    storage:
      backends:
        kv_default: {type: kv_sqlite, db_path: /opt/app-root/src/.llama/distributions/rh/kvstore.db}
        sql_default: {type: sql_sqlite, db_path: /opt/app-root/src/.llama/distributions/rh/sql_store.db}
      stores:
        metadata: {backend: kv_default, namespace: registry}
        inference: {backend: sql_default, table_name: inference_store}
        conversations: {backend: sql_default, table_name: openai_conversations}
        prompts: {backend: kv_default, namespace: prompts}
        connectors: {backend: kv_default, namespace: connectors}
`,
		check: func(t *testing.T, got wildRender) {
			pod := renderedPod(t, got)
			assert.Contains(t, pod.Containers[0].Env, corev1.EnvVar{Name: "RUN_CONFIG_PATH", Value: "/etc/llama-stack/run.yaml"})
			assertUserConfigStarts(t, got, "playground-config", "run.yaml", "0.7")
			assert.Contains(t, pod.Volumes, corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "playground-config"}}}}, "the ConfigMap whole, as the operator mounts it")
		},
	},
	{
		name:   "command-runs-a-missing-key",
		reason: "the playground's command on run.yaml with a ConfigMap that holds config.yaml (the dashboard renamed the key in 3.3)",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: renamed-key, namespace: ai}
spec:
  server:
    distribution: {name: rh-dev}
    containerSpec:
      command: [/bin/sh, -c, llama stack run /etc/llama-stack/run.yaml]
    userConfig: {configMapName: renamed-config}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: renamed-config, namespace: ai}
data:
  config.yaml: "version: 2\n"
`,
		errors: []string{`spec.server.containerSpec.command[2]: Invalid value: "/etc/llama-stack/run.yaml": the server runs /etc/llama-stack/run.yaml, ` +
			`and ConfigMap renamed-config (spec.server.userConfig) has no key run.yaml (it has config.yaml)`},
	},
	{
		name:   "run-config-path-in-a-mount",
		reason: "RUN_CONFIG_PATH naming a key of the user's ConfigMap mounted again by a volume of the spec's",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: mounted-twice}
spec:
  server:
    distribution: {image: docker.io/ogxai/distribution-starter:1.3.0}
    containerSpec:
      env: [{name: RUN_CONFIG_PATH, value: /app-config/config.yaml}]
    userConfig: {configMapName: stack-config}
    podOverrides:
      volumes: [{name: app-config, configMap: {name: stack-config}}]
      volumeMounts: [{name: app-config, mountPath: /app-config}]
`,
		check: func(t *testing.T, got wildRender) {
			var runConfigPaths []string
			for _, e := range renderedPod(t, got).Containers[0].Env {
				if e.Name == "RUN_CONFIG_PATH" {
					runConfigPaths = append(runConfigPaths, e.Value)
				}
			}
			assert.Equal(t, []string{"/app-config/config.yaml"}, runConfigPaths, "the spec's own, once")
		},
	},
	{
		name:   "user-config-keyed-run-yaml",
		reason: "a ConfigMap that keeps the config under run.yaml, the key older operators read",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: legacy-key, namespace: ai}
spec:
  server:
    distribution: {image: docker.io/ogxai/distribution-starter:1.3.0}
    userConfig: {configMapName: legacy-config}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: legacy-config, namespace: ai}
data:
  run.yaml: |
    version: 2
    distro_name: legacy
    apis: [inference]
    providers:
      inference:
      - {provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://vllm.models.svc:8000/v1"}}
`,
		warnings: []string{"ConfigMap legacy-config has no config.yaml but run.yaml, the key older upstream releases read: the server runs run.yaml"},
	},
	{
		name:   "lmeval-keeps-its-token",
		reason: "a config whose TrustyAI LMEval provider creates LMEvalJobs: the pod keeps its token, and the warning names the Role it needs",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: evaluator, namespace: ai}
spec:
  server:
    distribution: {name: rh-dev}
    containerSpec:
      env: [{name: POSTGRES_HOST, value: postgres.ai.svc}]
`,
		warnings: []string{"provider trustyai_lmeval (TrustyAI LMEval, use_k8s) creates LMEvalJobs through the pod's service account token, so the pod keeps it: " +
			"grant the service account evaluator-sa a Role in ai on trustyai.opendatahub.io lmevaljobs"},
		check: func(t *testing.T, got wildRender) {
			assert.Equal(t, ptr.To(true), renderedPod(t, got).AutomountServiceAccountToken)
		},
	},
	{
		name:   "user-service-account-keeps-its-token",
		reason: "a service account the spec names: the pod keeps its token, as it would under the operator",
		input: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: own-account}
spec:
  server:
    distribution: {name: starter}
    podOverrides: {serviceAccountName: stack-runner}
`,
		check: func(t *testing.T, got wildRender) {
			pod := renderedPod(t, got)
			assert.Equal(t, "stack-runner", pod.ServiceAccountName)
			assert.Equal(t, ptr.To(true), pod.AutomountServiceAccountToken)
		},
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
			if tc.options != "" {
				options, err := fn.ParseKubeObject([]byte(tc.options))
				require.NoError(t, err)
				got = renderWildWith(t, []byte(tc.input), nil, options)
			}
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
			if tc.check != nil {
				tc.check(t, got)
			}
		})
	}
}

// renderedPod is the pod template of the one Deployment a render wrote.
func renderedPod(t *testing.T, got wildRender) corev1.PodSpec {
	t.Helper()
	for _, o := range got.items {
		if o.GetKind() == "Deployment" {
			var d appsv1.Deployment
			require.NoError(t, yaml.Unmarshal([]byte(o.String()), &d))
			return d.Spec.Template.Spec
		}
	}
	require.Fail(t, "no Deployment was rendered")
	return corev1.PodSpec{}
}

// The API server accepts every object the project's own cases render.
func TestPatternsAreAccepted(t *testing.T) {
	testenv.Need(t, testenv.MissingAssets())
	for _, tc := range patternCases {
		if len(tc.errors) > 0 {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			got := renderWild(t, []byte(tc.input), nil)
			require.Empty(t, got.errors)
			for _, item := range got.items {
				var manifest map[string]any
				require.NoError(t, yaml.Unmarshal([]byte(item.String()), &manifest))
				require.NoError(t, dryRunApplyManifest(t, manifest))
			}
		})
	}
}

// assertUserConfigStarts runs the start-up oracle on the key of a user's ConfigMap among the
// rendered items, as the rendered Deployment runs it.
func assertUserConfigStarts(t *testing.T, got wildRender, configMap, key, version string) {
	t.Helper()
	var config string
	var dep appsv1.Deployment
	for _, o := range got.items {
		switch {
		case o.GetKind() == "ConfigMap" && o.GetName() == configMap:
			config, _, _ = o.NestedString("data", key)
		case o.GetKind() == "Deployment":
			require.NoError(t, yaml.Unmarshal([]byte(o.String()), &dep))
		}
	}
	require.NotEmpty(t, config, "ConfigMap %s has no %s among the items", configMap, key)
	checkServerStarts(t, version, []byte(config), &dep, got.warnings)
}

// assertOpenShiftPod checks that a pod is one OpenShift's restricted-v2 admits as the namespace
// assigns it (the check the controller's pod gets too) with the platform's CA bundle mounted.
func assertOpenShiftPod(t *testing.T, pod corev1.PodSpec) {
	t.Helper()
	assert.Empty(t, openshift.RestrictedV2(corev1.PodTemplateSpec{Spec: pod}), "what restricted-v2 refuses")
	assert.True(t, slices.ContainsFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == "odh-trusted-ca-bundle" }),
		"the platform's CA bundle is mounted")
}
