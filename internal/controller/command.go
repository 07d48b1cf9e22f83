// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/go-logr/logr"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/llamastack/llsd/internal/version"
)

const usage = `Usage: llsd-controller [flags]

Runs the companion controller in a cluster: the v1alpha1 <-> v1alpha2 conversion webhook
(/convert, TLS) and the status of every LlamaStackDistribution, derived from its render
receipt and the live objects. It never renders and never changes workloads. Install it
with examples/install (kustomize).

Flags:
`

// Main runs the controller with command-line args until it is stopped (SIGTERM), and returns
// the exit code. Logs go to stderr as JSON; --version prints the version on stdout.
func Main(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("llsd-controller", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprint(stderr, usage); flags.PrintDefaults() }
	opts := Options{}
	var certs CertOptions
	flags.StringVar(&opts.MetricsAddr, "metrics-bind-address", ":8443", `Prometheus metrics ("0": off), over HTTPS to clients allowed to get /metrics`)
	flags.BoolVar(&opts.MetricsInsecure, "metrics-insecure", false, "serve metrics over plain HTTP to anyone (behind your own network policy only)")
	namespaces := flags.String("namespaces", "", "watch only these namespaces (comma-separated), with Roles in them instead of a ClusterRole\n(examples/install/namespaced)")
	flags.StringVar(&opts.ProbeAddr, "health-probe-bind-address", ":8081", `/healthz and /readyz ("0": off)`)
	flags.IntVar(&opts.WebhookPort, "webhook-port", 9443, "the conversion webhook's TLS port")
	flags.StringVar(&opts.CertDir, "cert-dir", "/tmp/k8s-webhook-server/serving-certs", "tls.crt and tls.key of the webhook")
	flags.BoolVar(&opts.LeaderElection, "leader-elect", false, "one replica writes status; all serve the webhook")
	flags.StringVar(&opts.LeaderElectionNamespace, "leader-election-namespace", "", "namespace of the leader lease (default: the pod's)")
	flags.DurationVar(&opts.SecretRecheck, "secret-recheck", 0, "how often missing Secrets and overrideConfig ConfigMaps are looked up again (default 30s)")
	flags.DurationVar(&opts.ProbeInterval, "server-probe-interval", 0, "how often each running server is asked for its version and providers' health\n(default 1m; up to ten times that while it does not answer)")
	flags.DurationVar(&opts.ProbeTimeout, "server-probe-timeout", 0, "how long one request to a running server may take (default 5s)")
	flags.StringVar(&certs.SecretName, "self-signed-certs", "", "without cert-manager: keep a self-signed CA and serving certificate in this\nSecret of the controller's namespace, write them to --cert-dir and the CA into the CRD")
	flags.StringVar(&certs.Namespace, "namespace", cmp.Or(os.Getenv("POD_NAMESPACE"), "llsd-system"),
		"the controller's namespace (for --self-signed-certs; default: $POD_NAMESPACE, which the install manifests set to the pod's, else llsd-system)")
	flags.StringVar(&certs.ServiceName, "webhook-service", "llsd-webhook", "the webhook Service (for --self-signed-certs)")
	printVersion := flags.Bool("version", false, "print the version and exit")
	if err := flags.Parse(args); errors.Is(err, flag.ErrHelp) {
		return 0
	} else if err == nil && *printVersion {
		fmt.Fprintln(stdout, "llsd-controller", version.Get())
		return 0
	} else if err != nil || flags.NArg() > 0 {
		if err == nil {
			flags.Usage()
		}
		return 2
	}
	if *namespaces != "" {
		opts.Namespaces = strings.Split(*namespaces, ",")
	}
	log := logr.FromSlogHandler(slog.NewJSONHandler(stderr, nil))
	ctrl.SetLogger(log)
	cfg, err := ctrl.GetConfig()
	if err != nil {
		fmt.Fprintln(stderr, "llsd-controller:", err)
		return 1
	}
	ctx := ctrl.SetupSignalHandler()
	if certs.SecretName != "" {
		certs.CertDir, certs.CRDName = opts.CertDir, CRDName
		if err := EnsureSelfSignedCerts(ctx, cfg, certs); err != nil {
			fmt.Fprintln(stderr, "llsd-controller: webhook certificates:", err)
			return 1
		}
	}
	mgr, err := NewManager(cfg, opts)
	if err != nil {
		fmt.Fprintln(stderr, "llsd-controller:", err)
		return 1
	}
	log.Info("starting", "version", version.Get())
	if err := mgr.Start(ctx); err != nil {
		fmt.Fprintln(stderr, "llsd-controller:", err)
		return 1
	}
	return 0
}
