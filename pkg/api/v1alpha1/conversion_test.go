// SPDX-License-Identifier: Apache-2.0

package v1alpha1_test

import (
	"fmt"
	"math/rand"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/apitesting/fuzzer"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metafuzzer "k8s.io/apimachinery/pkg/apis/meta/fuzzer"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The randomized round trips: any v1alpha1 object survives v1alpha1 -> v1alpha2 ->
// v1alpha1, and any v1alpha2 object survives v1alpha2 -> v1alpha1 -> v1alpha2, field for
// field. `make fuzz` runs FuzzRoundTrip for longer.

func TestRoundTripRandomized(t *testing.T) {
	for seed := int64(0); seed < 1000; seed++ {
		roundTrip(t, seed)
	}
}

func FuzzRoundTrip(f *testing.F) {
	f.Add(int64(0))
	f.Add(int64(42))
	f.Fuzz(roundTrip)
}

func roundTrip(t *testing.T, seed int64) {
	t.Helper()
	filler := newFiller(seed)

	spoke := &v1alpha1.LlamaStackDistribution{}
	filler.Fill(spoke)
	hub := &v1alpha2.LlamaStackDistribution{}
	mustNot(t, spoke.ConvertTo(hub))
	spokeAgain := &v1alpha1.LlamaStackDistribution{}
	mustNot(t, spokeAgain.ConvertFrom(hub))
	if !equality.Semantic.DeepEqual(spoke, spokeAgain) {
		t.Fatalf("seed %d: v1alpha1 -> v1alpha2 -> v1alpha1 changed the object:\n%s", seed, diff.Diff(spoke, spokeAgain))
	}

	hub = &v1alpha2.LlamaStackDistribution{}
	filler.Fill(hub)
	spoke = &v1alpha1.LlamaStackDistribution{}
	mustNot(t, spoke.ConvertFrom(hub))
	hubAgain := &v1alpha2.LlamaStackDistribution{}
	mustNot(t, spoke.ConvertTo(hubAgain))
	hubAgain.TypeMeta = hub.TypeMeta // ConvertTo sets no TypeMeta: the scheme does
	if !equality.Semantic.DeepEqual(hub, hubAgain) {
		t.Fatalf("seed %d: v1alpha2 -> v1alpha1 -> v1alpha2 changed the object:\n%s", seed, diff.Diff(hub, hubAgain))
	}
}

func mustNot(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func newFiller(seed int64) *randfill.Filler {
	scheme := runtime.NewScheme()
	codecs := serializer.NewCodecFactory(scheme)
	funcs := fuzzer.MergeFuzzerFuncs(metafuzzer.Funcs, func(serializer.CodecFactory) []any {
		return []any{
			// Values that only exist in their canonical JSON form.
			func(q *resource.Quantity, c randfill.Continue) {
				*q = *resource.NewQuantity(c.Int63n(1<<30), resource.BinarySI)
			},
			func(v *intstr.IntOrString, c randfill.Continue) {
				if c.Bool() {
					*v = intstr.FromInt32(c.Int31())
				} else {
					*v = intstr.FromString(fmt.Sprintf("%d%%", c.Intn(100)))
				}
			},
			func(j *apiextensionsv1.JSON, c randfill.Continue) {
				j.Raw = fmt.Appendf(nil, `{"key%d":%d}`, c.Intn(10), c.Intn(1000))
			},
			// TypeMeta is set by the scheme, not by conversion.
			func(tm *metav1.TypeMeta, c randfill.Continue) {},
		}
	})
	return fuzzer.FuzzerFor(funcs, rand.NewSource(seed), codecs)
}
