// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSpokePath(t *testing.T) {
	for hub, spoke := range map[string]string{
		"spec.workload.replicas":                             "spec.replicas",
		"spec.networking.port":                               "spec.server.containerSpec.port",
		"spec.workload.overrides.env[0].name":                "spec.server.containerSpec.env[0].name",
		"spec.workload.overrides.serviceAccountName":         "spec.server.podOverrides.serviceAccountName",
		"spec.networking.tls.caBundle.configMapKeys[1]":      "spec.server.tlsConfig.caBundle.configMapKeys[1]",
		"spec.workload.autoscaling.maxReplicas":              "spec.server.autoscaling.maxReplicas",
		"spec.providers.inference[0].endpoint":               "spec.providers.inference[0].endpoint (in the llamastack.io/v1alpha2-fields annotation)",
		"metadata.name":                                      "metadata.name",
		"spec.workload.resources.requests.cpu":               "spec.server.containerSpec.resources.requests.cpu",
		"spec.distribution.name":                             "spec.server.distribution.name",
		"spec.networking.allowedFrom.labels[0]":              "spec.network.allowedFrom.labels[0]",
		"spec.workload.topologySpreadConstraints[0].maxSkew": "spec.server.topologySpreadConstraints[0].maxSkew",
	} {
		assert.Equal(t, spoke, SpokePath(hub), hub)
	}
}
