// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/llamastack/llsd/internal/controller"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// One real kube-apiserver + etcd for the package; each test starts the controller it needs.
var (
	cfg       *rest.Config
	k8sClient client.Client
	webhook   *envtest.WebhookInstallOptions
)

func TestMain(m *testing.M) {
	testenv.Main(m, "the controller suite", func() int { return runWithAPIServer(m) })
}

func runWithAPIServer(m *testing.M) int {
	scheme := controller.Scheme()
	env, restCfg, err := testenv.StartWithConversion(scheme)
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the API server:", err)
		return 1
	}
	defer func() { _ = env.Stop() }()
	cfg, webhook = restCfg, &env.WebhookInstallOptions
	if k8sClient, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

func requireAPIServer(t *testing.T) {
	t.Helper()
	if k8sClient == nil {
		testenv.Need(t, cmp.Or(testenv.MissingAssets(), "the API server suite did not start"))
	}
}

// startController runs the controller (webhook and status) until the test ends or stop is
// called, and returns once the webhook accepts TLS connections.
func startController(t *testing.T) (stop func()) {
	t.Helper()
	mgr, err := controller.NewManager(cfg, controller.Options{
		MetricsAddr: "0", ProbeAddr: "0",
		WebhookHost: webhook.LocalServingHost, WebhookPort: webhook.LocalServingPort, CertDir: webhook.LocalServingCertDir,
		SecretRecheck: 100 * time.Millisecond, Restartable: true,
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	require.NoError(t, testenv.WaitForTLS(net.JoinHostPort(webhook.LocalServingHost, fmt.Sprint(webhook.LocalServingPort))))
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			cancel()
			require.NoError(t, <-done)
		}
	}
	t.Cleanup(stop)
	return stop
}

// namespace creates a namespace for one test.
func namespace(t *testing.T) string {
	t.Helper()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "llsd-test-"}}
	require.NoError(t, k8sClient.Create(context.Background(), ns))
	return ns.Name
}

// startControllerAs runs the controller as the identity of restCfg (the install's
// ServiceAccount) until the test ends; its webhook listens on a port of its own.
func startControllerAs(t *testing.T, restCfg *rest.Config, opts controller.Options) {
	t.Helper()
	opts.MetricsAddr, opts.ProbeAddr = "0", "0"
	opts.WebhookHost, opts.WebhookPort, opts.CertDir = "127.0.0.1", testenv.FreePort(t), webhook.LocalServingCertDir
	opts.SecretRecheck, opts.Restartable = 100*time.Millisecond, true
	mgr, err := controller.NewManager(restCfg, opts)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() { cancel(); require.NoError(t, <-done) })
}
