// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"encoding/json"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	networkingv1 "k8s.io/api/networking/v1"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
)

// deploymentOf is the Deployment a render generated, or nil.
func deploymentOf(res *pipeline.Result) *appsv1.Deployment {
	for _, o := range res.Objects {
		if d, ok := o.(*appsv1.Deployment); ok {
			return d
		}
	}
	return nil
}

// networkPolicyOf is the NetworkPolicy a render generated, or nil.
func networkPolicyOf(res *pipeline.Result) *networkingv1.NetworkPolicy {
	for _, o := range res.Objects {
		if np, ok := o.(*networkingv1.NetworkPolicy); ok {
			return np
		}
	}
	return nil
}

// isLLSDAnnotation: llsd's receipt and conversion annotations, which an OGXServer does not carry.
func isLLSDAnnotation(key string) bool { return strings.HasPrefix(key, api.Group+"/") }

// equalJSON compares two values as their JSON (a zero struct and an empty one are equal).
func equalJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// runKey is the key of the user's ConfigMap the server runs, as the render wrote it: the file
// RUN_CONFIG_PATH or the command names in the config volume's directory ("" when unknown).
func runKey(dep *appsv1.Deployment) string {
	if dep == nil {
		return ""
	}
	c := dep.Spec.Template.Spec.Containers[0]
	dir := ""
	for _, m := range c.VolumeMounts {
		if m.Name == "config" {
			dir = strings.TrimSuffix(m.MountPath, "/") + "/"
		}
	}
	if dir == "" {
		return ""
	}
	candidates := slices.Concat(c.Command, c.Args)
	for _, e := range c.Env {
		if e.Name == "RUN_CONFIG_PATH" {
			candidates = append([]string{e.Value}, candidates...)
		}
	}
	for _, v := range candidates {
		if key, ok := strings.CutPrefix(v, dir); ok && key != "" && !strings.Contains(key, "/") {
			return key
		}
	}
	return ""
}
