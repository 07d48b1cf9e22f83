// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	routev1 "github.com/openshift/api/route/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sigsjson "sigs.k8s.io/json"

	"github.com/llamastack/llsd/internal/render"
)

// llsd writes Routes with its own small type (the function does not link OpenShift's API
// module); every field it writes is OpenShift's own field, with the meaning OpenShift gives it.
// The API server test checks the same Routes against OpenShift's CRD.
func TestRoutesAreOpenShiftRoutes(t *testing.T) {
	out := renderCase(t, filepath.Join("testdata", "openshift-route"))
	var routes int
	for _, o := range out.Objects {
		r, ok := o.(*render.Route)
		if !ok {
			continue
		}
		routes++
		data, err := json.Marshal(r)
		require.NoError(t, err)
		var official routev1.Route
		strict, err := sigsjson.UnmarshalStrict(data, &official, sigsjson.DisallowUnknownFields)
		require.NoError(t, err)
		require.Empty(t, strict, "fields OpenShift's Route does not have")

		assert.Equal(t, "Service", official.Spec.To.Kind)
		assert.Equal(t, "openshift-route-service", official.Spec.To.Name)
		assert.Equal(t, "https", official.Spec.Port.TargetPort.StrVal, "the Service's port, by name")
		assert.Equal(t, routev1.TLSTerminationReencrypt, official.Spec.TLS.Termination, "the server speaks TLS")
		assert.Equal(t, routev1.InsecureEdgeTerminationPolicyRedirect, official.Spec.TLS.InsecureEdgeTerminationPolicy)
	}
	assert.Equal(t, 1, routes)
}
