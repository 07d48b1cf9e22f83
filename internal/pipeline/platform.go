// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"fmt"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/render"
)

// forItsPlatform returns the render options for the platform a distribution exists on.
// rh-dev and the images of OpenShift AI and Open Data Hub releases run only there, so with no
// platform named they render for OpenShift with the platform's conventions, as the render
// option openshiftAI.release does: no fixed user or group (restricted-v2 assigns them from the
// namespace's range, and refuses a pod that names others), a Route where the server is
// exposed, the platform's trusted CA bundle, its dashboard admitted. A render for plain
// Kubernetes (a demo on kind) takes platform: kubernetes, and a warning on dist says what
// that changes.
func forItsPlatform(dist *distribution.Resolved, o render.Options) render.Options {
	switch {
	case dist.Release == "" || o.OpenShiftAI:
		return o
	case o.Platform == "":
		o.Platform, o.OpenShiftAI, o.DashboardNamespace = render.PlatformOpenShift, true, dist.DashboardNamespace
	case o.Platform != render.PlatformOpenShift:
		dist.Warn(fmt.Sprintf("%s is an image of %s, which runs on OpenShift; rendered for plain Kubernetes "+
			"as the render option platform says: the pods run as user 1001 and group 0 with fsGroup 1001, an exposed server gets an "+
			"Ingress, and neither the platform's CA bundle nor its dashboard is wired in", dist.Image, dist.Release))
	}
	return o
}
