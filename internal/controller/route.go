// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// routeGVK is OpenShift's Route, which llsd renders on OpenShift instead of an Ingress. The
// controller reads it as unstructured: OpenShift's API module is not worth linking for the
// host of one object.
var routeGVK = schema.GroupVersionKind{Group: "route.openshift.io", Version: "v1", Kind: "Route"}

// newRoute is an empty Route to read or watch.
func newRoute() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(routeGVK)
	return u
}

// servesRoutes reports whether the cluster has the Route API (OpenShift). Elsewhere the
// controller neither watches nor reads Routes: a watch of a kind the cluster lacks would keep
// the manager from starting.
func servesRoutes(cfg *rest.Config) (bool, error) {
	client, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return false, err
	}
	groups, err := client.ServerGroups()
	if err != nil {
		return false, err
	}
	for _, g := range groups.Groups {
		if g.Name == routeGVK.Group {
			return slices.ContainsFunc(g.Versions, func(v metav1.GroupVersionForDiscovery) bool { return v.Version == routeGVK.Version }), nil
		}
	}
	return false, nil
}

// routeURLOf is the external URL of a Route once a router has admitted it: https, since
// llsd's Routes always terminate TLS at the router.
func routeURLOf(route *unstructured.Unstructured) *string {
	if route == nil {
		return nil
	}
	ingresses, _, _ := unstructured.NestedSlice(route.Object, "status", "ingress")
	for _, i := range ingresses {
		ingress, _ := i.(map[string]any)
		host, _, _ := unstructured.NestedString(ingress, "host")
		conditions, _, _ := unstructured.NestedSlice(ingress, "conditions")
		if host != "" && slices.ContainsFunc(conditions, admitted) {
			scheme := "http"
			if tls, _, _ := unstructured.NestedMap(route.Object, "spec", "tls"); tls != nil {
				scheme = "https"
			}
			url := scheme + "://" + host
			return &url
		}
	}
	return nil
}

// admitted reports whether a Route ingress condition says a router admitted the Route.
func admitted(c any) bool {
	cond, _ := c.(map[string]any)
	return cond["type"] == "Admitted" && cond["status"] == "True"
}
