// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/krm"
)

func documents(n int, doc string) string { return strings.Repeat("---\n"+doc+"\n", n) }

func resourceList(n int) string {
	return `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
` + strings.Repeat("- {kind: ConfigMap}\n", n)
}

func withMetadata(field string, n int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, `apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  %s:
`, field)
	for i := range n {
		fmt.Fprintf(&sb, "    k%d: v\n", i)
	}
	return sb.String()
}

func TestCheckInput(t *testing.T) {
	for _, tc := range []struct {
		reason, input, want string
	}{
		{reason: "as many documents as allowed", input: documents(krm.MaxDocuments, "{kind: ConfigMap}"), want: ""},
		{reason: "one document more", input: documents(krm.MaxDocuments+1, "{kind: ConfigMap}"), want: "more than 20000 documents"},
		{reason: "empty documents count too", input: documents(krm.MaxDocuments+1, ""), want: "more than 20000 documents"},
		{reason: "the items of a ResourceList", input: resourceList(krm.MaxDocuments + 1), want: "more than 20000 documents"},
		{reason: "as many labels as allowed", input: withMetadata("labels", krm.MaxMetadataKeys), want: ""},
		{reason: "one label more", input: withMetadata("labels", krm.MaxMetadataKeys+1), want: "has 257 labels, more than 256"},
		{reason: "one annotation more", input: withMetadata("annotations", krm.MaxMetadataKeys+1), want: "has 257 annotations"},
		{reason: "data keys are not metadata", input: `apiVersion: v1
kind: ConfigMap
data:
` + strings.Repeat("  k: v\n", 1), want: ""},
		{reason: "a syntax error is the reader's to report", input: "a: [", want: ""},
		{reason: "as many settings keys as allowed", input: withSettings(krm.MaxSpecMapKeys), want: ""},
		{reason: "one settings key more, counted before anything decodes them (F7)", input: withSettings(krm.MaxSpecMapKeys + 1),
			want: "a LlamaStackDistribution (document 1) has 4097 keys at spec.providers.inference[0].settings.extra, more than 4096"},
		{reason: "the data of a ConfigMap are no spec of llsd's", input: `apiVersion: v1
kind: ConfigMap
spec:
` + keys("  ", krm.MaxSpecMapKeys+1), want: ""},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, err := krm.CheckInput([]byte(tc.input), 0)
			if tc.want == "" {
				assert.NoError(t, err, tc.reason)
				return
			}
			require.ErrorIs(t, err, krm.ErrTooMany, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
	n, err := krm.CheckInput([]byte(documents(3, "{}")), krm.MaxDocuments-3)
	assert.NoError(t, err, "documents of several files add up")
	_, err = krm.CheckInput([]byte(documents(1, "{}")), n)
	assert.ErrorIs(t, err, krm.ErrTooMany, "documents of several files add up")
}

// BenchmarkReferencedConfigMap renders an LLSD whose override config is a ConfigMap of n keys,
// for growing n: the time per key stays flat (docs/benchmarks.md), where decoding the data
// into a map took time quadratic in n.
func BenchmarkReferencedConfigMap(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		var sb strings.Builder
		sb.WriteString(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
` +
			"- {apiVersion: llamastack.io/v1alpha2, kind: LlamaStackDistribution, metadata: {name: s, namespace: ai}, " +
			"spec: {distribution: {name: starter}, overrideConfig: {configMapName: run}}}\n" +
			`- apiVersion: v1
  kind: ConfigMap
  metadata: {name: run, namespace: ai}
  data:
    config.yaml: 'version: 2'
`)
		for i := range n {
			fmt.Fprintf(&sb, "    k%d: v\n", i)
		}
		input := []byte(sb.String())
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := krm.CheckInput(input, 0); err != nil {
					b.Fatal(err)
				}
				p := krm.Processor{Version: "bench"}
				if err := krm.Run(p, input, io.Discard, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/key")
		})
	}
}

// withSettings is an LLSD with a settings mapping of n keys, one level down.
func withSettings(n int) string {
	return `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s}
spec:
  providers:
    inference:
` +
		`    - provider: vllm
      settings:
        extra:
` + keys("          ", n)
}

// keys is a YAML mapping of n keys, each line after indent.
func keys(indent string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sk%d: v\n", indent, i)
	}
	return b.String()
}
