// SPDX-License-Identifier: Apache-2.0

package kserve_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/kserve"
)

const huggingFaceRuntime = `apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata: {name: hf, namespace: ai}
spec:
  containers:
  - name: kserve-container
    image: kserve/huggingfaceserver:v0.15.0
    args: ["--model_name={{.Name}}"]
`

func decode(t *testing.T, doc string) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(doc), &m))
	return m
}

func isvc(annotations, predictor string) string {
	return "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: granite\n  namespace: ai\n" +
		"  annotations: {" + annotations + "}\nspec:\n  predictor:\n" + predictor
}

const onVLLM = "    model:\n      modelFormat: {name: vLLM}\n      runtime: vllm-cuda-runtime\n"

func TestDerive(t *testing.T) {
	runtimes := func(namespace, name string) map[string]any {
		// OpenShift AI's vLLM runtime as its template writes it: the KServe example's
		vllm, err := os.ReadFile(filepath.Join("..", "..", "examples", "kserve", "kpt", "servingruntime.yaml"))
		require.NoError(t, err)
		for _, doc := range []string{string(vllm), huggingFaceRuntime} {
			m := decode(t, doc)
			meta := m["metadata"].(map[string]any)
			if meta["name"] == name && meta["namespace"] == namespace {
				return m
			}
		}
		return nil
	}
	for _, tc := range []struct {
		reason, doc        string
		url, model         string
		token, ca, knative bool
		contextLength      int32
		embedding          bool
		assumed            int
	}{
		{reason: "raw deployment on OpenShift AI's vLLM runtime: the predictor Service on port 80, the InferenceService's name",
			doc: isvc("serving.kserve.io/deploymentMode: RawDeployment", onVLLM),
			url: "http://granite-predictor.ai.svc.cluster.local/v1", model: "granite"},
		{reason: "no deployment mode: KServe's default, Standard, assumed and said",
			doc: isvc("", onVLLM), url: "http://granite-predictor.ai.svc.cluster.local/v1", model: "granite", assumed: 1},
		{reason: "OpenShift AI's token protection: kube-rbac-proxy on https 8443 with the service CA's certificate",
			doc: isvc("serving.kserve.io/deploymentMode: RawDeployment, security.opendatahub.io/enable-auth: 'true'", onVLLM),
			url: "https://granite-predictor.ai.svc.cluster.local:8443/v1", model: "granite", token: true, ca: true},
		{reason: "serverless: Knative's Service through the local gateway, a token when protected (Authorino)",
			doc: isvc("serving.kserve.io/deploymentMode: Serverless, security.opendatahub.io/enable-auth: 'true'", onVLLM),
			url: "http://granite-predictor.ai.svc.cluster.local/v1", model: "granite", token: true, knative: true},
		{reason: "the InferenceService's args come after the runtime's: the last name and the context length win",
			doc: isvc("serving.kserve.io/deploymentMode: Standard",
				onVLLM+"      args: [--served-model-name=ibm/granite-3.3-8b, --max-model-len=16384]\n"),
			url: "http://granite-predictor.ai.svc.cluster.local/v1", model: "ibm/granite-3.3-8b", contextLength: 16384},
		{reason: "an embedding model: vLLM's task",
			doc: isvc("serving.kserve.io/deploymentMode: Standard", onVLLM+"      args: [--task, embed]\n"),
			url: "http://granite-predictor.ai.svc.cluster.local/v1", model: "granite", embedding: true},
		{reason: "KServe's Hugging Face runtime: its OpenAI API under /openai/v1",
			doc: isvc("serving.kserve.io/deploymentMode: Standard", "    model:\n      modelFormat: {name: huggingface}\n      runtime: hf\n"),
			url: "http://granite-predictor.ai.svc.cluster.local/openai/v1", model: "granite"},
		{reason: "a runtime not among the inputs: OpenShift AI's vLLM runtime assumed and said",
			doc: isvc("serving.kserve.io/deploymentMode: Standard", "    model:\n      modelFormat: {name: vLLM}\n      runtime: elsewhere\n"),
			url: "http://granite-predictor.ai.svc.cluster.local/v1", model: "granite", assumed: 1},
		{reason: "a transformer is the entry point",
			doc: isvc("serving.kserve.io/deploymentMode: Standard", onVLLM) + "  transformer:\n    containers: [{name: t, image: t}]\n",
			url: "http://granite-transformer.ai.svc.cluster.local/v1", model: "granite"},
		{reason: "a predictor of its own container: vLLM without a served name serves the model's path",
			doc: isvc("serving.kserve.io/deploymentMode: Standard",
				"    containers:\n    - name: kserve-container\n      image: vllm/vllm-openai\n      args: [--model, /mnt/models/llama, --max-model-len, '8192']\n"),
			url: "http://granite-predictor.ai.svc.cluster.local/v1", model: "/mnt/models/llama", contextLength: 8192},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			p, err := kserve.Derive(decode(t, tc.doc), runtimes)
			require.NoError(t, err)
			assert.Equal(t, tc.url, p.BaseURL)
			assert.Equal(t, tc.model, p.ModelName)
			assert.Equal(t, tc.token, p.TokenProtected, "token")
			assert.Equal(t, tc.ca, p.ServiceCA, "service CA")
			assert.Equal(t, tc.knative, p.Knative, "knative")
			assert.Equal(t, tc.contextLength, p.ContextLength)
			assert.Equal(t, tc.embedding, p.Embedding)
			assert.Len(t, p.Assumed, tc.assumed, "%v", p.Assumed)
			assert.NotEmpty(t, p.Facts, "every value names its source")
		})
	}
}

func TestDeriveRefusesModelMesh(t *testing.T) {
	_, err := kserve.Derive(decode(t, isvc("serving.kserve.io/deploymentMode: ModelMesh", onVLLM)), nil)
	assert.ErrorContains(t, err, `deployment mode "ModelMesh" serves no OpenAI API`)
}
