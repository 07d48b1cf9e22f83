// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
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

// runProcess runs a KRM function binary on input, as kustomize and kpt do, and returns its
// peak RSS in KB (measured by rsswrap: a child of this large process would be charged its
// memory too).
func runProcess(b *testing.B, binary string, input []byte) int64 {
	report := filepath.Join(b.TempDir(), "rss")
	cmd := exec.Command(rsswrapBinary, report, binary)
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%s: %v: %s", binary, err, stderr.String())
	}
	data, err := os.ReadFile(report)
	if err != nil {
		b.Fatal(err)
	}
	peak, err := strconv.ParseInt(string(data), 10, 64)
	if err != nil {
		b.Fatal(err)
	}
	return peak
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
// same SDK, the floor of any KRM function. make bench prints the ratios (hack/benchreport);
// docs/benchmarks.md keeps them over time.
func BenchmarkProcess(b *testing.B) {
	for _, n := range []int{1, 1000} {
		input := resourceList(n)
		b.Run(fmt.Sprintf("llsd/%d", n), func(b *testing.B) { benchProcess(b, llsdBinary, input) })
		b.Run(fmt.Sprintf("identity/%d", n), func(b *testing.B) { benchProcess(b, identityBinary, input) })
	}
}
