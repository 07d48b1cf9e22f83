// SPDX-License-Identifier: Apache-2.0

// Package render turns a LlamaStackDistribution and its generated config into the
// Kubernetes objects that run it. Names and selector labels are the upstream operator's, so
// rendered objects can take over Deployments it created (selectors are immutable).
package render

import "github.com/llamastack/llsd/pkg/api/v1alpha2"

// Labels and annotations llsd writes.
const (
	LabelApp       = "app"
	LabelInstance  = "app.kubernetes.io/instance"
	LabelManagedBy = "app.kubernetes.io/managed-by"
	LabelPartOf    = "app.kubernetes.io/part-of"
	ManagedBy      = "llsd"
	AppName        = "llama-stack"
	AnnotationHash = "llamastack.io/config-hash"
	// AnnotationGeneratedFrom names, on every object llsd renders, the LlamaStackDistribution
	// it was rendered from: a new render of it replaces the object.
	AnnotationGeneratedFrom = "llamastack.io/generated-from"
	ContainerName           = "llama-stack"
	PortName                = "http"
)

// Names are the object names of one LlamaStackDistribution.
type Names struct{ cr string }

// NamesFor returns the names of obj's objects.
func NamesFor(obj *v1alpha2.LlamaStackDistribution) Names { return Names{cr: obj.Name} }

func (n Names) Deployment() string     { return n.cr }
func (n Names) Service() string        { return n.cr + "-service" }
func (n Names) ServiceAccount() string { return n.cr + "-sa" }
func (n Names) PVC() string            { return n.cr + "-pvc" }
func (n Names) ConfigMap(hash string) string {
	return n.cr + "-config-" + hash[:10]
}

// selector selects the pods of one LlamaStackDistribution.
func (n Names) selector() map[string]string {
	return map[string]string{LabelApp: AppName, LabelInstance: n.cr}
}

// labels go on every rendered object.
func (n Names) labels() map[string]string {
	return map[string]string{LabelInstance: n.cr, LabelManagedBy: ManagedBy, LabelPartOf: AppName}
}

// podLabels are the selector plus the common labels.
func (n Names) podLabels() map[string]string {
	l := n.labels()
	for k, v := range n.selector() {
		l[k] = v
	}
	return l
}

func (n Names) HPA() string           { return n.cr + "-hpa" }
func (n Names) PDB() string           { return n.cr + "-pdb" }
func (n Names) Ingress() string       { return n.cr + "-ingress" }
func (n Names) NetworkPolicy() string { return n.cr + "-network-policy" }
