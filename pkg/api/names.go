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

// ModelToken is the service account token Secret the server calls token-protected
// InferenceServices with; ModelAccess the Role (and RoleBinding) that lets it get them.
func (n Names) ModelToken() string  { return n.llsd + "-model-token" }
func (n Names) ModelAccess() string { return n.llsd + "-model-access" }

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
	k, ok := generatedKinds[kind]
	return ok && k.group == group && k.named(n, name) // a Knative Service is none of llsd's
}

// generatedKinds are the kinds a render writes, in one place: each kind's API group, and
// whether a name is the one a render gives it.
var generatedKinds = map[string]struct {
	group string
	named func(n Names, name string) bool
}{
	"ConfigMap": {"", func(n Names, name string) bool {
		hash, ok := strings.CutPrefix(name, n.llsd+"-config-")
		return ok && len(hash) == 10 && strings.Trim(hash, "0123456789abcdef") == "" || name == n.TrustedCA()
	}},
	"ServiceAccount":          {"", nameOf(Names.ServiceAccount)},
	"PersistentVolumeClaim":   {"", nameOf(Names.PVC)},
	"Service":                 {"", nameOf(Names.Service)},
	"Deployment":              {"apps", nameOf(Names.Deployment)},
	"Ingress":                 {"networking.k8s.io", nameOf(Names.Ingress)},
	"NetworkPolicy":           {"networking.k8s.io", nameOf(Names.NetworkPolicy)},
	"Route":                   {"route.openshift.io", nameOf(Names.Route)},
	"ServiceMonitor":          {"monitoring.coreos.com", nameOf(Names.ServiceMonitor)},
	"PrometheusRule":          {"monitoring.coreos.com", nameOf(Names.PrometheusRule)},
	"HorizontalPodAutoscaler": {"autoscaling", nameOf(Names.HPA)},
	"PodDisruptionBudget":     {"policy", nameOf(Names.PDB)},
	"Secret":                  {"", nameOf(Names.ModelToken)},
	"Role":                    {"rbac.authorization.k8s.io", nameOf(Names.ModelAccess)},
	"RoleBinding":             {"rbac.authorization.k8s.io", nameOf(Names.ModelAccess)},
}

// nameOf is whether a name is the one names gives a kind.
func nameOf(names func(Names) string) func(Names, string) bool {
	return func(n Names, name string) bool { return name == names(n) }
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
