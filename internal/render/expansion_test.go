// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A value of the spec's overrides that reads one of llsd's secret variables through the
// kubelet's $(NAME) expansion is refused; one that reads a plain variable, or escapes the
// expansion, passes. (TestNoUserValueReadsASecret tries every field and syntax through a whole render.)
func TestOverridesReadNoSecretVariable(t *testing.T) {
	key := "  providers: {inference: {provider: vllm, endpoint: 'http://vllm:8000/v1', apiKey: {secretKeyRef: {name: k, key: k}}}}\n"
	for _, tc := range []struct {
		reason, overrides, want string
	}{
		{reason: "an env value reading the API key", overrides: "{env: [{name: X, value: '$(LLSD_VLLM_API_KEY)'}]}", want: "spec.workload.overrides.env[0].value"},
		{reason: "an argument reading it", overrides: "{args: [--port, '8321', '$(LLSD_VLLM_API_KEY)']}", want: "spec.workload.overrides.args[2]"},
		{reason: "a plain variable of its own", overrides: "{env: [{name: A, value: x}, {name: B, value: '$(A)/v1'}]}"},
		{reason: "an escaped reference, which the kubelet leaves as it is", overrides: "{env: [{name: X, value: '$$(LLSD_VLLM_API_KEY)'}]}"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, problems := renderSpec(t, "exp", "  distribution: {name: starter}\n"+key+"  workload: {overrides: "+tc.overrides+"}\n", nil)
			if tc.want == "" {
				assert.Empty(t, problems)
				return
			}
			assert.True(t, containsLine(problems, tc.want), "want an error at %s in\n%s", tc.want, strings.Join(problems, "\n"))
			assert.False(t, containsLine(problems, "\"k\""), "no secret's name or value in the message")
		})
	}
}
