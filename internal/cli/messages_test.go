// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// The mistakes of a first hour get messages that say the fix (#56): a secret written where its
// reference goes, a provider in capitals, a key indented out of its mapping (named on its own
// line, not the mapping's), and a file that is no YAML counted as such, not as an invalid LLSD.
func TestFirstHourMessages(t *testing.T) {
	for _, tc := range []struct {
		reason, file, stdout string
		says, hides          []string
	}{
		{reason: "a secret's value where its reference goes", file: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: "sk-live-123"}
  storage:
    sql: {type: postgres, connectionString: "postgresql://u:hunter2@pg/db"}
`, says: []string{"spec.providers.inference[0].apiKey: Invalid value: takes a Secret's key, not the value",
			`spec.storage.sql.connectionString: Invalid value: "string": takes a Secret's key, not the value: keep the value in a Secret and write secretKeyRef: {name, key}`},
			hides: []string{"sk-live-123", "hunter2"}},
		{reason: "a provider in capitals", file: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s, namespace: ai}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vLLM, endpoint: "http://vllm:8000/v1"}
`, says: []string{`spec.providers.inference[0].provider: Invalid value: "vLLM"`, "write it in lowercase, vllm"}},
		{reason: "a key indented out of its mapping", file: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: s
  namespace: ai
spec:
  distribution:
    name: starter
  providers:
    inference:
      provider: vllm
     endpoint: http://vllm:8000/v1
`, says: []string{"not YAML: line 12 is indented by 5 spaces, as no key above it is: indent it as the key it belongs with"},
			stdout: "0 LlamaStackDistribution(s) checked, 0 invalid, 1 file(s) not read\n"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "stack.yaml", tc.file)
			code, out, stderr := run(t, "validate", dir)
			assert.Equal(t, 1, code)
			for _, says := range tc.says {
				assert.Contains(t, stderr, says)
			}
			for _, hidden := range tc.hides {
				assert.NotContains(t, stderr+out, hidden, "never a secret's value in a message")
			}
			if tc.stdout != "" {
				assert.Equal(t, tc.stdout, out)
			}
		})
	}
}
