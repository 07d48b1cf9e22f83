// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pod keeps no API server token unless something needs it: the user says so, or the pod
// runs as an account of the user's; the user's word wins either way.
func TestServiceAccountToken(t *testing.T) {
	for _, tc := range []struct {
		reason, spec string
		mounted      bool
	}{
		{reason: "nothing needs it", spec: "  distribution: {name: starter}\n", mounted: false},
		{reason: "an account of the user's: its token", spec: `  distribution: {name: starter}
  workload: {overrides: {serviceAccountName: runner}}
`, mounted: true},
		{reason: "the user asks for it", spec: `  distribution: {name: starter}
  workload: {pod: {automountServiceAccountToken: true}}
`, mounted: true},
		{reason: "the user's no over an account of the user's",
			spec: `  distribution: {name: starter}
  workload: {overrides: {serviceAccountName: runner}, pod: {automountServiceAccountToken: false}}
`, mounted: false},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			out, problems := renderSpec(t, "tok", tc.spec, nil)
			require.Empty(t, problems)
			automount := deploymentOf(t, out).Spec.Template.Spec.AutomountServiceAccountToken
			require.NotNil(t, automount, "always said, never the cluster's default")
			assert.Equal(t, tc.mounted, *automount)
		})
	}
}
