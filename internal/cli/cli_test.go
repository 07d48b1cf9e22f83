// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/cli"
)

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: good}
spec: {distribution: {name: starter}}
`
	bad := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: bad}
` +
		`spec:
  distribution: {name: starter}
  networking: {tls: {enabled: true}}
`
	other := `apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
`
	renderRefuses := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: typo}
` +
		`spec:
  distribution: {name: starter}
  providers: {inference: {provider: vllm, settings: {url: 'http://vllm:8000/v1'}}}
`
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
		"valid": {reason: "a valid file passes", args: []string{"validate", write("good.yaml", good)}, code: 0, stdout: "1 LlamaStackDistribution(s) checked, 0 invalid", stderr: ""},
		"invalid with path": {reason: "an invalid object names file, object, field and fix",
			args: []string{"validate", write("stream.yaml", good+"---\n"+other+"---\n"+bad)}, code: 1, stdout: "2 LlamaStackDistribution(s) checked, 1 invalid",
			stderr: "stream.yaml: LlamaStackDistribution bad: spec.networking.tls.secretName: Required value: secretName is required when TLS is enabled: name a kubernetes.io/tls Secret"},
		"what render refuses": {reason: "a spec the API server accepts but llsd cannot render into a server that starts",
			args: []string{"validate", write("typo.yaml", renderRefuses)}, code: 1, stdout: "1 LlamaStackDistribution(s) checked, 1 invalid",
			stderr: "typo.yaml: LlamaStackDistribution typo: spec.providers.inference[0].settings[url]: Invalid value: \"url\": remote::vllm has no config key url"},
		"nothing to check": {reason: "a directory without LLSDs is an error, not a silent pass", args: []string{"validate", write("cm.yaml", other)}, code: 1, stdout: "", stderr: "no LlamaStackDistribution or OGXServer found"},
		"unknown command":  {reason: "typos are reported", args: []string{"valdate"}, code: 2, stdout: "", stderr: `unknown command "valdate"`},
		"a syntax error in a later document": {reason: "the line is the file's, not the document's",
			args: []string{"validate", write("broken.yaml", other+"---\n"+`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: b}
spec:
  providers: [
`)},
			code: 1, stderr: fmt.Sprintf("broken.yaml: not YAML: yaml: line %d: did not find expected node content", strings.Count(other, "\n")+6)},
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
	stack := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s}
spec: {distribution: {name: starter}}
`
	for _, tc := range []struct {
		reason         string
		args           []string
		stdin          string
		code           int
		stdout, stderr string
	}{
		{reason: "render --help is help, not a file named --help", args: []string{"render", "--help"}, stdin: "", code: 0, stdout: "Usage: llsd render PATH...", stderr: ""},
		{reason: "validate -h", args: []string{"validate", "-h"}, stdin: "", code: 0, stdout: "Usage: llsd validate PATH...", stderr: ""},
		{reason: "an unknown flag", args: []string{"render", "--output=json"}, stdin: "", code: 2, stdout: "", stderr: "llsd render: unknown flag --output=json"},
		{reason: "no path", args: []string{"render"}, stdin: "", code: 2, stdout: "", stderr: "name at least one file or directory (- for stdin)"},
		{reason: "- reads standard input", args: []string{"render", "-"}, stdin: stack, code: 0, stdout: "kind: Deployment", stderr: ""},
		{reason: "validate from standard input", args: []string{"validate", "-"}, stdin: stack, code: 0, stdout: "1 LlamaStackDistribution(s) checked, 0 invalid", stderr: ""},
		{reason: "--version", args: []string{"--version"}, stdin: "", code: 0, stdout: "llsd ", stderr: ""},
		{reason: "help", args: []string{"help"}, stdin: "", code: 0, stdout: "Run llsd COMMAND --help", stderr: ""},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.Main(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
			assert.Equal(t, tc.code, code)
			assert.Contains(t, stdout.String(), tc.stdout)
			assert.Contains(t, stderr.String(), tc.stderr)
		})
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

// In the function image (LLSD_HELP=function) --help is the function's documentation in the
// catalog's sections, which kpt fn doc prints; elsewhere it is the command line's usage.
func TestHelpInTheFunctionImage(t *testing.T) {
	t.Setenv(cli.EnvHelp, "function")
	code, out, _ := run(t, "--help")
	assert.Equal(t, 0, code)
	for _, section := range []string{"\nOverview\n", "\nUsage\n", "\nFunctionConfig\n", "\nExamples\n"} {
		assert.Contains(t, out, section)
	}
	code, out, _ = run(t, "render", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "Usage: llsd render PATH...", "a command's help stays the command's")
	t.Setenv(cli.EnvHelp, "")
	_, out, _ = run(t, "--help")
	assert.Contains(t, out, "llsd turns short LlamaStackDistribution resources")
}
