// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/llamastack/llsd/internal/controller"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

const routedYAML = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: routed}
spec:
  distribution: {name: starter}
  networking:
    expose: {route: true}
`

// On OpenShift the server is exposed by a Route: the controller, on exactly the install's
// RBAC, reports the host a router admitted as routeURL. The tests before this one run on a
// cluster without the Route API, where the controller neither watches nor reads Routes.
func TestRouteURLOnOpenShift(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	routeCRD, err := testenv.RouteCRD()
	require.NoError(t, err)
	_, err = envtest.InstallCRDs(cfg, envtest.CRDInstallOptions{Paths: []string{routeCRD}})
	require.NoError(t, err)

	sa := installRBAC(t, "base/rbac.yaml")
	startControllerAs(t, sa, controller.Options{})

	ns := namespace(t)
	llsd, objs := rendered(t, ns, routedYAML)
	var route *unstructured.Unstructured
	for i, o := range objs {
		if r, ok := o.(*render.Route); ok {
			fields, err := runtime.DefaultUnstructuredConverter.ToUnstructured(r)
			require.NoError(t, err)
			route = &unstructured.Unstructured{Object: fields}
			objs[i] = route
		}
	}
	require.NotNil(t, route, "a Route is rendered")
	create(t, append([]client.Object{llsd}, objs...)...)
	eventually(t, ns, "routed", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		assert.Nil(c, st.RouteURL, "no router has admitted the Route yet")
		assert.NotEmpty(c, st.ServiceURL)
	})

	// The router admits it, with the host it assigned.
	host := "routed-route-" + ns + ".apps.example.com"
	require.NoError(t, unstructured.SetNestedSlice(route.Object, []any{map[string]any{
		"host": host, "routerName": "default",
		"conditions": []any{map[string]any{"type": "Admitted", "status": "True"}},
	}}, "status", "ingress"))
	require.NoError(t, k8sClient.Status().Update(ctx, route))
	eventually(t, ns, "routed", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		if assert.NotNil(c, st.RouteURL) {
			assert.Equal(c, "https://"+host, *st.RouteURL)
		}
	})
}
