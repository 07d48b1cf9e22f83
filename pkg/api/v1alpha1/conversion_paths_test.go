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
		"spec.workload.storage.accessModes":                  "spec.workload.storage.accessModes (in the llamastack.io/v1alpha2-fields annotation)",
		"spec.networking.expose.route":                       "spec.networking.expose.route (in the llamastack.io/v1alpha2-fields annotation)",
		"spec.server.containerSpec.name":                     "spec.server.containerSpec.name",
	} {
		assert.Equal(t, spoke, SpokePath(hub), hub)
	}
}

// Messages name the fields a v1alpha1 user wrote; a field only v1alpha2 has keeps its name.
// Only references are worded: a path in plain text is text.
func TestSpokeText(t *testing.T) {
	for _, tc := range []struct{ reason, hub, spoke string }{
		{reason: "a converted field", hub: "set ⟦spec.workload.resources.requests.cpu⟧", spoke: "set spec.server.containerSpec.resources.requests.cpu"},
		{reason: "two fields, one only v1alpha2 has", hub: "⟦spec.workload.storage⟧ is ReadWriteOnce: set ⟦spec.storage.kv⟧ or remove ⟦spec.workload.storage⟧.",
			spoke: "spec.server.storage is ReadWriteOnce: set spec.storage.kv or remove spec.server.storage. (only llamastack.io/v1alpha2 has spec.storage.kv)"},
		{reason: "a hub-only field of a converted block, named twice", hub: "set ⟦spec.workload.storage.accessModes⟧, ⟦spec.storage.sql⟧ and ⟦spec.workload.storage.accessModes⟧",
			spoke: "set spec.workload.storage.accessModes, spec.storage.sql and spec.workload.storage.accessModes (only llamastack.io/v1alpha2 has spec.workload.storage.accessModes, spec.storage.sql)"},
		{reason: "an entry of a hub-only field: the note names the field", hub: "unreachable: api.openai.com (⟦spec.providers.inference[2].settings[base_url]⟧)",
			spoke: "unreachable: api.openai.com (spec.providers.inference[2].settings[base_url]) (only llamastack.io/v1alpha2 has spec.providers.inference)"},
		{reason: "a path that is no reference is text", hub: "RenderOptions spec.registry.enabled", spoke: "RenderOptions spec.registry.enabled"},
		{reason: "an API and a fix read as v1alpha2 writes them", hub: "keep ⟦api:vectorIo⟧ or ⟦fix:no-monitoring⟧remove ⟦spec.workload.storage⟧⟦/fix⟧",
			spoke: "keep vectorIo or remove spec.server.storage"},
		{reason: "not a path", hub: "the spec is fine", spoke: "the spec is fine"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.spoke, SpokeText(tc.hub), tc.reason)
		})
	}
}
