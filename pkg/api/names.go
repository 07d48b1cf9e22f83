// SPDX-License-Identifier: Apache-2.0

package api

import (
	"strings"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Labels, annotations and names of the objects a render generates. Names and selector
// labels are the upstream operator's, so rendered objects can take over Deployments it
// created (selectors are immutable).
const (
	LabelApp       = "app"
	LabelInstance  = "app.kubernetes.io/instance"
	LabelManagedBy = "app.kubernetes.io/managed-by"
	LabelPartOf    = "app.kubernetes.io/part-of"
	// ManagedBy is the value of LabelManagedBy on every generated object; the controller
	// caches only objects labelled so.
	ManagedBy = "llsd"
	AppName   = "llama-stack"
	// AnnotationGeneratedFrom names, on every generated object, the LlamaStackDistribution it
	// was rendered from: a new render of it replaces the object.
	AnnotationGeneratedFrom = "llamastack.io/generated-from"
	ContainerName           = "llama-stack"
	PortName                = "http"
)

// Names are the object names of one LlamaStackDistribution.
type Names struct{ llsd string }

// NamesOf returns the names of the objects of the LlamaStackDistribution called name.
func NamesOf(name string) Names { return Names{llsd: name} }

func (n Names) Deployment() string     { return n.llsd }
func (n Names) Service() string        { return n.llsd + "-service" }
func (n Names) ServiceAccount() string { return n.llsd + "-sa" }
func (n Names) PVC() string            { return n.llsd + "-pvc" }
func (n Names) HPA() string            { return n.llsd + "-hpa" }
func (n Names) PDB() string            { return n.llsd + "-pdb" }
func (n Names) Ingress() string        { return n.llsd + "-ingress" }
func (n Names) Route() string          { return n.llsd + "-route" }
func (n Names) NetworkPolicy() string  { return n.llsd + "-network-policy" }
func (n Names) ServiceMonitor() string { return n.llsd + "-monitor" }
func (n Names) PrometheusRule() string { return n.llsd + "-alerts" }
func (n Names) TrustedCA() string      { return n.llsd + "-trusted-ca" }

// ConfigMap is named by the config's hash: a new config is a new, immutable ConfigMap.
func (n Names) ConfigMap(hash string) string { return n.llsd + "-config-" + hash[:10] }

// Generates reports whether an object of apiVersion, kind and name is one a render of this
// LlamaStackDistribution writes (a ConfigMap of any config hash): only such an object may
// carry AnnotationGeneratedFrom with its name.
func (n Names) Generates(apiVersion, kind, name string) bool {
	group, _, versioned := strings.Cut(apiVersion, "/")
	if !versioned {
		group = "" // the core group: v1
	}
	if g, ok := generatedGroups[kind]; !ok || g != group {
		return false // a Knative Service is none of llsd's
	}
	switch kind {
	case "ConfigMap":
		hash, ok := strings.CutPrefix(name, n.llsd+"-config-")
		return ok && len(hash) == 10 && strings.Trim(hash, "0123456789abcdef") == "" || name == n.TrustedCA()
	case "ServiceAccount":
		return name == n.ServiceAccount()
	case "PersistentVolumeClaim":
		return name == n.PVC()
	case "Deployment":
		return name == n.Deployment()
	case "Service":
		return name == n.Service()
	case "Ingress":
		return name == n.Ingress()
	case "Route":
		return name == n.Route()
	case "NetworkPolicy":
		return name == n.NetworkPolicy()
	case "ServiceMonitor":
		return name == n.ServiceMonitor()
	case "PrometheusRule":
		return name == n.PrometheusRule()
	case "HorizontalPodAutoscaler":
		return name == n.HPA()
	case "PodDisruptionBudget":
		return name == n.PDB()
	}
	return false
}

// generatedGroups is the API group of each kind a render writes.
var generatedGroups = map[string]string{
	"ConfigMap": "", "ServiceAccount": "", "PersistentVolumeClaim": "", "Service": "",
	"Deployment": "apps", "Ingress": "networking.k8s.io", "NetworkPolicy": "networking.k8s.io",
	"Route": "route.openshift.io", "ServiceMonitor": "monitoring.coreos.com", "PrometheusRule": "monitoring.coreos.com",
	"HorizontalPodAutoscaler": "autoscaling", "PodDisruptionBudget": "policy",
}

// Selector selects the pods of one LlamaStackDistribution.
func (n Names) Selector() map[string]string {
	return map[string]string{LabelApp: AppName, LabelInstance: n.llsd}
}

// Labels go on every generated object.
func (n Names) Labels() map[string]string {
	return map[string]string{LabelInstance: n.llsd, LabelManagedBy: ManagedBy, LabelPartOf: AppName}
}

// PodLabels are the selector plus the common labels.
func (n Names) PodLabels() map[string]string {
	l := n.Labels()
	for k, v := range n.Selector() {
		l[k] = v
	}
	return l
}

// CABundles are the CA bundle ConfigMaps of obj's networking.tls: caBundle, caBundles, and the
// ConfigMap llsd writes for the cluster's trusted CAs (clusterTrustedCAs).
func CABundles(obj *v1alpha2.LlamaStackDistribution) []v1alpha2.CABundleRef {
	refs := obj.Spec.CABundleRefs()
	if obj.Spec.ClusterTrustedCAs() {
		refs = append(refs, v1alpha2.CABundleRef{Path: field.NewPath("spec", "networking", "tls", "clusterTrustedCAs"),
			CABundleSpec: &v1alpha2.CABundleSpec{ConfigMapName: NamesOf(obj.Name).TrustedCA()}})
	}
	return refs
}
