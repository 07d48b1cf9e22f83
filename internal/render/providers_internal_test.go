// SPDX-License-Identifier: Apache-2.0

package render

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
)

// An init container's name is a DNS label whatever the provider id (which may have 63
// characters itself), and two long ids keep two names.
func TestContainerNamesFitWhateverTheID(t *testing.T) {
	long := strings.Repeat("a", 60) + "-b1"
	other := strings.Repeat("a", 60) + "-b2"
	for _, tc := range []struct{ reason, prefix, id, want string }{
		{reason: "a short id is kept", prefix: "install-", id: "acme", want: "install-acme"},
		{reason: "a long id is cut and hashed", prefix: "install-", id: long, want: ""},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got := containerName(tc.prefix, tc.id)
			assert.Empty(t, k8svalidation.IsDNS1123Label(got), "%s: %q", tc.reason, got)
			if tc.want != "" {
				assert.Equal(t, tc.want, got, tc.reason)
			}
		})
	}
	assert.NotEqual(t, containerName("provider-", long), containerName("provider-", other))
}
