// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/render"
)

// The Service names its port by the protocol the server speaks (https with TLS), so that
// meshes and Ingress controllers pick the right one; the ServiceAccount is llsd's unless the
// spec names an account of its own.
func TestServiceAndAccount(t *testing.T) {
	for _, tc := range []struct {
		reason, spec, portName, account string
	}{
		{reason: "plain HTTP", spec: "  distribution: {name: starter}\n", portName: "http", account: "svc-sa"},
		{reason: "TLS in the pod", spec: `  distribution: {name: starter}
  networking: {tls: {enabled: true, secretName: svc-tls}}
`, portName: "https", account: "svc-sa"},
		{reason: "an account of the user's", spec: `  distribution: {name: starter}
  workload: {overrides: {serviceAccountName: builder}}
`, portName: "http"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			out, problems := renderSpec(t, "svc", tc.spec, nil)
			require.Empty(t, problems)
			svc := objectOf[*corev1.Service](t, out)
			assert.Equal(t, tc.portName, svc.Spec.Ports[0].Name)
			assert.Equal(t, tc.portName, *svc.Spec.Ports[0].AppProtocol)
			accounts := objectsOf[*corev1.ServiceAccount](out)
			if tc.account == "" {
				assert.Empty(t, accounts, "no account llsd would own")
				assert.Equal(t, "builder", deploymentOf(t, out).Spec.Template.Spec.ServiceAccountName)
				return
			}
			require.Len(t, accounts, 1)
			assert.Equal(t, tc.account, accounts[0].Name)
		})
	}
}

// objectsOf are a render's objects of one type.
func objectsOf[T render.Object](out render.Output) []T {
	var found []T
	for _, o := range out.Objects {
		if typed, ok := o.(T); ok {
			found = append(found, typed)
		}
	}
	return found
}

// objectOf is a render's one object of a type.
func objectOf[T render.Object](t *testing.T, out render.Output) T {
	t.Helper()
	found := objectsOf[T](out)
	require.Len(t, found, 1)
	return found[0]
}
