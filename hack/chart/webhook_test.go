// SPDX-License-Identifier: Apache-2.0

package chart

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// webhookAnswers runs llsd-controller as the chart's Deployment runs it (its arguments and
// environment, the token of the chart's service account, so the chart's RBAC is what it may
// do) and has the API server convert through the chart's CRD and Service: a v1alpha1 object
// is stored (the API server converts it to v1alpha2, the storage version) and read back as
// v1alpha2.
func webhookAnswers(t *testing.T, c client.Client, cfg *rest.Config, d appsv1.Deployment, namespace string) {
	host := hostAddress(t)
	listener, err := net.Listen("tcp", host+":0")
	require.NoError(t, err)
	port := listener.Addr().(*net.TCPAddr).Port
	require.NoError(t, listener.Close())
	// The Service's endpoint, which no controller-manager writes here: this machine.
	require.NoError(t, c.Create(t.Context(), &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Name: "llsd-webhook-here", Namespace: namespace, Labels: map[string]string{discoveryv1.LabelServiceName: "llsd-webhook"}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{host}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}}},
		Ports:       []discoveryv1.EndpointPort{{Name: ptr.To("webhook"), Port: ptr.To(int32(port)), Protocol: ptr.To(corev1.ProtocolTCP)}},
	}))

	dir := t.TempDir()
	pod := d.Spec.Template.Spec
	kubeconfig := serviceAccountKubeconfig(t, c, cfg, namespace, pod.ServiceAccountName, dir)
	container := pod.Containers[0]
	probe := fmt.Sprintf("127.0.0.1:%d", freePort(t))
	args := slices.Concat(container.Args, []string{"--cert-dir", filepath.Join(dir, "certs"), "--webhook-port", fmt.Sprint(port),
		"--metrics-bind-address", "0", "--health-probe-bind-address", probe,
		"--leader-election-namespace", namespace}) // in a pod, its service account's namespace
	cmd := exec.Command(controllerBinary(t, dir), args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+kubeconfig)
	for _, e := range container.Env {
		value := e.Value
		if e.ValueFrom != nil && e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "metadata.namespace" {
			value = namespace // what the kubelet gives the pod
		}
		cmd.Env = append(cmd.Env, e.Name+"="+value)
	}
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	require.EventuallyWithT(t, func(c *assert.CollectT) {
		resp, err := http.Get("http://" + probe + "/readyz")
		require.NoError(c, err)
		_ = resp.Body.Close()
		assert.Equal(c, http.StatusOK, resp.StatusCode)
	}, 60*time.Second, 200*time.Millisecond, "llsd-controller did not become ready: %s", &logs)

	old := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "llamastack.io/v1alpha1", "kind": "LlamaStackDistribution",
		"metadata": map[string]any{"name": "chat", "namespace": namespace},
		"spec":     map[string]any{"server": map[string]any{"distribution": map[string]any{"name": "starter"}}}}}
	require.NoError(t, c.Create(t.Context(), old), "the API server converts v1alpha1 to v1alpha2 to store it: %s", &logs)
	stored := &unstructured.Unstructured{}
	stored.SetAPIVersion("llamastack.io/v1alpha2")
	stored.SetKind("LlamaStackDistribution")
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Namespace: namespace, Name: "chat"}, stored))
	name, _, _ := unstructured.NestedString(stored.Object, "spec", "distribution", "name")
	assert.Equal(t, "starter", name, "the v1alpha2 form of the v1alpha1 object")
}

// hostAddress is an IPv4 address of this machine other than loopback, which an
// EndpointSlice may name.
func hostAddress(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	require.NoError(t, err)
	for _, a := range addrs {
		if ip, ok := a.(*net.IPNet); ok && ip.IP.To4() != nil && !ip.IP.IsLoopback() && !ip.IP.IsLinkLocalUnicast() {
			return ip.IP.String()
		}
	}
	// Not a tool CI could install: a machine without a network address skips, in CI too.
	t.Skip("skipping the webhook through the chart's Service: this machine has no IPv4 address but loopback, which an EndpointSlice cannot name")
	return ""
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// serviceAccountKubeconfig writes a kubeconfig with a token of namespace/name.
func serviceAccountKubeconfig(t *testing.T, c client.Client, cfg *rest.Config, namespace, name, dir string) string {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
	req := &authenticationv1.TokenRequest{}
	require.NoError(t, c.SubResource("token").Create(t.Context(), sa, req))
	config := clientcmdapi.NewConfig()
	config.Clusters["envtest"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	config.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: req.Status.Token}
	config.Contexts["envtest"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: name, Namespace: namespace}
	config.CurrentContext = "envtest"
	path := filepath.Join(dir, "kubeconfig")
	require.NoError(t, clientcmd.WriteToFile(*config, path))
	return path
}

// controllerBinary builds llsd-controller from the repository.
func controllerBinary(t *testing.T, dir string) string {
	bin := filepath.Join(dir, "llsd-controller")
	build := exec.Command("go", "build", "-o", bin, "./cmd/llsd-controller")
	build.Dir = filepath.Join("..", "..")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}
