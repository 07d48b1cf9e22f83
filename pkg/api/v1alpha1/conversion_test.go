// SPDX-License-Identifier: Apache-2.0

package v1alpha1_test

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	}, validHubOnlyFields)
	return fuzzer.FuzzerFor(funcs, rand.NewSource(seed), codecs)
}

// validHubOnlyFields fill the fields only v1alpha2 has with values a v1alpha2 create accepts:
// conversion restores them from an annotation only after validating them.
func validHubOnlyFields(serializer.CodecFactory) []any {
	secret := func(c randfill.Continue) *v1alpha2.SecretKeySource {
		return &v1alpha2.SecretKeySource{SecretKeyRef: v1alpha2.SecretKeyRef{Name: fmt.Sprintf("s%d", c.Intn(9)), Key: "k"}}
	}
	pick := func(c randfill.Continue, options ...string) string { return options[c.Intn(len(options))] }
	return []any{
		func(d *v1alpha2.DistributionSpec, c randfill.Continue) {
			c.FillNoCustom(d)
			d.ServerVersion = pick(c, "", "0.6", "0.7")
		},
		func(p *v1alpha2.ProvidersSpec, c randfill.Continue) {
			for i, list := range []*[]v1alpha2.ProviderSpec{&p.Inference, &p.Safety, &p.VectorIo, &p.ToolRuntime} {
				for j := range c.Intn(3) {
					ps := v1alpha2.ProviderSpec{ID: fmt.Sprintf("p%d-%d", i, j), Provider: pick(c, "vllm", "remote::ollama", "inline::faiss", "llama-guard")}
					if c.Bool() {
						ps.Endpoint = fmt.Sprintf("http://h%d:8000/v1", c.Intn(9))
					}
					if c.Bool() {
						ps.APIKey = secret(c)
					}
					if c.Bool() {
						ps.SecretRefs = map[string]v1alpha2.SecretKeySource{"password": *secret(c)}
					}
					*list = append(*list, ps)
				}
			}
		},
		func(r *v1alpha2.ResourcesSpec, c randfill.Continue) {
			for i := range c.Intn(3) {
				m := v1alpha2.ModelSpec{Name: fmt.Sprintf("m%d", i), ProviderModelID: pick(c, "", "org/model")}
				if c.Bool() {
					m.ModelType, m.EmbeddingDimension = "embedding", ptrTo(int32(1+c.Intn(2048)))
				}
				r.Models = append(r.Models, m)
			}
			if c.Bool() {
				r.Tools = []string{"websearch", "rag"}[:1+c.Intn(2)]
			}
			if c.Bool() {
				r.Shields = []string{fmt.Sprintf("shield-%d", c.Intn(9))}
			}
		},
		func(s *v1alpha2.StateStorageSpec, c randfill.Continue) {
			s.KV = &v1alpha2.KVStorageSpec{Type: "sqlite"}
			if c.Bool() {
				s.KV = &v1alpha2.KVStorageSpec{Type: "redis", Endpoint: "redis:6379", Password: secret(c)}
			}
			if c.Bool() {
				s.SQL = &v1alpha2.SQLStorageSpec{Type: "postgres", ConnectionString: secret(c)}
			}
		},
		func(d *[]v1alpha2.APIName, c randfill.Continue) {
			*d = []v1alpha2.APIName{"batches", "eval", "scoring"}[:c.Intn(4)]
			if len(*d) == 0 {
				*d = nil
			}
		},
		func(e *v1alpha2.ExternalProvidersSpec, c randfill.Continue) {
			e.Inference = []v1alpha2.ExternalProviderRef{{ProviderID: "ext", Image: "registry.example.com/ext:1.0"}}
			if c.Bool() {
				e.Safety = []v1alpha2.ExternalProviderRef{{ProviderID: "guard", Image: "registry.example.com/guard:1.0",
					Module: "guard_provider==1.2", ProviderType: "inline::guard", Path: "/opt/guard",
					SecretRefs: map[string]v1alpha2.SecretKeySource{"api_key": *secret(c)}}}
			}
		},
		func(t *v1alpha2.TelemetrySpec, c randfill.Continue) {
			*t = v1alpha2.TelemetrySpec{Endpoint: fmt.Sprintf("http://otel-%d:4317", c.Intn(9)), Protocol: pick(c, "", "grpc", "http/protobuf")}
			if c.Bool() {
				t.SamplingPercent, t.Headers = ptrTo(int32(c.Intn(101))), map[string]v1alpha2.SecretKeySource{"authorization": *secret(c)}
			}
		},
		func(p *v1alpha2.PodSettings, c randfill.Continue) {
			c.FillNoCustom(p)
			p.Labels, p.Annotations = map[string]string{"team": pick(c, "a", "b")}, map[string]string{"example.com/a": "b"}
			if c.Bool() {
				p.Labels, p.Annotations = nil, nil
			}
		},
		func(s *v1alpha2.PVCStorageSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.MountPath = pick(c, "", "/data")
			s.StorageClassName = nil
			s.AccessModes = nil
			if c.Bool() {
				s.StorageClassName, s.AccessModes = ptrTo("fast"), []v1alpha2.StorageAccessMode{"ReadWriteMany"}
			}
		},
		func(t *v1alpha2.TLSSpec, c randfill.Continue) {
			c.FillNoCustom(t)
			t.Enabled = c.Bool()
			t.SecretName = ""
			if t.Enabled {
				t.SecretName = "tls"
			}
		},
		func(e *v1alpha2.ExposeSpec, c randfill.Continue) {
			e.Enabled = ptrTo(c.Bool())
			e.Hostname, e.ClassName, e.Annotations, e.Route = "", "", nil, nil
			if *e.Enabled && c.Bool() {
				e.Hostname, e.ClassName, e.Annotations = "chat.example.com", "nginx", map[string]string{"example.com/a": "b"}
			}
			if *e.Enabled && c.Bool() {
				e.ClassName, e.Route = "", ptrTo(true)
			}
		},
	}
}

func ptrTo[T any](v T) *T { return &v }

// The fields only v1alpha2 has survive an edit through v1alpha1 (kubectl edit of the v1alpha1
// object): the edit changes what v1alpha1 has, the annotation brings back the rest.
func TestHubOnlyFieldsSurviveAV1alpha1Edit(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		hub := &v1alpha2.LlamaStackDistribution{}
		newFiller(seed).Fill(hub)
		spoke := &v1alpha1.LlamaStackDistribution{}
		mustNot(t, spoke.ConvertFrom(hub))
		spoke.Spec.Replicas++ // the edit
		edited := &v1alpha2.LlamaStackDistribution{}
		mustNot(t, spoke.ConvertTo(edited))
		for _, kept := range []struct {
			name      string
			want, got any
		}{
			{"telemetry", hub.Spec.Telemetry, edited.Spec.Telemetry},
			{"externalProviders", hub.Spec.ExternalProviders, edited.Spec.ExternalProviders},
			{"workload.pod", podOf(hub), podOf(edited)},
			{"networking.expose.route", routeOf(hub), routeOf(edited)},
			{"workload.storage", storageOf(hub), storageOf(edited)},
		} {
			if !equality.Semantic.DeepEqual(kept.want, kept.got) {
				t.Fatalf("seed %d: %s lost in a v1alpha1 edit:\n%s", seed, kept.name, diff.Diff(kept.want, kept.got))
			}
		}
	}
}

func podOf(o *v1alpha2.LlamaStackDistribution) *v1alpha2.PodSettings {
	if o.Spec.Workload == nil {
		return nil
	}
	return o.Spec.Workload.Pod
}

func routeOf(o *v1alpha2.LlamaStackDistribution) *bool {
	if e := o.Spec.Networking.GetExpose(); e != nil && o.Spec.ExposeEnabled() {
		return e.Route
	}
	return nil
}

func storageOf(o *v1alpha2.LlamaStackDistribution) *v1alpha2.PVCStorageSpec {
	if o.Spec.Workload == nil {
		return nil
	}
	return o.Spec.Workload.Storage
}

// The v1alpha2 fields a v1alpha1 object carries in its annotation are validated like a
// v1alpha2 create: a hand-written annotation cannot store what the API server would refuse.
func TestConversionValidatesRestoredFields(t *testing.T) {
	for _, tc := range []struct{ reason, annotation, want string }{
		{"a provider id the CRD refuses, with a fingerprint that does not match",
			`{"spec":{"distribution":{"name":"starter"},"providers":{"inference":[{"id":"BAD ID!","provider":"vllm"}]}},"fingerprint":"x"}`,
			`spec.providers.inference[0].id: Invalid value: "BAD ID!"`},
		{"an API that does not exist",
			`{"spec":{"distribution":{"name":"starter"},"disabled":["bogus"]},"fingerprint":"x"}`,
			`spec.disabled[0]: Unsupported value: "bogus"`},
	} {
		src := &v1alpha1.LlamaStackDistribution{}
		src.Name = "s"
		src.Annotations = map[string]string{v1alpha1.V1alpha2FieldsAnnotation: tc.annotation}
		src.Spec.Server.Distribution.Name = "starter"
		err := src.ConvertTo(&v1alpha2.LlamaStackDistribution{})
		require.Error(t, err, tc.reason)
		assert.Contains(t, err.Error(), tc.want, tc.reason)
	}
}
