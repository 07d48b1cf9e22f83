// SPDX-License-Identifier: Apache-2.0

package render

import (
	"maps"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Route is an OpenShift route.openshift.io/v1 Route, with the fields llsd writes. llsd does
// not link OpenShift's API module for one type; the field names are the API's.
type Route struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              RouteSpec `json:"spec"`
}

// RouteSpec is the part of route.openshift.io/v1 RouteSpec llsd writes.
type RouteSpec struct {
	// Host is the route's host; the router assigns one when it is empty.
	Host string               `json:"host,omitempty"`
	To   RouteTargetReference `json:"to"`
	Port *RoutePort           `json:"port,omitempty"`
	TLS  *RouteTLSConfig      `json:"tls,omitempty"`
}

// RouteTargetReference is the Service a Route sends to.
type RouteTargetReference struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// RoutePort is the target port of the Service, by name.
type RoutePort struct {
	TargetPort intstr.IntOrString `json:"targetPort"`
}

// RouteTLSConfig is how the router terminates TLS.
type RouteTLSConfig struct {
	// Termination is edge (TLS ends at the router) or reencrypt (the router speaks TLS to the
	// server again).
	Termination string `json:"termination"`
	// InsecureEdgeTerminationPolicy is what happens to plain HTTP: Redirect.
	InsecureEdgeTerminationPolicy string `json:"insecureEdgeTerminationPolicy,omitempty"`
}

// DeepCopyObject makes Route a runtime.Object.
func (r *Route) DeepCopyObject() runtime.Object {
	out := *r
	out.ObjectMeta = *r.ObjectMeta.DeepCopy()
	if r.Spec.Port != nil {
		port := *r.Spec.Port
		out.Spec.Port = &port
	}
	if r.Spec.TLS != nil {
		tls := *r.Spec.TLS
		out.Spec.TLS = &tls
	}
	return &out
}

// routeEnabled reports whether the server is exposed by a Route: expose.route, else the
// render option platform: openshift.
func routeEnabled(obj *v1alpha2.LlamaStackDistribution, opts Options) bool {
	if !obj.Spec.ExposeEnabled() {
		return false
	}
	if r := obj.Spec.Networking.Expose.Route; r != nil {
		return *r
	}
	return opts.Platform == PlatformOpenShift
}

// route exposes the Service through the OpenShift router: always over TLS, terminated at the
// router (edge), or re-encrypted to a server that speaks TLS itself; plain HTTP is redirected.
func route(m meta, obj *v1alpha2.LlamaStackDistribution, opts Options) *Route {
	if !routeEnabled(obj, opts) {
		return nil
	}
	termination := "edge"
	if tlsEnabled(obj) {
		termination = "reencrypt"
	}
	r := &Route{
		TypeMeta:   metav1.TypeMeta{APIVersion: "route.openshift.io/v1", Kind: "Route"},
		ObjectMeta: m.object(m.names.Route()),
		Spec: RouteSpec{
			Host: ingressHost(obj, opts),
			To:   RouteTargetReference{Kind: "Service", Name: m.names.Service()},
			Port: &RoutePort{TargetPort: intstr.FromString(portName(obj))},
			TLS:  &RouteTLSConfig{Termination: termination, InsecureEdgeTerminationPolicy: "Redirect"},
		},
	}
	maps.Copy(r.Annotations, obj.Spec.Networking.Expose.Annotations)
	return r
}
