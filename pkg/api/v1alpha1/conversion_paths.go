// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import (
	"fmt"
	"slices"
	"strings"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

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
func SpokePath(hubPath string) string { return SpokePathOf(hubPath, true) }

// SpokePathOf is SpokePath for an object that carries the V1alpha2FieldsAnnotation
// (annotated) or not: without it, a v1alpha2 field is one the user wrote in the v1alpha1
// object by mistake (an unknown field), and its path gets no note.
func SpokePathOf(hubPath string, annotated bool) string {
	if isSpokePath(hubPath) {
		return hubPath
	}
	if isHubOnly(hubPath) && !annotated {
		return hubPath
	}
	if isHubOnly(hubPath) {
		return hubPath + " (in the " + V1alpha2FieldsAnnotation + " annotation)"
	}
	if spokePath, ok := convertedFrom(hubPath); ok {
		return spokePath
	}
	if strings.HasPrefix(hubPath, "spec.") {
		return hubPath + " (in the " + V1alpha2FieldsAnnotation + " annotation)"
	}
	return hubPath
}

// convertedFrom is the v1alpha1 field a v1alpha2 path was converted from, if any.
func convertedFrom(hubPath string) (string, bool) {
	for _, m := range hubToSpokePaths {
		if v1alpha2.Within(hubPath, m[0]) {
			return m[1] + strings.TrimPrefix(hubPath, m[0]), true
		}
	}
	return "", false
}

// underAny reports whether path is under one of fields.
func underAny(path string, fields []string) bool {
	return slices.ContainsFunc(fields, func(f string) bool { return v1alpha2.Within(path, f) })
}

// isSpokePath reports whether a path is already one of v1alpha1's own fields, for what llsd
// reports about a field v1alpha2 does not have.
func isSpokePath(path string) bool {
	return underAny(path, []string{"spec.server", "spec.network", "spec.replicas"})
}

// isHubOnly reports whether a path is under a field only v1alpha2 has.
func isHubOnly(path string) bool { return underAny(path, hubOnlyPaths) }

// SpokeText is a message about an object written in v1alpha1, in its author's terms: the
// fields it refers to (wording.Field) are the v1alpha1 fields they were converted from ("set
// spec.workload.resources.requests.cpu" reads "set spec.server.containerSpec.resources.requests.cpu");
// fields only v1alpha2 has keep their path, and a message that names any says so at its end, once.
func SpokeText(message string) string {
	w := &spokeWords{}
	text := wording.Format(message, w)
	if len(w.hubOnly) == 0 {
		return text
	}
	return fmt.Sprintf("%s (only %s/v1alpha2 has %s)", text, GroupVersion.Group, strings.Join(w.hubOnly, ", "))
}

// spokeWords word references for a v1alpha1 author, noting the fields v1alpha1 does not have.
type spokeWords struct{ hubOnly []string }

func (w *spokeWords) Field(path string) string {
	if isHubOnly(path) {
		// the field, not the entry of it: spec.providers.inference of spec.providers.inference[0].endpoint
		name, _, _ := strings.Cut(path, "[")
		if !slices.Contains(w.hubOnly, name) {
			w.hubOnly = append(w.hubOnly, name)
		}
		return path
	}
	if spokePath, ok := convertedFrom(path); ok {
		return spokePath
	}
	return path
}

// API: v1alpha1 names the APIs as v1alpha2 does.
func (*spokeWords) API(name string) string { return name }

// Fix: v1alpha1 has the fields every fix names, in the places SpokeText words.
func (*spokeWords) Fix(wording.FixID) (string, bool) { return "", false }
