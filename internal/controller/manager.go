// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"context"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Options configure the controller process.
type Options struct {
	// MetricsAddr serves Prometheus metrics ("0" turns them off).
	MetricsAddr string
	// MetricsInsecure serves them over plain HTTP to anyone; otherwise over HTTPS to clients
	// whose token may get the /metrics URL (a TokenReview and a SubjectAccessReview).
	MetricsInsecure bool
	// Namespaces, when set, are the only namespaces the controller watches and reads, so that
	// Roles in them suffice instead of a ClusterRole (Secrets in particular).
	Namespaces []string
	// ProbeAddr serves /healthz and /readyz ("0" turns them off).
	ProbeAddr string
	// WebhookHost and WebhookPort are where /convert listens (TLS).
	WebhookHost string
	WebhookPort int
	// CertDir holds tls.crt and tls.key for the webhook.
	CertDir string
	// LeaderElection lets one of several replicas write status; all serve the webhook.
	LeaderElection          bool
	LeaderElectionNamespace string
	// SecretRecheck is how often unresolved secret references are looked up again.
	SecretRecheck time.Duration
	// Now is the status clock, for tests.
	Now func() metav1.Time
	// Restartable allows more than one manager in a process (tests restart the controller);
	// controller-runtime otherwise refuses a second controller of the same name.
	Restartable bool
	// ServerURL, ProbeTimeout and ProbeInterval: how running servers are asked for their
	// version and providers' health (StatusReconciler).
	ServerURL                   func(*v1alpha2.LlamaStackDistribution) string
	ProbeTimeout, ProbeInterval time.Duration
}

// Scheme has llsd's two API versions and the core types the controller reads.
func Scheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(v1alpha1.AddToScheme(s))
	utilruntime.Must(v1alpha2.AddToScheme(s))
	return s
}

// NewManager builds the manager: the conversion webhook, the status reconciler, health
// checks and metrics. Only objects labelled app.kubernetes.io/managed-by=llsd are cached
// (the upstream operator ran out of memory caching every ConfigMap of the cluster); Secrets
// and overrideConfig ConfigMaps are read directly, one object at a time.
func NewManager(cfg *rest.Config, opts Options) (manager.Manager, error) {
	routes, err := servesRoutes(cfg)
	if err != nil {
		return nil, err
	}
	scheme := Scheme()
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		Scheme:                  scheme,
		Metrics:                 metricsOptions(opts),
		HealthProbeBindAddress:  opts.ProbeAddr,
		LeaderElection:          opts.LeaderElection,
		LeaderElectionID:        "llsd-controller.llamastack.io",
		LeaderElectionNamespace: opts.LeaderElectionNamespace,
		WebhookServer:           newBoundedServer(opts.WebhookHost, opts.WebhookPort, opts.CertDir),
		Cache:                   cacheOptions(opts.Namespaces, routes),
		Client:                  client.Options{Cache: &client.CacheOptions{DisableFor: []client.Object{&corev1.Secret{}}}},
	})
	if err != nil {
		return nil, err
	}
	mgr.GetWebhookServer().Register("/convert", conversionHandler(scheme, mgr.GetLogger().WithName("conversion")))
	r := &StatusReconciler{Client: mgr.GetClient(), Reader: mgr.GetAPIReader(), SecretRecheck: opts.SecretRecheck, Now: opts.Now, Routes: routes,
		ServerURL: opts.ServerURL, ProbeTimeout: opts.ProbeTimeout, ProbeInterval: opts.ProbeInterval}
	if err := r.SetupWithManager(mgr, opts.Restartable); err != nil {
		return nil, err
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return nil, err
	}
	if err := mgr.AddReadyzCheck("webhook", mgr.GetWebhookServer().StartedChecker()); err != nil {
		return nil, err
	}
	return mgr, nil
}

// metricsOptions serve metrics over HTTPS to authorized clients unless MetricsInsecure.
func metricsOptions(opts Options) metricsserver.Options {
	metrics := metricsserver.Options{BindAddress: opts.MetricsAddr}
	if !opts.MetricsInsecure {
		metrics.SecureServing, metrics.FilterProvider = true, filters.WithAuthenticationAndAuthorization
	}
	return metrics
}

// cacheOptions cache only llsd's objects (by label), in the watched namespaces (all when none).
func cacheOptions(watched []string, routes bool) cache.Options {
	var namespaces map[string]cache.Config
	for _, ns := range watched {
		if namespaces == nil {
			namespaces = map[string]cache.Config{}
		}
		namespaces[ns] = cache.Config{}
	}
	managed := labels.SelectorFromSet(labels.Set{api.LabelManagedBy: api.ManagedBy})
	byObject := map[client.Object]cache.ByObject{
		&corev1.ConfigMap{}:     {Label: managed},
		&appsv1.Deployment{}:    {Label: managed},
		&corev1.Service{}:       {Label: managed},
		&networkingv1.Ingress{}: {Label: managed},
	}
	if routes {
		byObject[newRoute()] = cache.ByObject{Label: managed}
	}
	return cache.Options{DefaultNamespaces: namespaces, ByObject: byObject}
}

// SetupWithManager registers the status reconciler: an LLSD is reconciled when it or one of
// the objects rendered from it (labelled with its instance name) changes. restartable allows
// a second registration in one process (tests restart the controller).
func (r *StatusReconciler) SetupWithManager(mgr manager.Manager, restartable bool) error {
	if r.SecretRecheck == 0 {
		r.SecretRecheck = 30 * time.Second
	}
	byInstance := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, o client.Object) []reconcile.Request {
		name := o.GetLabels()[api.LabelInstance]
		if name == "" {
			return nil
		}
		return []reconcile.Request{{NamespacedName: types.NamespacedName{Namespace: o.GetNamespace(), Name: name}}}
	})
	b := ctrl.NewControllerManagedBy(mgr).
		Named("llsd-status").
		For(&v1alpha2.LlamaStackDistribution{}).
		Watches(&appsv1.Deployment{}, byInstance).
		Watches(&corev1.ConfigMap{}, byInstance).
		Watches(&corev1.Service{}, byInstance).
		Watches(&networkingv1.Ingress{}, byInstance)
	if r.Routes {
		b = b.Watches(newRoute(), byInstance)
	}
	return b.WithOptions(controller.Options{MaxConcurrentReconciles: 4, SkipNameValidation: &restartable}).Complete(r)
}
