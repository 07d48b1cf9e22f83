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

	"github.com/llamastack/llsd/internal/fastcodec"
)

// resourceList is a ResourceList of n LlamaStackDistributions like the examples'.
func resourceList(n int) []byte {
	var b strings.Builder
	b.WriteString(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
`)
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
// same SDK, the floor of any KRM function, and to that function linked with llsd's packages
// (linkedfn), the floor of any function built from them. make bench prints the ratios
// (hack/benchreport); docs/benchmarks.md keeps them over time.
func BenchmarkProcess(b *testing.B) {
	linked, err := buildOnce("linkedfn", "./internal/e2e/linkedfn", "")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 1000} {
		input := resourceList(n)
		b.Run(fmt.Sprintf("llsd/%d", n), func(b *testing.B) { benchProcess(b, llsdBinary, input) })
		b.Run(fmt.Sprintf("identity/%d", n), func(b *testing.B) { benchProcess(b, identityBinary, input) })
		b.Run(fmt.Sprintf("linked/%d", n), func(b *testing.B) { benchProcess(b, linked, input) })
	}
}

// llsdWithout builds llsd with the named fast paths of internal/fastcodec turned off ("all",
// or one of tree, nodes, writer): each then leaves its work to the library it
// reproduces, with the same bytes. Built on first use: only BenchmarkFastPaths needs them.
func llsdWithout(paths string) (string, error) {
	return buildOnce("llsd-without-"+paths, "./cmd/llsd", "-X github.com/llamastack/llsd/internal/fastcodec.off="+paths)
}

// buildOnce builds the command pkg as name, beside the binaries TestMain builds, on first use.
func buildOnce(name, pkg, ldflags string) (string, error) {
	variantsMu.Lock()
	defer variantsMu.Unlock()
	if binary, ok := variants[name]; ok {
		return binary, nil
	}
	binary := filepath.Join(filepath.Dir(llsdBinary), name)
	build := exec.Command("go", "build", "-trimpath", "-ldflags=-X github.com/llamastack/llsd/internal/version.version=devel "+ldflags,
		"-o", binary, pkg)
	build.Dir, build.Env = filepath.Join("..", ".."), append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%w: %s", err, out)
	}
	variants[name] = binary
	return binary, nil
}

var (
	variantsMu sync.Mutex
	variants   = map[string]string{}
)

// What internal/fastcodec buys in the cases users run: llsd as it ships, without any fast
// path, and without each one alone, for one LlamaStackDistribution under kustomize build
// (kustomize's own time included), the examples make demo renders (one llsd render each), and
// 1,000 LLSDs in one ResourceList. docs/benchmarks.md records the numbers and the decision.
func BenchmarkFastPaths(b *testing.B) {
	kustomize := os.Getenv("KUSTOMIZE")
	input := resourceList(1000)
	for _, without := range []string{"", "all", fastcodec.PathTree, fastcodec.PathNodes, fastcodec.PathWriter} {
		binary, name := llsdBinary, "shipped"
		if without != "" {
			var err error
			if binary, err = llsdWithout(without); err != nil {
				b.Fatal(err)
			}
			name = "without-" + without
		}
		if kustomize != "" {
			b.Run("kustomize-build/"+name, func(b *testing.B) { benchKustomize(b, kustomize, binary) })
		}
		b.Run("examples/"+name, func(b *testing.B) {
			for b.Loop() {
				for _, example := range demoExamples {
					cmd := exec.Command(binary, "render", filepath.Join("..", "..", example))
					if out, err := cmd.CombinedOutput(); err != nil {
						b.Fatalf("%s: %v: %s", example, err, out)
					}
				}
			}
		})
		b.Run("1000/"+name, func(b *testing.B) { benchProcess(b, binary, input) })
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
