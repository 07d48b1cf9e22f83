// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A GitOps package often names no namespace: the tool that applies it sets one. llsd renders
// such a package without an empty DNS label, a placeholder or a guessed default: a Service of
// its own namespace by its short name, an error naming metadata.namespace where only a
// namespace can say it, and under Argo CD the Application's destination (#56).
func TestNamespaceLessPackages(t *testing.T) {
	llsd := func(spec string) string {
		return "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: chat}\nspec:\n  distribution: {name: starter}\n" + spec
	}
	isvc := func(namespace, annotations string) string {
		meta := "{name: granite" + namespace + annotations + "}"
		return "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata: " + meta + "\n" +
			"spec: {predictor: {model: {modelFormat: {name: vLLM}, runtime: vllm, storageUri: 'oci://quay.io/models/granite:1'}}}\n"
	}
	const tokenAuth = ", annotations: {security.opendatahub.io/enable-auth: 'true', serving.kserve.io/deploymentMode: RawDeployment}"
	model := "  providers:\n    inference: [{id: granite, provider: vllm, inferenceService: {name: granite}}]\n"
	for _, tc := range []struct {
		reason string
		files  map[string]string
		env    map[string]string
		want   []string // in the output
		err    string   // the refusal
	}{
		{reason: "a model beside it: its Service by short name", files: map[string]string{"llsd.yaml": llsd(model), "isvc.yaml": isvc("", "")},
			want: []string{"base_url: http://granite-predictor/v1"}},
		{reason: "a model behind a token: its certificate names the Service in full", files: map[string]string{"llsd.yaml": llsd(model), "isvc.yaml": isvc("", tokenAuth)},
			err: "InferenceService granite: it names no namespace, and its address needs one: its proxy serves https with a certificate that names the Service granite-predictor"},
		{reason: "a model in another namespace behind a token: the RoleBinding must name the account's namespace",
			files: map[string]string{"llsd.yaml": llsd(strings.Replace(model, "{name: granite}", "{name: granite, namespace: models}", 1)), "isvc.yaml": isvc(", namespace: models", tokenAuth)},
			err:   "metadata.namespace: Required value: InferenceService models/granite is called with a token of this server's service account, which a RoleBinding in models grants"},
		{reason: "a host made of name and namespace", files: map[string]string{"llsd.yaml": llsd("  networking: {expose: {}}\n")},
			env: map[string]string{"LLSD_INGRESS_DOMAIN": "apps.example.com"},
			err: "metadata.namespace: Required value: the Ingress's host is the server's name and namespace under the render option ingress.domain (apps.example.com)"},
		{reason: "a kustomization's namespace, as kustomize build sets it", files: map[string]string{"llsd.yaml": llsd(model), "isvc.yaml": isvc("", tokenAuth),
			"kustomization.yaml": "namespace: ai\nresources: [llsd.yaml, isvc.yaml]\n"},
			want: []string{"base_url: https://granite-predictor.ai.svc.cluster.local:8443/v1", "namespace: ai"}},
		{reason: "Argo CD's destination", files: map[string]string{"llsd.yaml": llsd(model + "  networking: {expose: {}}\n"), "isvc.yaml": isvc("", tokenAuth)},
			env:  map[string]string{"ARGOCD_APP_NAMESPACE": "ai", "LLSD_INGRESS_DOMAIN": "apps.example.com"},
			want: []string{"base_url: https://granite-predictor.ai.svc.cluster.local:8443/v1", "host: chat.ai.apps.example.com", "namespace: ai"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				writeFile(t, dir, name, content)
			}
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, out, stderr := run(t, "render", dir)
			if tc.err != "" {
				assert.Equal(t, 1, code)
				assert.Empty(t, out)
				assert.Contains(t, stderr, tc.err)
				return
			}
			require.Equal(t, 0, code, stderr)
			for _, want := range tc.want {
				assert.Contains(t, out, want)
			}
			assert.NotContains(t, out, "..svc", "never an empty DNS label")
			assert.NotContains(t, stderr, "<namespace>", "never a placeholder")
		})
	}
}

// The successor's documented form of a named backend reads its host and port from the pod's
// variables: accepted when the OGXServer sets them itself to plain values, refused when a
// Secret decides them (#56).
func TestOGXServerBackendsFromThePodsVariables(t *testing.T) {
	server := func(env string) string {
		return `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  storage:
    backends:
      kv_default: {type: kv_postgres, host: "${env.POSTGRES_HOST}", port: "${env.POSTGRES_PORT}", user: ogx, password: {name: pg, key: password}}
      sql_default: {type: sql_postgres, host: "${env.POSTGRES_HOST}", port: "${env.POSTGRES_PORT}", user: ogx, password: {name: pg, key: password}}
  workload: {overrides: {env: ` + env + `}}
`
	}
	dir := t.TempDir()
	writeFile(t, dir, "server.yaml", server(`[{name: POSTGRES_HOST, value: pg.db.svc}, {name: POSTGRES_PORT, value: "5433"}]`))
	code, out, stderr := run(t, "render", dir)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "host: ${env.POSTGRES_HOST}")
	assert.Contains(t, out, "port: 5433")

	writeFile(t, dir, "server.yaml", server(`[{name: POSTGRES_HOST, value: pg.db.svc}, {name: POSTGRES_PORT, valueFrom: {secretKeyRef: {name: pg, key: port}}}]`))
	code, _, stderr = run(t, "render", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `spec.storage.backends.kv_default.port: Invalid value: "${env.POSTGRES_PORT}"`)
}
