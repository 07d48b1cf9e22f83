// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/cli"
)

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: good}\nspec: {distribution: {name: starter}}\n"
	bad := "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: bad}\n" +
		"spec:\n  distribution: {name: starter}\n  networking: {tls: {enabled: true}}\n"
	other := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n"
	renderRefuses := "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: typo}\n" +
		"spec:\n  distribution: {name: starter}\n  providers: {inference: {provider: vllm, settings: {url: 'http://vllm:8000/v1'}}}\n"
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := map[string]struct {
		reason string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		"valid": {"a valid file passes", []string{"validate", write("good.yaml", good)}, 0, "1 LlamaStackDistribution(s) checked, 0 invalid", ""},
		"invalid with path": {"an invalid object names file, object, field and fix",
			[]string{"validate", write("stream.yaml", good+"---\n"+other+"---\n"+bad)}, 1, "2 LlamaStackDistribution(s) checked, 1 invalid",
			"stream.yaml: LlamaStackDistribution bad: spec.networking.tls.secretName: Required value: secretName is required when TLS is enabled: name a kubernetes.io/tls Secret"},
		"what render refuses": {"a spec the API server accepts but llsd cannot render into a server that starts",
			[]string{"validate", write("typo.yaml", renderRefuses)}, 1, "1 LlamaStackDistribution(s) checked, 1 invalid",
			"typo.yaml: LlamaStackDistribution typo: spec.providers.inference[0].settings[url]: Invalid value: \"url\": remote::vllm has no config key url"},
		"nothing to check": {"a directory without LLSDs is an error, not a silent pass", []string{"validate", write("cm.yaml", other)}, 1, "", "no LlamaStackDistribution found"},
		"unknown command":  {"typos are reported", []string{"valdate"}, 2, "", `unknown command "valdate"`},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.Main(tc.args, nil, &stdout, &stderr)
			assert.Equal(t, tc.code, code, tc.reason)
			assert.Contains(t, stdout.String(), tc.stdout, tc.reason)
			assert.Contains(t, stderr.String(), tc.stderr, tc.reason)
		})
	}
}

// Every command explains itself with --help; render and validate read - as standard input.
func TestCommandLine(t *testing.T) {
	stack := "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s}\nspec: {distribution: {name: starter}}\n"
	for _, tc := range []struct {
		reason         string
		args           []string
		stdin          string
		code           int
		stdout, stderr string
	}{
		{"render --help is help, not a file named --help", []string{"render", "--help"}, "", 0, "Usage: llsd render PATH...", ""},
		{"validate -h", []string{"validate", "-h"}, "", 0, "Usage: llsd validate PATH...", ""},
		{"an unknown flag", []string{"render", "--output=json"}, "", 2, "", "llsd render: unknown flag --output=json"},
		{"no path", []string{"render"}, "", 2, "", "name at least one file or directory (- for stdin)"},
		{"- reads standard input", []string{"render", "-"}, stack, 0, "kind: Deployment", ""},
		{"validate from standard input", []string{"validate", "-"}, stack, 0, "1 LlamaStackDistribution(s) checked, 0 invalid", ""},
		{"--version", []string{"--version"}, "", 0, "llsd ", ""},
		{"help", []string{"help"}, "", 0, "Run llsd COMMAND --help", ""},
	} {
		var stdout, stderr bytes.Buffer
		code := cli.Main(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
		assert.Equal(t, tc.code, code, tc.reason)
		assert.Contains(t, stdout.String(), tc.stdout, tc.reason)
		assert.Contains(t, stderr.String(), tc.stderr, tc.reason)
	}
}

// llsd without arguments reads a ResourceList from standard input unless it is a terminal:
// /dev/null (a character device, but no terminal) gives an empty ResourceList, not the usage.
func TestNoArgumentsReadsStdinUnlessATerminal(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	var stdout, stderr bytes.Buffer
	cli.Main(nil, null, &stdout, &stderr)
	assert.NotContains(t, stderr.String(), "Usage:")
}
