// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/testsupport/realserver"
	"github.com/llamastack/llsd/pkg/api"
)

// Behind Praxis on the real server (OGX 1.3, its image installing what Debian packages): the
// recipe's server believes the gateway's headers and nothing else. Its health answers without
// them; a caller without x-user-id gets 401, one without x-tenant-id is refused (one tenant per
// caller); the model llsd registered is every tenant's to read;
// a file one user uploads is theirs, not another tenant's; and the Responses API, which Praxis
// serves, is not the server's.
func TestTheRealServerBehindPraxis(t *testing.T) {
	servers := newRealServers(t)
	network := realserver.NewNetwork(t)
	endpoint := standInOpenAI(t, network.Listen(t))
	res := renderOnDebianStarter(t, "1.3", `  providers:
    inference: {provider: openai, endpoint: "`+endpoint+`", apiKey: {secretKeyRef: {name: openai, key: key}}}
  resources: {models: [stand-in-model]}
  authentication:
    upstreamHeader: {principalHeader: x-user-id, tenantHeader: x-tenant-id}
    accessPolicy: {owners: true, sharedRead: true}
    tenancy: {mode: multi}
  disabled: [responses]
  networking:
    allowedFrom:
      pods: [{namespace: openshift-ingress, labels: [app=payload-processing]}]
`)
	_, dep := renderedServer(res)
	pod, err := realserver.PodOf("1.3", dep, api.ContainerName, configMapsOf(res))
	require.NoError(t, err)
	process := servers.get(t, "1.3").Start(t, network, pod)
	outcome := process.Wait(startLimit)
	require.Equal(t, realserver.StageServing, outcome.Stage, "%s: %s\n%s", outcome.Where, outcome.Exception, outcome.Log)

	call := func(method, route, user, tenant string) (int, string) {
		req, err := http.NewRequest(method, process.URL()+route, nil)
		require.NoError(t, err)
		if user != "" {
			req.Header.Set("x-user-id", user)
			req.Header.Set("x-tenant-id", tenant)
		}
		return do(t, process, req)
	}
	status, _ := call(http.MethodGet, "/v1/health", "", "")
	assert.Equal(t, http.StatusOK, status, "the kubelet's probe carries no header")
	status, body := call(http.MethodGet, "/v1/models", "", "")
	assert.Equal(t, http.StatusUnauthorized, status, "a caller the gateway did not name: %s", body)
	req, err := http.NewRequest(http.MethodGet, process.URL()+"/v1/models", nil)
	require.NoError(t, err)
	req.Header.Set("x-user-id", "someone")
	status, body = do(t, process, req)
	assert.Contains(t, []int{http.StatusUnauthorized, http.StatusForbidden}, status, "a caller of no tenant (multi-tenancy): %s", body)
	for _, tenant := range []string{"team-a", "team-b"} {
		status, body = call(http.MethodGet, "/v1/models", "someone", tenant)
		assert.Equal(t, http.StatusOK, status, body)
		assert.NotEmpty(t, registeredModel(body, "stand-in-model"), "the configured model is every tenant's: %s", body)
	}

	status, body = upload(t, process, "alice", "team-a", "notes.txt", "alice's notes")
	require.Equal(t, http.StatusOK, status, body)
	var file struct{ ID string }
	require.NoError(t, json.Unmarshal([]byte(body), &file))
	status, body = call(http.MethodGet, "/v1/files/"+file.ID, "alice", "team-a")
	assert.Equal(t, http.StatusOK, status, "the owner reads her file: %s", body)
	status, body = call(http.MethodGet, "/v1/files/"+file.ID, "carol", "team-a")
	assert.Contains(t, []int{http.StatusForbidden, http.StatusNotFound}, status, "another user of her tenant does not: %s", body)
	status, body = call(http.MethodGet, "/v1/files/"+file.ID, "bob", "team-b")
	assert.Contains(t, []int{http.StatusForbidden, http.StatusNotFound}, status, "nor another tenant: %s", body)
	status, body = call(http.MethodGet, "/v1/files", "bob", "team-b")
	assert.Equal(t, http.StatusOK, status, body)
	assert.NotContains(t, body, file.ID, "nor sees it listed")

	status, body = call(http.MethodGet, "/v1/responses", "alice", "team-a")
	assert.Equal(t, http.StatusNotFound, status, "Praxis serves the Responses API, not the server: %s", body)
}

// upload sends a file as a user of a tenant, through the files API (purpose assistants).
func upload(t *testing.T, p *realserver.Process, user, tenant, name, content string) (int, string) {
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	require.NoError(t, form.WriteField("purpose", "assistants"))
	part, err := form.CreateFormFile("file", name)
	require.NoError(t, err)
	_, err = part.Write([]byte(content))
	require.NoError(t, err)
	require.NoError(t, form.Close())
	req, err := http.NewRequest(http.MethodPost, p.URL()+"/v1/files", &body)
	require.NoError(t, err)
	req.Header.Set("Content-Type", form.FormDataContentType())
	req.Header.Set("x-user-id", user)
	req.Header.Set("x-tenant-id", tenant)
	return do(t, p, req)
}

// do sends a request to the server and returns its status and body.
func do(t *testing.T, p *realserver.Process, req *http.Request) (int, string) {
	resp, err := p.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(out)
}
