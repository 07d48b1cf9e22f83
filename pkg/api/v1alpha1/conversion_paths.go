// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import "strings"

// hubToSpokePaths maps v1alpha2 field paths to the v1alpha1 fields they were converted from
// (the migration table of conversion_fields.go), most specific first.
var hubToSpokePaths = [][2]string{
	{"spec.distribution", "spec.server.distribution"},
	{"spec.networking.port", "spec.server.containerSpec.port"},
	{"spec.networking.tls.caBundle", "spec.server.tlsConfig.caBundle"},
	{"spec.networking.expose", "spec.network.exposeRoute"},
	{"spec.networking.allowedFrom", "spec.network.allowedFrom"},
	{"spec.workload.replicas", "spec.replicas"},
	{"spec.workload.workers", "spec.server.workers"},
	{"spec.workload.resources", "spec.server.containerSpec.resources"},
	{"spec.workload.autoscaling", "spec.server.autoscaling"},
	{"spec.workload.storage", "spec.server.storage"},
	{"spec.workload.podDisruptionBudget", "spec.server.podDisruptionBudget"},
	{"spec.workload.topologySpreadConstraints", "spec.server.topologySpreadConstraints"},
	{"spec.workload.overrides.env", "spec.server.containerSpec.env"},
	{"spec.workload.overrides.command", "spec.server.containerSpec.command"},
	{"spec.workload.overrides.args", "spec.server.containerSpec.args"},
	{"spec.workload.overrides", "spec.server.podOverrides"},
	{"spec.overrideConfig", "spec.server.userConfig"},
}

// SpokePath returns the v1alpha1 path of a v1alpha2 field path, for errors about an object
// written in v1alpha1. A field v1alpha1 does not have (providers, resources, storage, ...)
// came from the V1alpha2FieldsAnnotation: its path is returned as it is, with a note.
func SpokePath(hubPath string) string {
	for _, m := range hubToSpokePaths {
		if hubPath == m[0] || strings.HasPrefix(hubPath, m[0]+".") || strings.HasPrefix(hubPath, m[0]+"[") {
			return m[1] + strings.TrimPrefix(hubPath, m[0])
		}
	}
	if strings.HasPrefix(hubPath, "spec.") {
		return hubPath + " (in the " + V1alpha2FieldsAnnotation + " annotation)"
	}
	return hubPath
}
