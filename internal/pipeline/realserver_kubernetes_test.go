// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/llamastack/llsd/internal/testsupport/realserver"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
)

// The Kubernetes provider against a real API server: the real server of a config llsd renders
// with authentication.kubernetes asks the test's kube-apiserver (reached from the server's
// network namespace through a forwarder on 127.0.0.1, trusted through networking.tls.caBundle)
// who a caller is: a service account's token is answered, a caller without one or with a
// made-up token is refused.
func TestTheRealServerAsksTheAPIServer(t *testing.T) {
	testenv.Need(t, testenv.MissingAssets())
	const version = "1.3"
	servers := newRealServers(t)
	network := realserver.NewNetwork(t)
	forwarder := network.Listen(t)
	upstream, err := url.Parse(apiServerConfig.Host)
	require.NoError(t, err)
	go forward(forwarder, upstream.Host)

	ca := map[string]string{"ca.crt": string(apiServerConfig.CAData)}
	res := renderOnDebianStarterWith(t, version, `  authentication:
    kubernetes: {apiServerURL: "https://`+forwarder.Addr().String()+`", claimsMapping: {username: roles, groups: teams}}
    accessPolicy: {owners: true, sharedRead: true}
  networking: {tls: {caBundle: {configMapName: apiserver-ca, configMapKeys: [ca.crt]}}}
`, map[string]map[string]string{"ai/apiserver-ca": ca})
	_, dep := renderedServer(res)
	configMaps := configMapsOf(res)
	configMaps["apiserver-ca"] = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "apiserver-ca"}, Data: ca}
	pod, err := realserver.PodOf(version, dep, api.ContainerName, configMaps)
	require.NoError(t, err)
	process := servers.get(t, version).Start(t, network, pod)
	outcome := process.Wait(startLimit)
	require.Equal(t, realserver.StageServing, outcome.Stage, "%s: %s\n%s", outcome.Where, outcome.Exception, outcome.Log)

	token := testenv.ServiceAccountToken(t, apiServer, "llsd-real-server-caller")
	status, body := request(t, process, http.MethodGet, "/v1/models", "", "")
	assert.Equal(t, http.StatusUnauthorized, status, "a caller without a token: %s", body)
	status, body = request(t, process, http.MethodGet, "/v1/models", "not-a-token", "")
	assert.Equal(t, http.StatusUnauthorized, status, "a token the API server does not know: %s", body)
	status, body = request(t, process, http.MethodGet, "/v1/models", token, "")
	assert.Equal(t, http.StatusOK, status, "a service account's token, which the API server vouches for: %s\n%s", body, process.Log())
}

// forward copies each connection accepted in the server's namespace to addr on this machine.
func forward(l net.Listener, addr string) {
	for {
		in, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer in.Close()
			out, err := net.Dial("tcp", addr)
			if err != nil {
				return
			}
			defer out.Close()
			go func() { _, _ = io.Copy(out, in) }()
			_, _ = io.Copy(in, out)
		}()
	}
}
