// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// StatusReconciler writes the status of LlamaStackDistributions from their render receipt
// and the live objects. It never renders and never changes anything but status.
type StatusReconciler struct {
	// Client reads LlamaStackDistributions and the rendered objects from the manager's cache,
	// which holds only objects labelled app.kubernetes.io/managed-by=llsd.
	Client client.Client
	// Reader reads Secrets and overrideConfig ConfigMaps directly from the API server, so that
	// neither is cached cluster-wide. Secret values are only checked for their keys.
	Reader client.Reader
	// SecretRecheck is how often unresolved secret references and a missing overrideConfig
	// ConfigMap are checked again. Neither is watched: that would need list/watch on every
	// Secret and ConfigMap of the cluster.
	SecretRecheck time.Duration
	// Now is the clock, for tests.
	Now func() metav1.Time
	// Routes is set where the cluster serves OpenShift's Route API: an exposed object without
	// an Ingress is looked up as a Route.
	Routes bool
	// ServerURL is where a running server is asked for its version and providers: its
	// Service's cluster URL unless set (tests point it at a stand-in server).
	ServerURL func(obj *v1alpha2.LlamaStackDistribution) string
	// ProbeTimeout bounds each request to a running server (5 s); ProbeInterval spaces them
	// out per object (a minute, up to ten while the server does not answer).
	ProbeTimeout, ProbeInterval time.Duration

	live     *prober
	liveOnce sync.Once
}

// Reconcile recomputes one object's status and writes it when it changed.
func (r *StatusReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var obj v1alpha2.LlamaStackDistribution
	if err := r.Client.Get(ctx, req.NamespacedName, &obj); err != nil {
		if apierrors.IsNotFound(err) {
			r.liveProber().forget(req.NamespacedName) // what its server said goes with it
		}
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	o, err := r.observe(ctx, &obj)
	if err != nil {
		return ctrl.Result{}, err
	}
	status := computeStatus(&obj, o)
	var result ctrl.Result
	if len(o.SecretProblems) > 0 || len(o.CABundleProblems) > 0 || overrideKeyMissing(&obj, o) {
		result.RequeueAfter = r.SecretRecheck // neither Secrets nor the user's ConfigMaps are watched
	}
	if o.Live != nil && (result.RequeueAfter == 0 || o.liveAfter < result.RequeueAfter) {
		result.RequeueAfter = o.liveAfter // the server is asked again then
	}
	if equality.Semantic.DeepEqual(status, obj.Status) {
		return result, nil
	}
	patch := client.MergeFrom(obj.DeepCopy())
	obj.Status = status
	if err := r.Client.Status().Patch(ctx, &obj, patch); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	return result, nil
}

// observe reads what the status is derived from. A missing object is an observation, not
// an error.
func (r *StatusReconciler) observe(ctx context.Context, obj *v1alpha2.LlamaStackDistribution) (observed, error) {
	o := observed{Now: r.now()}
	names := api.NamesOf(obj.Name)
	key := func(name string) types.NamespacedName {
		return types.NamespacedName{Namespace: obj.Namespace, Name: name}
	}

	var cm *corev1.ConfigMap
	var err error
	if obj.Spec.OverrideConfig != nil { // the user's ConfigMap: not labelled, so not in the cache
		cm, err = get(ctx, r.Reader, key(obj.Spec.OverrideConfig.ConfigMapName), &corev1.ConfigMap{})
	} else if name := obj.GetAnnotations()[api.AnnotationConfigMap]; name != "" {
		cm, err = get(ctx, r.Client, key(name), &corev1.ConfigMap{})
	}
	if err != nil {
		return o, err
	}
	o.ConfigMapFound = cm != nil
	if cm != nil {
		o.ConfigMapKeys = slices.Sorted(maps.Keys(cm.Data))
	}
	if o.Deployment, err = get(ctx, r.Client, key(names.Deployment()), &appsv1.Deployment{}); err != nil {
		return o, err
	}
	if o.Service, err = get(ctx, r.Client, key(names.Service()), &corev1.Service{}); err != nil {
		return o, err
	}
	r.askServer(ctx, obj, &o)
	if obj.Spec.ExposeEnabled() {
		if o.Ingress, err = get(ctx, r.Client, key(names.Ingress()), &networkingv1.Ingress{}); err != nil {
			return o, err
		}
		if o.Ingress == nil && r.Routes {
			if o.Route, err = get(ctx, r.Client, key(names.Route()), newRoute()); err != nil {
				return o, err
			}
		}
	}
	if err := r.checkCABundle(ctx, obj, &o); err != nil {
		return o, err
	}
	return o, r.checkSecrets(ctx, obj, &o)
}

// checkCABundle checks that the CA bundle ConfigMap exists with every key the pod mounts.
func (r *StatusReconciler) checkCABundle(ctx context.Context, obj *v1alpha2.LlamaStackDistribution, o *observed) error {
	for _, ref := range api.CABundles(obj) {
		field := ref.Path.String()
		cm, err := get(ctx, r.Reader, types.NamespacedName{Namespace: obj.Namespace, Name: ref.ConfigMapName}, &corev1.ConfigMap{})
		if err != nil {
			return err
		}
		if cm == nil {
			o.MissingCABundle = true
			o.CABundleProblems = append(o.CABundleProblems, fmt.Sprintf("%s: ConfigMap %q not found in namespace %s: the pod cannot start without it",
				field, ref.ConfigMapName, obj.Namespace))
			continue
		}
		for _, k := range ref.Keys() {
			if _, ok := cm.Data[k]; !ok {
				o.CABundleProblems = append(o.CABundleProblems, fmt.Sprintf("%s: ConfigMap %q has no key %q", field, cm.Name, k))
			}
		}
	}
	return nil
}

// checkSecrets looks up every referenced Secret once and checks that the keys are there.
// Messages name the field, the Secret and the key, never a value.
func (r *StatusReconciler) checkSecrets(ctx context.Context, obj *v1alpha2.LlamaStackDistribution, o *observed) error {
	secrets := map[string]*corev1.Secret{}
	for _, ref := range secretRefs(obj) {
		o.SecretCount++
		s, seen := secrets[ref.Name]
		if !seen {
			var err error
			if s, err = get(ctx, r.Reader, types.NamespacedName{Namespace: obj.Namespace, Name: ref.Name}, &corev1.Secret{}); err != nil {
				return err
			}
			secrets[ref.Name] = s
		}
		if s == nil {
			o.MissingSecret = true
			o.SecretProblems = append(o.SecretProblems, fmt.Sprintf("%s: Secret %q not found in namespace %s", ref.Field, ref.Name, obj.Namespace))
			continue
		}
		for _, k := range ref.Keys {
			value, ok := s.Data[k]
			switch {
			case !ok:
				o.MissingSecretKey = true
				o.SecretProblems = append(o.SecretProblems, fmt.Sprintf("%s: Secret %q has no key %q", ref.Field, ref.Name, k))
			case ref.Text && readsAsNumberOrBoolean(string(value)):
				o.SecretProblems = append(o.SecretProblems, fmt.Sprintf("%s: the value of key %q of Secret %q reads as a number or boolean, "+
					"which the server turns it into after substituting it, and the provider's key takes a string: the server stops at start; "+
					"give it a value that is not a number", ref.Field, k, ref.Name))
			}
		}
	}
	return nil
}

// readsAsNumberOrBoolean reports whether the server reads a substituted value as a boolean or
// a number, not as the string it is.
func readsAsNumberOrBoolean(value string) bool {
	switch configyaml.Substituted(value).(type) {
	case bool, int64, float64:
		return true
	}
	return false
}

func (r *StatusReconciler) now() metav1.Time {
	if r.Now != nil {
		return r.Now()
	}
	return metav1.NewTime(time.Now().UTC().Truncate(time.Second))
}

// get returns the object, or nil when it does not exist.
func get[T client.Object](ctx context.Context, c client.Reader, key types.NamespacedName, obj T) (T, error) {
	var none T
	if err := c.Get(ctx, key, obj); err != nil {
		if apierrors.IsNotFound(err) {
			return none, nil
		}
		return none, err
	}
	return obj, nil
}

// askServer reads the running server once a replica is available (o.Live), spaced out by the
// prober; otherwise it forgets the server.
func (r *StatusReconciler) askServer(ctx context.Context, obj *v1alpha2.LlamaStackDistribution, o *observed) {
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
	if o.Deployment == nil || o.Deployment.Status.AvailableReplicas == 0 || o.Service == nil {
		r.liveProber().forget(key)
		return
	}
	if why := notGenerated(obj, o.Service); why != "" {
		r.liveProber().forget(key)
		o.Live = &liveServer{Err: errors.New(why)}
		return
	}
	base := serviceURL(obj, o.Service)
	if r.ServerURL != nil {
		base = r.ServerURL(obj)
	}
	live, after := r.liveProber().probe(ctx, key, obj.UID, base, o.Now.Time)
	o.Live, o.liveAfter = &live, after
}

// notGenerated says why the controller does not ask through svc, or "": it asks only the
// ClusterIP Service llsd generated for obj, which selects obj's server pods. Another Service of
// that name (an ExternalName, or one without a selector and with endpoints of one's own) could
// point the controller at any address, and the status would report what answered there.
func notGenerated(obj *v1alpha2.LlamaStackDistribution, svc *corev1.Service) string {
	names := api.NamesOf(obj.Name)
	switch {
	case svc.Spec.Type != "" && svc.Spec.Type != corev1.ServiceTypeClusterIP:
		return fmt.Sprintf("the Service %s is of type %s: llsd asks only the ClusterIP Service it generates for the server", svc.Name, svc.Spec.Type)
	case svc.Annotations[api.AnnotationGeneratedFrom] != obj.Name:
		return fmt.Sprintf("the Service %s was not generated by llsd for %s: llsd asks only the Service it generates for the server", svc.Name, obj.Name)
	case !maps.Equal(svc.Spec.Selector, names.Selector()):
		return fmt.Sprintf("the Service %s does not select the server's pods (%s): llsd asks only the Service it generates for the server", svc.Name, labels.Set(names.Selector()))
	}
	return ""
}

// liveProber is the reconciler's prober, made on first use with its options.
func (r *StatusReconciler) liveProber() *prober {
	r.liveOnce.Do(func() { r.live = newProber(r.ProbeTimeout, r.ProbeInterval) })
	return r.live
}
