// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// resourceList is a ResourceList of n LlamaStackDistributions like the examples'.
func resourceList(n int) []byte {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := range n {
		fmt.Fprintf(&b, `- apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata: {name: stack-%d, namespace: ai}
  spec:
    distribution: {name: starter}
    providers:
      inference: {provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: {secretKeyRef: {name: vllm, key: token}}}
    resources:
      models: [llama3]
    networking: {expose: true}
`, i)
	}
	return []byte(b.String())
}

// runProcess runs a KRM function binary on input and returns its peak RSS in KB.
func runProcess(b *testing.B, binary string, input []byte) int64 {
	cmd := exec.Command(binary)
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v: %s", binary, err, stderr.String())
	}
	return cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
}

// benchProcess reports ns/op and the peak memory of the process (peak-RSS-KB).
func benchProcess(b *testing.B, binary string, input []byte) {
	var peak int64
	for b.Loop() {
		peak = max(peak, runProcess(b, binary, input))
	}
	b.ReportMetric(float64(peak), "peak-RSS-KB")
}

// One LlamaStackDistribution end to end as a process (what kustomize and kpt pay per
// call), and 1,000 in one ResourceList; each next to the identity function built with the
// same SDK, the floor of any KRM function. docs/benchmarks.md has the numbers and ratios.
func BenchmarkProcess(b *testing.B) {
	for _, n := range []int{1, 1000} {
		input := resourceList(n)
		b.Run(fmt.Sprintf("llsd/%d", n), func(b *testing.B) { benchProcess(b, llsdBinary, input) })
		b.Run(fmt.Sprintf("identity/%d", n), func(b *testing.B) { benchProcess(b, identityBinary, input) })
	}
}
