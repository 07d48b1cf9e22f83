// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// Monitoring turns the server's metrics endpoint on (a port of its own, reachable from other
// pods), names the port on the container and the Service, and adds a ServiceMonitor, and the
// alerts when asked; without monitoring, none of it.
func TestMonitoringObjects(t *testing.T) {
	for _, tc := range []struct {
		reason, monitoring string
		port               int32
		monitor, rule      bool
	}{
		{reason: "on, with the server's default port", monitoring: "{}", port: 9464, monitor: true},
		{reason: "a port of its own, alerts, no ServiceMonitor",
			monitoring: "{port: 9090, serviceMonitor: false, alerts: true}", port: 9090, rule: true},
		{reason: "off"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			spec := "  distribution: {name: starter}\n"
			if tc.monitoring != "" {
				spec += "  monitoring: " + tc.monitoring + "\n"
			}
			out, problems := renderSpec(t, "watched", spec, nil)
			require.Empty(t, problems)
			kinds := map[string]bool{}
			for _, o := range out.Objects {
				kinds[o.GetObjectKind().GroupVersionKind().Kind] = true
			}
			assert.Equal(t, tc.monitor, kinds["ServiceMonitor"])
			assert.Equal(t, tc.rule, kinds["PrometheusRule"])
			container := deploymentOf(t, out).Spec.Template.Spec.Containers[0]
			assert.Equal(t, tc.port, portNamed(container.Ports, "metrics"))
			env := map[string]string{}
			for _, v := range container.Env {
				env[v.Name] = v.Value
			}
			if tc.port == 0 {
				assert.NotContains(t, env, "OGX_METRICS_ENDPOINT_ENABLED")
				return
			}
			assert.Equal(t, "true", env["OGX_METRICS_ENDPOINT_ENABLED"])
			assert.Equal(t, "0.0.0.0", env["OGX_METRICS_HOST"], "reachable from Prometheus's pods")
		})
	}
}

// Behind a NetworkPolicy, a scraper outside the namespace is let in only when its namespace is
// listed: without one, a warning says so.
func TestMonitoringBehindANetworkPolicyNamesTheScraper(t *testing.T) {
	_, problems := renderSpec(t, "watched", `  distribution: {name: starter}
  networking: {allowedFrom: {namespaces: [apps]}}
  monitoring: {}
`, nil)
	assert.Equal(t, []string{"warning: spec.monitoring.scraperNamespaces: the NetworkPolicy admits the metrics port only from the server's own namespace: " +
		"list the namespace Prometheus runs in (monitoring, openshift-user-workload-monitoring, ...)"}, problems)
}

func portNamed(ports []corev1.ContainerPort, name string) int32 {
	for _, p := range ports {
		if p.Name == name {
			return p.ContainerPort
		}
	}
	return 0
}
