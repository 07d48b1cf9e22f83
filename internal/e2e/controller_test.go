// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/controller"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// apiServerAsAdmin starts a real API server for the test and returns its config and a
// kubeconfig of a cluster admin, as a user's tools (kubectl, a controller process) take it.
func apiServerAsAdmin(t *testing.T) (*rest.Config, []byte) {
	t.Helper()
	return apiServerAsAdminWith(t, testenv.Start)
}

// apiServerAsAdminWith is apiServerAsAdmin with the API server start makes (testenv.StartBare:
// a fresh cluster, without llsd's CRD).
func apiServerAsAdminWith(t *testing.T, start func(*envtest.Environment) (*rest.Config, error)) (*rest.Config, []byte) {
	t.Helper()
	env := &envtest.Environment{}
	cfg, err := start(env)
	require.NoError(t, err)
	t.Cleanup(func() { _ = env.Stop() })
	user, err := env.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
	require.NoError(t, err)
	kubeconfig, err := user.KubeConfig()
	require.NoError(t, err)
	return cfg, kubeconfig
}

// `llsd-controller` as a process, the way the install manifests run it (self-signed
// certificates), against a real API server through a kubeconfig: it becomes ready, writes
// status, serves health, metrics to allowed clients only and conversions of bounded size, and
// stops cleanly on SIGTERM.
func TestControllerProcess(t *testing.T) {
	testenv.Need(t, testenv.MissingAssets())
	cfg, kubeconfig := apiServerAsAdmin(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"kubeconfig": string(kubeconfig)})

	scheme := runtime.NewScheme()
	utilruntime.Must(corev1.AddToScheme(scheme))
	utilruntime.Must(rbacv1.AddToScheme(scheme))
	utilruntime.Must(authenticationv1.AddToScheme(scheme))
	utilruntime.Must(apiextensionsv1.AddToScheme(scheme))
	utilruntime.Must(v1alpha2.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "llsd-system"}}))
	// envtest installs the CRD without its conversion webhook when it serves none itself; put
	// back what crds/ says (a Service the API server cannot reach here: only v1alpha2 is used).
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, c.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &crd))
	crd.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.WebhookConverter,
		Webhook: &apiextensionsv1.WebhookConversion{ConversionReviewVersions: []string{"v1"}, ClientConfig: &apiextensionsv1.WebhookClientConfig{
			Service: &apiextensionsv1.ServiceReference{Namespace: "llsd-system", Name: "llsd-webhook", Path: ptr("/convert")}}}}
	require.NoError(t, c.Update(ctx, &crd))

	probe, metrics, webhookPort := freeAddr(t), freeAddr(t), testenv.FreePort(t)
	webhookAddr := fmt.Sprintf("127.0.0.1:%d", webhookPort)
	cmd := exec.Command(controllerBinary, "--self-signed-certs=llsd-webhook-tls", "--cert-dir", filepath.Join(dir, "certs"),
		"--webhook-port", fmt.Sprint(webhookPort), "--metrics-bind-address", metrics, "--health-probe-bind-address", probe)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "kubeconfig"))
	cmd.Env = append(cmd.Env, installEnv(t)...)
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	require.NoError(t, cmd.Start())
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	require.EventuallyWithT(t, func(c *assert.CollectT) {
		resp, err := http.Get("http://" + probe + "/readyz")
		require.NoError(c, err)
		resp.Body.Close()
		assert.Equal(c, http.StatusOK, resp.StatusCode)
	}, 30*time.Second, 100*time.Millisecond, "llsd-controller did not become ready: %s", &logs)

	require.NoError(t, c.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &crd))
	assert.NotEmpty(t, crd.Spec.Conversion.Webhook.ClientConfig.CABundle, "the CA is in the CRD")
	var secret corev1.Secret
	require.NoError(t, c.Get(ctx, types.NamespacedName{Namespace: "llsd-system", Name: "llsd-webhook-tls"}, &secret))

	llsd := &v1alpha2.LlamaStackDistribution{ObjectMeta: metav1.ObjectMeta{Name: "chat", Namespace: "default"},
		Spec: v1alpha2.LlamaStackDistributionSpec{Distribution: v1alpha2.DistributionSpec{Name: "starter"}}}
	require.NoError(t, c.Create(ctx, llsd))
	require.EventuallyWithT(t, func(col *assert.CollectT) {
		require.NoError(col, c.Get(ctx, client.ObjectKeyFromObject(llsd), llsd))
		cond := meta.FindStatusCondition(llsd.Status.Conditions, v1alpha2.ConditionConfigGenerated)
		require.NotNil(col, cond)
		assert.Equal(col, v1alpha2.ReasonNotRendered, cond.Reason)
	}, 30*time.Second, 100*time.Millisecond, "no status: %s", &logs)

	resp, err := http.Get("http://" + probe + "/healthz")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "/healthz")

	t.Run("metrics only for clients allowed to get /metrics", func(t *testing.T) {
		// The metrics server starts beside the webhook, which readiness covers: wait for it.
		require.EventuallyWithT(t, func(c *assert.CollectT) {
			conn, err := net.Dial("tcp", metrics)
			require.NoError(c, err)
			_ = conn.Close()
		}, 30*time.Second, 100*time.Millisecond, "the metrics server does not listen: %s", &logs)
		scrape := func(token string) (int, string) {
			req, err := http.NewRequest(http.MethodGet, "https://"+metrics+"/metrics", nil)
			require.NoError(t, err)
			if token != "" {
				req.Header.Set("Authorization", "Bearer "+token)
			}
			// The metrics certificate is controller-runtime's own self-signed one.
			insecure := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
			resp, err := insecure.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			return resp.StatusCode, string(body)
		}
		code, _ := scrape("")
		assert.Equal(t, http.StatusUnauthorized, code, "no token")
		code, _ = scrape(testenv.ServiceAccountToken(t, c, "nobody"))
		assert.Equal(t, http.StatusForbidden, code, "a token without llsd-metrics-reader")
		installMetricsReader(t, c, "prometheus")
		code, body := scrape(testenv.ServiceAccountToken(t, c, "prometheus"))
		assert.Equal(t, http.StatusOK, code, "a token bound to llsd-metrics-reader")
		assert.Contains(t, body, `controller_runtime_reconcile_total{controller="llsd-status",result="success"}`)
	})

	t.Run("an oversized conversion request is refused and the webhook keeps serving", func(t *testing.T) {
		require.NoError(t, c.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &crd))
		roots := x509.NewCertPool()
		require.True(t, roots.AppendCertsFromPEM(crd.Spec.Conversion.Webhook.ClientConfig.CABundle))
		webhookClient := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "llsd-webhook.llsd-system.svc"}}}
		convert := func(body []byte) (int, string) {
			resp, err := webhookClient.Post("https://"+webhookAddr+"/convert", "application/json", bytes.NewReader(body))
			require.NoError(t, err)
			defer resp.Body.Close()
			out, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			return resp.StatusCode, string(out)
		}
		code, _ := convert(bytes.Repeat([]byte(" "), controller.MaxConversionRequest+1))
		assert.Equal(t, http.StatusRequestEntityTooLarge, code)
		code, out := convert([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"1",
			"desiredAPIVersion":"llamastack.io/v1alpha1","objects":[{"apiVersion":"llamastack.io/v1alpha2","kind":"LlamaStackDistribution",
			"metadata":{"name":"chat","namespace":"default"},"spec":{"distribution":{"name":"starter"}}}]}}`))
		assert.Equal(t, http.StatusOK, code)
		assert.Contains(t, out, `"status":"Success"`)
	})

	t.Run("concurrent maximum-size conversions stay under the install's memory limit", func(t *testing.T) {
		require.NoError(t, c.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &crd))
		roots := x509.NewCertPool()
		require.True(t, roots.AppendCertsFromPEM(crd.Spec.Conversion.Webhook.ClientConfig.CABundle))
		transport := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "llsd-webhook.llsd-system.svc"}, MaxConnsPerHost: 0}
		webhookClient := &http.Client{Transport: transport}
		// One object with an annotation that brings the request to just under the limit.
		filler := strings.Repeat("x", controller.MaxConversionRequest-1024)
		body := []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"1",` +
			`"desiredAPIVersion":"llamastack.io/v1alpha1","objects":[{"apiVersion":"llamastack.io/v1alpha2","kind":"LlamaStackDistribution",` +
			`"metadata":{"name":"chat","namespace":"default","annotations":{"big":"` + filler + `"}},"spec":{"distribution":{"name":"starter"}}}]}}`)
		require.Less(t, len(body), controller.MaxConversionRequest)
		const clients = 200
		codes := make(chan int, clients)
		for range clients {
			go func() {
				resp, err := webhookClient.Post("https://"+webhookAddr+"/convert", "application/json", bytes.NewReader(body))
				if err != nil {
					codes <- 0
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				codes <- resp.StatusCode
			}()
		}
		answered := map[int]int{}
		for range clients {
			answered[<-codes]++
		}
		assert.Positive(t, answered[http.StatusOK], "some conversions succeed: %v", answered)
		peak := peakRSS(t, cmd.Process.Pid)
		limit := installMemoryLimit(t)
		t.Logf("%d concurrent %d-byte conversions: answers %v, peak RSS %d MiB (the install's limit: %d MiB)",
			clients, len(body), answered, peak>>20, limit>>20)
		assert.Less(t, peak, limit, "the controller would be killed for memory")

		resp, err := webhookClient.Post("https://"+webhookAddr+"/convert", "application/json", strings.NewReader(
			`{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"2","desiredAPIVersion":"llamastack.io/v1alpha1",`+
				`"objects":[{"apiVersion":"llamastack.io/v1alpha2","kind":"LlamaStackDistribution","metadata":{"name":"chat","namespace":"default"},`+
				`"spec":{"distribution":{"name":"starter"}}}]}}`))
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, "the webhook keeps serving after the load")
	})

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		assert.NoError(t, err, "exit on SIGTERM: %s", &logs)
	case <-time.After(30 * time.Second):
		t.Fatalf("llsd-controller did not stop on SIGTERM: %s", &logs)
	}
	assert.NotContains(t, logs.String(), string(secret.Data["tls.key"]), "no key material in the logs")
}

// installMetricsReader creates the ClusterRole llsd-metrics-reader of the install manifests
// and binds it to the ServiceAccount default/name, as a Prometheus install would.
func installMetricsReader(t *testing.T, c client.Client, name string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "install", "base", "rbac.yaml"))
	require.NoError(t, err)
	for _, doc := range strings.Split(string(data), "\n---") {
		if !strings.Contains(doc, "name: llsd-metrics-reader") {
			continue
		}
		var role rbacv1.ClusterRole
		require.NoError(t, yaml.UnmarshalStrict([]byte(doc), &role))
		require.NoError(t, c.Create(context.Background(), &role))
	}
	require.NoError(t, c.Create(context.Background(), &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "prometheus-llsd"},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "llsd-metrics-reader"},
		Subjects: []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: name, Namespace: "default"}}}))
}

func freeAddr(t *testing.T) string { return fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t)) }

func ptr[T any](v T) *T { return &v }

// peakRSS is the most memory process pid has held (VmHWM).
func peakRSS(t *testing.T, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(data), "\n") {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var n int64
			_, err := fmt.Sscanf(strings.TrimSpace(kb), "%d kB", &n)
			require.NoError(t, err)
			return n << 10
		}
	}
	t.Fatal("no VmHWM in /proc/<pid>/status")
	return 0
}

// installMemoryLimit is the controller container's memory limit in examples/install.
func installMemoryLimit(t *testing.T) int64 {
	limits := installContainer(t).Resources.Limits
	return limits.Memory().Value()
}

// installEnv is the controller container's environment in examples/install, as NAME=value.
func installEnv(t *testing.T) []string {
	var env []string
	for _, e := range installContainer(t).Env {
		env = append(env, e.Name+"="+e.Value)
	}
	return env
}

// installContainer is the controller container of examples/install.
func installContainer(t *testing.T) corev1.Container {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "install", "base", "controller.yaml"))
	require.NoError(t, err)
	for _, doc := range strings.Split(string(data), "\n---") {
		var d appsv1.Deployment
		if yaml.Unmarshal([]byte(doc), &d) != nil || d.Kind != "Deployment" {
			continue
		}
		return d.Spec.Template.Spec.Containers[0]
	}
	t.Fatal("no Deployment in examples/install/base/controller.yaml")
	return corev1.Container{}
}
