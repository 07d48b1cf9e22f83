// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/llamastack/llsd/internal/krm"
)

// BenchmarkProcess1000 runs the function in process on a ResourceList of 1,000
// LlamaStackDistributions (parse, render, write) as llsd does, without process start-up.
func BenchmarkProcess1000(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
`)
	for i := range 1000 {
		fmt.Fprintf(&sb, `- apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata: {name: s-%d, namespace: ai}
`+
			`  spec:
    distribution: {name: starter}
    providers:
      inference: {provider: vllm, endpoint: "http://vllm:8000/v1"}
`, i)
	}
	input := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		p := krm.Processor{Version: "bench", Entries: &krm.Entries{}}
		if err := krm.Run(p, input, io.Discard, p.Entries); err != nil {
			b.Fatal(err)
		}
	}
}
