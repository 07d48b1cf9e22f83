// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/pkg/krm"
)

// BenchmarkProcess1000 runs the function in process on a ResourceList of 1,000
// LlamaStackDistributions (parse, render, write), without process start-up.
func BenchmarkProcess1000(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := range 1000 {
		fmt.Fprintf(&sb, "- apiVersion: llamastack.io/v1alpha2\n  kind: LlamaStackDistribution\n  metadata: {name: s-%d, namespace: ai}\n"+
			"  spec:\n    distribution: {name: starter}\n    providers:\n      inference: {provider: vllm, endpoint: \"http://vllm:8000/v1\"}\n", i)
	}
	input := []byte(sb.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := fn.Run(krm.Processor{Version: "bench"}, input); err != nil {
			b.Fatal(err)
		}
	}
}
