// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

func TestURLs(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "chat-service", Namespace: "ai"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 8321}}}}
	tlsOn := &v1alpha2.LlamaStackDistribution{Spec: v1alpha2.LlamaStackDistributionSpec{
		Networking: &v1alpha2.NetworkingSpec{TLS: &v1alpha2.TLSSpec{Enabled: true, SecretName: "tls"}}}}
	ingress := func(host, lbHost, lbIP string, tls bool) *networkingv1.Ingress {
		ing := &networkingv1.Ingress{}
		if host != "" {
			ing.Spec.Rules = []networkingv1.IngressRule{{Host: host}}
		}
		if tls {
			ing.Spec.TLS = []networkingv1.IngressTLS{{Hosts: []string{host}}}
		}
		if lbHost != "" || lbIP != "" {
			ing.Status.LoadBalancer.Ingress = []networkingv1.IngressLoadBalancerIngress{{Hostname: lbHost, IP: lbIP}}
		}
		return ing
	}
	route := func(tls bool, ingresses ...map[string]any) *unstructured.Unstructured {
		u := newRoute()
		if tls {
			u.Object["spec"] = map[string]any{"tls": map[string]any{"termination": "edge"}}
		}
		list := make([]any, len(ingresses))
		for i, in := range ingresses {
			list[i] = in
		}
		u.Object["status"] = map[string]any{"ingress": list}
		return u
	}
	routerSays := func(host, status string) map[string]any {
		return map[string]any{"host": host, "routerName": "default",
			"conditions": []any{map[string]any{"type": "Admitted", "status": status}}}
	}
	str := func(s string) *string { return &s }
	for _, tc := range []struct {
		reason string
		got    any
		want   any
	}{
		{reason: "plain HTTP service", got: serviceURL(&v1alpha2.LlamaStackDistribution{}, svc), want: "http://chat-service.ai.svc.cluster.local:8321"},
		{reason: "TLS service", got: serviceURL(tlsOn, svc), want: "https://chat-service.ai.svc.cluster.local:8321"},
		{reason: "no Service yet", got: serviceURL(tlsOn, nil), want: ""},
		{reason: "an Ingress without an address has no route yet", got: routeURL(ingress("chat.example.com", "", "", true)), want: (*string)(nil)},
		{reason: "the rule's host, once the Ingress has an address", got: routeURL(ingress("chat.example.com", "", "10.0.0.1", true)), want: str("https://chat.example.com")},
		{reason: "no host rule: the load balancer's name", got: routeURL(ingress("", "lb.example.net", "", false)), want: str("http://lb.example.net")},
		{reason: "no host rule: the load balancer's IP", got: routeURL(ingress("", "", "10.0.0.1", false)), want: str("http://10.0.0.1")},
		{reason: "no Route", got: routeURLOf(nil), want: (*string)(nil)},
		{reason: "a Route no router has admitted yet", got: routeURLOf(route(true)), want: (*string)(nil)},
		{reason: "a Route one router refused", got: routeURLOf(route(true, routerSays("chat.apps.example.com", "False"))), want: (*string)(nil)},
		{reason: "the host a router admitted, over TLS", got: routeURLOf(route(true, routerSays("taken.example.com", "False"),
			routerSays("chat-route-ai.apps.example.com", "True"))), want: str("https://chat-route-ai.apps.example.com")},
		{reason: "a Route without TLS", got: routeURLOf(route(false, routerSays("chat.apps.example.com", "True"))), want: str("http://chat.apps.example.com")},
	} {
		t.Run(tc.reason, func(t *testing.T) { assert.Equal(t, tc.want, tc.got) })
	}
}

// A condition that keeps its status keeps its lastTransitionTime; one that flips gets now.
func TestConditionsKeepTheirTransitionTime(t *testing.T) {
	earlier := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	now := metav1.NewTime(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC))
	obj := &v1alpha2.LlamaStackDistribution{ObjectMeta: metav1.ObjectMeta{Name: "chat", Namespace: "ai"}}
	first := computeStatus(obj, observed{Now: earlier})
	obj.Status = first
	second := computeStatus(obj, observed{Now: now, SecretProblems: []string{"x"}, MissingSecret: true})
	assert.Equal(t, earlier, meta.FindStatusCondition(second.Conditions, v1alpha2.ConditionConfigGenerated).LastTransitionTime, "still NotRendered")
	assert.Equal(t, now, meta.FindStatusCondition(second.Conditions, v1alpha2.ConditionSecretsResolved).LastTransitionTime, "flipped to False")
}

// Every Secret key the pod reads is checked: providers', external providers', telemetry
// headers', storage's and TLS's, in spec order; "text" marks those substituted into a config key
// that takes a string, whose value must not read as a number or boolean.
func TestSecretRefsAreEveryOneThePodReads(t *testing.T) {
	for _, tc := range []struct {
		reason, spec string
		want         []string
	}{
		{reason: "providers, external providers, telemetry headers, storage and TLS", spec: `  distribution: {name: starter}
  providers:
    inference: [{provider: vllm, endpoint: "http://vllm:8000/v1", apiKey: {secretKeyRef: {name: vllm, key: token}}, clientCertificate: {secretName: vllm-client}}]
  externalProviders:
    inference:
    - providerId: acme
      image: registry.example.com/acme:1
      secretRefs: {api_key: {secretKeyRef: {name: acme, key: key}}}
  telemetry:
    endpoint: http://otel:4318
    headers: {authorization: {secretKeyRef: {name: otel, key: token}}}
  storage:
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
  networking:
    tls: {enabled: true, secretName: server-tls}
`,
			want: []string{
				"spec.providers.inference[0].apiKey vllm token text",
				"spec.providers.inference[0].clientCertificate vllm-client tls.crt,tls.key",
				"spec.externalProviders.inference[0].secretRefs[api_key] acme key text",
				"spec.telemetry.headers[authorization] otel token",
				"spec.storage.sql.connectionString pg url",
				"spec.networking.tls.secretName server-tls tls.crt,tls.key",
			}},
		{reason: "the passwords of named Postgres backends, by backend name", spec: `  distribution: {name: starter}
  storage:
    backends:
      sql_default: {type: sql_postgres, host: pg, user: ogx, password: {secretKeyRef: {name: pg-sql, key: password}}}
      kv_default: {type: kv_postgres, host: pg, user: ogx, password: {secretKeyRef: {name: pg-kv, key: password}}}
`, want: []string{"spec.storage.backends.kv_default.password pg-kv password text", "spec.storage.backends.sql_default.password pg-sql password text"}},
		{reason: "a provider's secretRefs: credentials are strings, other keys may be numbers", spec: `  distribution: {name: starter}
  providers:
    vectorIo:
    - provider: pgvector
      endpoint: pg:5432/vectors
      secretRefs:
        user: {secretKeyRef: {name: pg, key: user}}
        password: {secretKeyRef: {name: pg, key: password}}
`, want: []string{"spec.providers.vectorIo[0].secretRefs[password] pg password text", "spec.providers.vectorIo[0].secretRefs[user] pg user"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat}
spec:
` + tc.spec))
			require.Empty(t, errs)
			var got []string
			for _, r := range secretRefs(obj) {
				line := r.Field + " " + r.Name + " " + strings.Join(r.Keys, ",")
				if r.Text {
					line += " text"
				}
				got = append(got, line)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// The values the server reads as a number or boolean after substituting them, as
// _convert_string_to_proper_type does: true and false in any case, Python's int() and float().
func TestReadsAsNumberOrBoolean(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  bool
	}{
		{"123456", true}, {" 42\n", true}, {"-7", true}, {"1_000", true}, {"1.5", true}, {"1e3", true}, {"nan", true},
		{"Infinity", true}, {"True", true}, {"false", true},
		{"s3cret", false}, {"", false}, {"0x10", false}, {"12ab", false}, {"yes", false}, {"sk-123", false},
		{"_12", false}, {"1__0", false}, {"12_", false},
	} {
		assert.Equal(t, tc.want, readsAsNumberOrBoolean(tc.value), "%q", tc.value)
	}
}

// A Secret value that would reach a string key as a number fails SecretsResolved with a reason of
// its own; a missing Secret or key is named first.
func TestSecretsConditionReasons(t *testing.T) {
	converted := observed{SecretProblems: []string{"spec.providers.inference[0].apiKey: the value of key ..."}}
	assert.Equal(t, v1alpha2.ReasonSecretValueConverted, secretsCondition(converted).reason)
	converted.MissingSecretKey = true
	assert.Equal(t, v1alpha2.ReasonSecretKeyNotFound, secretsCondition(converted).reason)
	converted.MissingSecret = true
	assert.Equal(t, v1alpha2.ReasonSecretNotFound, secretsCondition(converted).reason)
}

// A server whose providers are withheld from callers without a credential answers (ServerReady),
// and its providers' health is Unknown with the reason, not False (#42).
func TestProvidersBehindAuthenticationAreUnknown(t *testing.T) {
	obj := &v1alpha2.LlamaStackDistribution{ObjectMeta: metav1.ObjectMeta{Name: "chat", Namespace: "ai"}}
	st := computeStatus(obj, observed{Now: metav1.Now(), Live: &liveServer{Version: "1.3.0", ProvidersWithheld: true}})
	ready := meta.FindStatusCondition(st.Conditions, v1alpha2.ConditionServerReady)
	require.NotNil(t, ready)
	assert.Equal(t, metav1.ConditionTrue, ready.Status)
	providers := meta.FindStatusCondition(st.Conditions, v1alpha2.ConditionProvidersHealthy)
	require.NotNil(t, providers)
	assert.Equal(t, metav1.ConditionUnknown, providers.Status)
	assert.Equal(t, v1alpha2.ReasonProvidersNeedAuthentication, providers.Reason)
}
