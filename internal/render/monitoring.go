// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// spec.monitoring: the server (OGX 1.2 on) serves Prometheus metrics on a port of its own when
// OGX_METRICS_ENDPOINT_ENABLED is set, bound to OGX_METRICS_HOST (127.0.0.1 unless set, which
// no scraper reaches: llsd sets 0.0.0.0) and OGX_METRICS_PORT. The port is the container's and
// the Service's port named metrics; a ServiceMonitor and a PrometheusRule of the Prometheus
// Operator are llsd's own small types, with the API's field names (the function does not link
// the operator's module).

const (
	metricsPortName    = "metrics"
	defaultMetricsPort = 9464
)

func monitoringEnabled(obj *v1alpha2.LlamaStackDistribution) bool { return obj.Spec.Monitoring != nil }

func metricsPort(obj *v1alpha2.LlamaStackDistribution) int32 {
	if m := obj.Spec.Monitoring; m != nil && m.Port != nil {
		return *m.Port
	}
	return defaultMetricsPort
}

// metricsEnv turns the server's scrape endpoint on, reachable from other pods.
func metricsEnv(obj *v1alpha2.LlamaStackDistribution) []corev1.EnvVar {
	if !monitoringEnabled(obj) {
		return nil
	}
	return []corev1.EnvVar{
		{Name: "OGX_METRICS_ENDPOINT_ENABLED", Value: "true"},
		{Name: "OGX_METRICS_HOST", Value: "0.0.0.0"},
		{Name: "OGX_METRICS_PORT", Value: strconv.Itoa(int(metricsPort(obj)))},
	}
}

// metricsEnvOwners are the variables spec.monitoring sets, for the overrides.env check.
func metricsEnvOwners(obj *v1alpha2.LlamaStackDistribution) map[string]string {
	owners := map[string]string{}
	for _, e := range metricsEnv(obj) {
		owners[e.Name] = "⟦spec.monitoring⟧"
	}
	return owners
}

// ServiceMonitor is a monitoring.coreos.com/v1 ServiceMonitor, with the fields llsd writes.
type ServiceMonitor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ServiceMonitorSpec `json:"spec"`
}

// ServiceMonitorSpec selects the Service whose port Prometheus scrapes.
type ServiceMonitorSpec struct {
	Selector  metav1.LabelSelector `json:"selector"`
	Endpoints []ScrapeEndpoint     `json:"endpoints"`
}

// ScrapeEndpoint is a Service port Prometheus scrapes, by name.
type ScrapeEndpoint struct {
	Port     string `json:"port"`
	Path     string `json:"path"`
	Interval string `json:"interval"`
}

// DeepCopyObject makes ServiceMonitor a runtime.Object.
func (s *ServiceMonitor) DeepCopyObject() runtime.Object {
	out := *s
	out.ObjectMeta = *s.ObjectMeta.DeepCopy()
	out.Spec.Selector = *s.Spec.Selector.DeepCopy()
	out.Spec.Endpoints = append([]ScrapeEndpoint(nil), s.Spec.Endpoints...)
	return &out
}

// PrometheusRule is a monitoring.coreos.com/v1 PrometheusRule, with the fields llsd writes.
type PrometheusRule struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PrometheusRuleSpec `json:"spec"`
}

// PrometheusRuleSpec holds the alerting rules, in one group.
type PrometheusRuleSpec struct {
	Groups []RuleGroup `json:"groups"`
}

// RuleGroup is a named group of rules.
type RuleGroup struct {
	Name  string `json:"name"`
	Rules []Rule `json:"rules"`
}

// Rule is an alerting rule.
type Rule struct {
	Alert       string            `json:"alert"`
	Expr        string            `json:"expr"`
	For         string            `json:"for"`
	Labels      map[string]string `json:"labels"`
	Annotations map[string]string `json:"annotations"`
}

// DeepCopyObject makes PrometheusRule a runtime.Object.
func (r *PrometheusRule) DeepCopyObject() runtime.Object {
	out := *r
	out.ObjectMeta = *r.ObjectMeta.DeepCopy()
	out.Spec.Groups = append([]RuleGroup(nil), r.Spec.Groups...)
	return &out
}

// serviceMonitor has Prometheus scrape the Service's metrics port every 30 seconds.
func serviceMonitor(m meta, obj *v1alpha2.LlamaStackDistribution) *ServiceMonitor {
	mon := obj.Spec.Monitoring
	if mon == nil || !ptr.Deref(mon.ServiceMonitor, true) {
		return nil
	}
	return &ServiceMonitor{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "ServiceMonitor"},
		ObjectMeta: m.object(m.names.ServiceMonitor()),
		Spec: ServiceMonitorSpec{
			Selector:  metav1.LabelSelector{MatchLabels: m.names.Labels()},
			Endpoints: []ScrapeEndpoint{{Port: metricsPortName, Path: "/metrics", Interval: "30s"}},
		},
	}
}

// prometheusRule alerts when the server is down, when more than 5% of its requests fail and
// when the 95th percentile of request time passes 10 seconds (the server's metrics
// ogx.requests_total and ogx.request_duration_seconds, as the OpenTelemetry Prometheus
// exporter names them).
func prometheusRule(m meta, obj *v1alpha2.LlamaStackDistribution) *PrometheusRule {
	if mon := obj.Spec.Monitoring; mon == nil || !mon.Alerts {
		return nil
	}
	sel := fmt.Sprintf(`service=%q`, m.names.Service())
	if obj.Namespace != "" {
		sel = fmt.Sprintf(`namespace=%q, %s`, obj.Namespace, sel)
	}
	labels := map[string]string{"severity": "warning"}
	rule := func(alert, expr, forTime, summary string) Rule {
		return Rule{Alert: alert, Expr: expr, For: forTime, Labels: labels,
			Annotations: map[string]string{"summary": fmt.Sprintf(summary, obj.Name)}}
	}
	return &PrometheusRule{
		TypeMeta:   metav1.TypeMeta{APIVersion: "monitoring.coreos.com/v1", Kind: "PrometheusRule"},
		ObjectMeta: m.object(m.names.PrometheusRule()),
		Spec: PrometheusRuleSpec{Groups: []RuleGroup{{Name: "llsd-" + obj.Name, Rules: []Rule{
			rule("LlamaStackServerDown", fmt.Sprintf(`up{%s, endpoint="metrics"} == 0`, sel), "5m",
				"the llama-stack server %s has not answered a scrape for 5 minutes"),
			rule("LlamaStackRequestErrors", fmt.Sprintf(`sum(rate(ogx_requests_total{%[1]s, status="error"}[5m])) / sum(rate(ogx_requests_total{%[1]s}[5m])) > 0.05`, sel),
				"10m", "more than 5%% of the requests to the llama-stack server %s fail"),
			rule("LlamaStackSlowRequests", fmt.Sprintf(`histogram_quantile(0.95, sum by (le) (rate(ogx_request_duration_seconds_bucket{%s}[5m]))) > 10`, sel),
				"10m", "the 95th percentile of request time of the llama-stack server %s is above 10 seconds"),
		}}}},
	}
}

// metricsIngressRule admits the metrics port from the server's namespace and the scrapers'.
func metricsIngressRule(obj *v1alpha2.LlamaStackDistribution) []networkingv1.NetworkPolicyIngressRule {
	if !monitoringEnabled(obj) {
		return nil
	}
	from := []networkingv1.NetworkPolicyPeer{{PodSelector: &metav1.LabelSelector{}}}
	for _, ns := range obj.Spec.Monitoring.ScraperNamespaces {
		from = append(from, namespacePeer(ns))
	}
	tcp := corev1.ProtocolTCP
	port := intstr.FromInt32(metricsPort(obj))
	return []networkingv1.NetworkPolicyIngressRule{{From: from, Ports: []networkingv1.NetworkPolicyPort{{Protocol: &tcp, Port: &port}}}}
}

var monitoringPath = field.NewPath("spec", "monitoring")

// checkMonitoring refuses monitoring on a server version without a metrics endpoint and a
// metrics port that is the API's, and says when the NetworkPolicy admits no scraper.
func checkMonitoring(in Input) (field.ErrorList, []config.Warning) {
	mon := in.Object.Spec.Monitoring
	if mon == nil {
		return nil, nil
	}
	var errs field.ErrorList
	var warnings []config.Warning
	if mon.Alerts && in.Object.Namespace == "" {
		warnings = append(warnings, config.Warning{Field: monitoringPath.Child("alerts").String(), Message: "the alerts select the " +
			"server's metrics by its Service's name alone, as the LlamaStackDistribution names no namespace: a Service of the same " +
			"name in another namespace would count too; write metadata.namespace (or let kustomize's namespace: or Argo CD's " +
			"destination set it before llsd renders)"})
	}
	if p := in.Distribution.Profile; !p.MetricsEndpoint {
		errs = append(errs, field.Invalid(monitoringPath, "object", fmt.Sprintf(
			"%s serves no Prometheus metrics (%s do): set ⟦spec.distribution.serverVersion⟧ to one of them, or %s", p, profile.Having(func(q *profile.Profile) bool { return q.MetricsEndpoint }),
			wording.Fix(wording.FixNoMonitoring, "remove ⟦spec.monitoring⟧ (⟦spec.telemetry⟧ exports metrics over OTLP on every version)"))))
	}
	if metricsPort(in.Object) == in.Object.Spec.Port() {
		errs = append(errs, field.Invalid(monitoringPath.Child("port"), metricsPort(in.Object),
			"is the server's API port: the metrics endpoint needs a port of its own"))
	}
	if n := in.Object.Spec.Networking; n != nil && n.AllowedFrom != nil && len(mon.ScraperNamespaces) == 0 {
		warnings = append(warnings, config.Warning{Field: monitoringPath.Child("scraperNamespaces").String(), Message: "the NetworkPolicy " +
			"admits the metrics port only from the server's own namespace: list the namespace Prometheus runs in " +
			"(monitoring, openshift-user-workload-monitoring, ...)"})
	}
	return errs, warnings
}
