// SPDX-License-Identifier: Apache-2.0

package review_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/review"
)

// rendered1000 is the render of 1,000 stacks, each with spec added to the same base.
func rendered1000(b *testing.B, spec string) fn.KubeObjects {
	var sb strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&sb, "---\napiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s-%d, namespace: ai}\n"+
			"spec:\n  distribution: {name: starter}\n  providers:\n    inference: {provider: vllm, endpoint: 'http://vllm:8000/v1'}\n%s", i, spec)
	}
	items, err := fn.ParseKubeObjects([]byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	rl := &fn.ResourceList{Items: items, FunctionConfig: fn.NewEmptyKubeObject()}
	if _, err := (krm.Processor{Version: "bench", Standalone: true}).Process(rl); err != nil {
		b.Fatal(err)
	}
	return rl.Items
}

// llsd diff's own work on 1,000 stacks, beyond its two renders (BenchmarkProcess1000 of
// internal/krm times a render): reading both outputs into stacks and comparing every stack;
// every config changed (authentication off and a model removed in each, so every config is
// parsed), or none (a change elsewhere in the package: no config is parsed).
func BenchmarkCompare1000(b *testing.B) {
	const base = "  resources: {models: [granite, llama]}\n  authentication: {kubernetes: {}}\n"
	before := rendered1000(b, base)
	for _, tc := range []struct {
		name     string
		after    fn.KubeObjects
		findings int
	}{
		{name: "every-config-changed", after: rendered1000(b, "  resources: {models: [granite]}\n"), findings: 3000},
		{name: "unchanged", after: rendered1000(b, base), findings: 0},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				old, err := review.Stacks(before)
				if err != nil {
					b.Fatal(err)
				}
				now, err := review.Stacks(tc.after)
				if err != nil {
					b.Fatal(err)
				}
				if findings := review.Compare(old, now); len(findings) != tc.findings {
					b.Fatalf("%d findings, want %d", len(findings), tc.findings)
				}
			}
		})
	}
}
