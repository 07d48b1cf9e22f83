// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A command line written for another server release is refused as the image's server would
// refuse it, with the release's own command; one it takes passes.
func TestCommandLineOfTheServerRelease(t *testing.T) {
	for _, tc := range []struct {
		reason, workload, want string
	}{
		{reason: "llama-stack's command on an OGX image",
			workload: "{overrides: {command: [/bin/sh, -c, 'llama stack run /etc/llama-stack/config.yaml']}}", want: "spec.workload.overrides.command"},
		{reason: "an option the server's CLI does not have",
			workload: "{overrides: {args: [--yaml-config, /etc/llama-stack/config.yaml]}}", want: "spec.workload.overrides.args[0]"},
		{reason: "OGX's own command", workload: "{overrides: {command: [/bin/sh, -c, 'ogx stack run /etc/llama-stack/config.yaml']}}"},
		{reason: "an option it has", workload: "{overrides: {args: [--port, '8321']}}"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, problems := renderSpec(t, "cli", "  distribution: {name: starter}\n  workload: "+tc.workload+"\n", nil)
			if tc.want == "" {
				assert.Empty(t, problems)
				return
			}
			assert.True(t, containsLine(problems, tc.want), "want an error at %s in\n%s", tc.want, strings.Join(problems, "\n"))
		})
	}
}
