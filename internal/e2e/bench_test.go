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
	"sync"
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

// nofastBinary is llsd built without its fast paths (-tags llsd_nofastpaths): each YAML and
// JSON writer of internal/fastcodec left to the library it reproduces, the base configs read
// from their YAML. Built on first use: only BenchmarkFastPaths needs it.
var nofastBinary = sync.OnceValues(func() (string, error) {
	binary := filepath.Join(filepath.Dir(llsdBinary), "llsd-nofastpaths")
	build := exec.Command("go", "build", "-trimpath", "-tags", "llsd_nofastpaths",
		"-ldflags=-X github.com/llamastack/llsd/internal/version.version=devel", "-o", binary, "./cmd/llsd")
	build.Dir, build.Env = filepath.Join("..", ".."), append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%w: %s", err, out)
	}
	return binary, nil
})

// What internal/fastcodec buys in the cases users run, llsd with its fast paths next to llsd
// without them: one LlamaStackDistribution under kustomize build (kustomize's own time
// included), the examples make demo renders (one llsd render each), and 1,000 LLSDs in one
// ResourceList.
// docs/benchmarks.md records the numbers and what was kept.
func BenchmarkFastPaths(b *testing.B) {
	nofast, err := nofastBinary()
	if err != nil {
		b.Fatal(err)
	}
	kustomize := os.Getenv("KUSTOMIZE")
	for _, v := range []struct{ name, binary string }{{"fast", llsdBinary}, {"nofast", nofast}} {
		if kustomize != "" {
			b.Run("kustomize-build/"+v.name, func(b *testing.B) { benchKustomize(b, kustomize, v.binary) })
		}
		b.Run("examples/"+v.name, func(b *testing.B) {
			for b.Loop() {
				for _, example := range demoExamples {
					cmd := exec.Command(v.binary, "render", filepath.Join("..", "..", example))
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("%s: %v: %s", example, err, out)
					}
				}
			}
		})
		input := resourceList(1000)
		b.Run("1000/"+v.name, func(b *testing.B) { benchProcess(b, v.binary, input) })
	}
}

// demoExamples are what make demo renders: a repository's handful of LLSDs, one llsd render each.
var demoExamples = []string{"examples/kustomize/transformer/llsd.yaml", "examples/kustomize/generator/llsd.yaml",
	"examples/kpt/llsd.yaml", "examples/argocd/app/llsd.yaml", "examples/openshift/stack"}

// benchKustomize runs kustomize build on the transformer example with binary as the llsd on PATH.
func benchKustomize(b *testing.B, kustomize, binary string) {
	dir := b.TempDir()
	if err := os.Symlink(binary, filepath.Join(dir, "llsd")); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := exec.Command(kustomize, "build", "--enable-alpha-plugins", "--enable-exec", filepath.Join("..", "..", "examples", "kustomize", "transformer"))
		cmd.Env = append(os.Environ(), "PATH="+dir+":"+os.Getenv("PATH"))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
	}
}
