// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/llamastack/llsd/internal/testenv"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/controller"
)

// `llsd controller` as a process, the way the install manifests run it (self-signed
// certificates), against a real API server through a kubeconfig: it becomes ready, writes
// status, serves health and metrics, and stops cleanly on SIGTERM.
func TestControllerProcess(t *testing.T) {
	testenv.Need(t, testenv.MissingAssets())
	env := &envtest.Environment{}
	cfg, err := testenv.Start(env)
	require.NoError(t, err)
	t.Cleanup(func() { _ = env.Stop() })
	user, err := env.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
	require.NoError(t, err)
	kubeconfig, err := user.KubeConfig()
	require.NoError(t, err)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"kubeconfig": string(kubeconfig)})

	scheme := runtime.NewScheme()
	utilruntime.Must(corev1.AddToScheme(scheme))
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

	probe, metrics := freeAddr(t), freeAddr(t)
	cmd := exec.Command(llsdBinary, "controller", "--self-signed-certs=llsd-webhook-tls", "--cert-dir", filepath.Join(dir, "certs"),
		"--webhook-port", fmt.Sprint(testenv.FreePort(t)), "--metrics-bind-address", metrics, "--health-probe-bind-address", probe)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(dir, "kubeconfig"))
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
	}, 30*time.Second, 100*time.Millisecond, "llsd controller did not become ready: %s", &logs)

	require.NoError(t, c.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &crd))
	assert.NotEmpty(t, crd.Spec.Conversion.Webhook.ClientConfig.CABundle, "the CA is in the CRD")
	var secret corev1.Secret
	require.NoError(t, c.Get(ctx, types.NamespacedName{Namespace: "llsd-system", Name: "llsd-webhook-tls"}, &secret))

	llsd := &v1alpha2.LlamaStackDistribution{ObjectMeta: metav1.ObjectMeta{Name: "chat", Namespace: "default"},
		Spec: v1alpha2.LlamaStackDistributionSpec{Distribution: v1alpha2.DistributionSpec{Name: "starter"}}}
	require.NoError(t, c.Create(ctx, llsd))
	require.EventuallyWithT(t, func(col *assert.CollectT) {
		require.NoError(col, c.Get(ctx, client.ObjectKeyFromObject(llsd), llsd))
		cond := meta.FindStatusCondition(llsd.Status.Conditions, controller.ConditionConfigGenerated)
		require.NotNil(col, cond)
		assert.Equal(col, controller.ReasonNotRendered, cond.Reason)
	}, 30*time.Second, 100*time.Millisecond, "no status: %s", &logs)

	for url, want := range map[string]string{"http://" + probe + "/healthz": "ok",
		"http://" + metrics + "/metrics": `controller_runtime_reconcile_total{controller="llsd-status",result="success"}`} {
		resp, err := http.Get(url)
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode, url)
		assert.Contains(t, string(body), want, url)
	}

	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-exited:
		assert.NoError(t, err, "exit on SIGTERM: %s", &logs)
	case <-time.After(30 * time.Second):
		t.Fatalf("llsd controller did not stop on SIGTERM: %s", &logs)
	}
	assert.NotContains(t, logs.String(), string(secret.Data["tls.key"]), "no key material in the logs")
}

func freeAddr(t *testing.T) string { return fmt.Sprintf("127.0.0.1:%d", testenv.FreePort(t)) }

func ptr[T any](v T) *T { return &v }
