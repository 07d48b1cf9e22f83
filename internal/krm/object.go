// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"encoding/json"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/fastcodec"
	"github.com/llamastack/llsd/internal/render"
)

// An object llsd renders goes into the ResourceList as a node tree built from its JSON, with no
// YAML text in between (fastcodec.KubeObject).

// toKubeObject returns the manifest of a rendered object (render.Manifest: no status,
// creation timestamp or empty annotations) as a KubeObject.
func toKubeObject(o render.Object) (*fn.KubeObject, error) { return ManifestObject(o) }

// ManifestObject returns an API object (any value that marshals as one: a rendered object, a
// migrated OGXServer) as a KubeObject for Git, without what belongs to the cluster.
func ManifestObject(o any) (*fn.KubeObject, error) {
	if cm, ok := o.(*corev1.ConfigMap); ok && len(cm.Data) > 0 {
		// The data (config.yaml, kilobytes) goes into nodes as it is, not through its JSON.
		rest := *cm
		rest.Data = nil
		data, err := json.Marshal(&rest)
		if err != nil {
			return nil, err
		}
		return fastcodec.KubeObjectFromJSONWithStrings(data, render.IsRuntimeField, "data", cm.Data)
	}
	data, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	return fastcodec.KubeObjectFromJSON(data, render.IsRuntimeField)
}
