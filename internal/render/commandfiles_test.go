// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A command or argument of the spec's that names a file llsd does not mount is refused: the
// server would not start. Files of volumes whose content llsd cannot know are not judged.
func TestCommandsNameFilesThePodHas(t *testing.T) {
	spec := func(o string) string {
		return "  distribution: {name: starter}\n  workload: {overrides: " + o + "}\n"
	}
	for _, tc := range []struct {
		reason, spec string
		want         string // the error, or "" for none
	}{
		{reason: "llsd generates the config and mounts it as config.yaml: a command naming run.yaml finds nothing",
			spec: spec("{command: [/bin/sh, -c, ogx stack run /etc/llama-stack/run.yaml]}"),
			want: `spec.workload.overrides.command[2]: Invalid value: "ogx stack run /etc/llama-stack/run.yaml": /etc/llama-stack/run.yaml is not in the pod: ` +
				`volume config at /etc/llama-stack holds only /etc/llama-stack/config.yaml; llsd mounts the config it generates as /etc/llama-stack/config.yaml`},
		{reason: "the config where llsd mounts it",
			spec: spec("{command: [/bin/sh, -c, ogx stack run /etc/llama-stack/config.yaml]}")},
		{reason: "an argument naming a key of a Secret that lists its items",
			spec: spec("{volumes: [{name: keys, secret: {secretName: keys, items: [{key: a, path: a.pem}]}}], volumeMounts: [{name: keys, mountPath: /keys}], command: [/opt/tools/check], args: [--cert=/keys/b.pem]}"),
			want: `spec.workload.overrides.args[0]: Invalid value: "--cert=/keys/b.pem": /keys/b.pem is not in the pod: volume keys at /keys holds only /keys/a.pem; write one of those`},
		{reason: "a whole ConfigMap: llsd cannot know its keys",
			spec: spec("{volumes: [{name: extra, configMap: {name: extra}}], volumeMounts: [{name: extra, mountPath: /extra}], command: [/opt/tools/check], args: [--file, /extra/anything.yaml]}")},
		{reason: "paths of the image and URLs are not llsd's to judge",
			spec: spec("{command: [/usr/local/bin/run, --url=http://vllm:8000/v1]}")},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, problems := renderSpec(t, "s", tc.spec, nil)
			if tc.want == "" {
				assert.Empty(t, problems)
				return
			}
			require.Len(t, problems, 1, strings.Join(problems, "\n"))
			assert.Contains(t, problems[0], tc.want)
		})
	}
}
