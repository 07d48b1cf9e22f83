// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMonitoringNeedsAServerWithMetrics(t *testing.T) {
	for _, tc := range []struct {
		reason, spec, field, says string
	}{
		{reason: "OGX 1.1 serves no metrics", spec: `  distribution: {name: starter, serverVersion: "1.1"}
  monitoring: {}`, field: "spec.monitoring", says: "OGX 1.1 serves no Prometheus metrics (OGX 1.2 to OGX 1.3 do)"},
		{reason: "the API port is not the metrics port", spec: `  distribution: {name: starter}
  networking: {port: 9000}
  monitoring: {port: 9000}`, field: "spec.monitoring.port", says: "the metrics endpoint needs a port of its own"},
		{reason: "overrides.env cannot set what monitoring sets", spec: `  distribution: {name: starter}
  monitoring: {}
  workload: {overrides: {env: [{name: OGX_METRICS_HOST, value: 127.0.0.1}]}}`, field: "spec.workload.overrides.env[0].name", says: "OGX_METRICS_HOST is set by spec.monitoring"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, errs, _ := renderSpec(t, tc.spec+"\n")
			require.Len(t, errs, 1, "%v", errs)
			assert.Equal(t, tc.field, errs[0].Field)
			assert.Contains(t, errs[0].Error(), tc.says)
		})
	}
}
