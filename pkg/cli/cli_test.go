// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/pkg/cli"
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
