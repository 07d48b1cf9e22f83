// SPDX-License-Identifier: Apache-2.0

// Package migrate writes a LlamaStackDistribution as the successor operator's OGXServer, and an
// OGXServer as a LlamaStackDistribution v1alpha2. An LLSD is rendered first: its providers are
// written as the config its render generates, so the OGXServer renders the same config; the
// image it ran stays pinned (an OGXServer's distribution names stand for OGX 1.x); what the
// OGXServer API cannot say is a warning naming the field; the adoption annotations let the
// successor take over the LLSD's PVC, Service and Ingress.
package migrate

import (
	"cmp"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// ToOGXServer writes obj, which rendered as res, as an OGXServer.
func ToOGXServer(obj *v1alpha2.LlamaStackDistribution, res *pipeline.Result) (*ogx.OGXServer, []config.Warning) {
	m := &migration{obj: obj, res: res, env: containerEnv(res)}
	s := &obj.Spec
	out := &ogx.OGXServer{
		TypeMeta:   metav1.TypeMeta{APIVersion: ogx.GroupVersion.String(), Kind: ogx.Kind},
		ObjectMeta: metav1.ObjectMeta{Name: obj.Name, Namespace: obj.Namespace, Labels: obj.Labels, Annotations: userAnnotations(obj)},
		Spec: ogx.OGXServerSpec{
			Distribution: m.distribution(),
			Providers:    m.providers(),
			Resources:    m.resources(),
			Storage:      m.storage(),
			DisabledAPIs: m.disabled(),
			Network:      m.network(),
			TLS:          m.clientTLS(),
			Workload:     m.workload(),
			Monitoring:   m.monitoring(),
		},
	}
	if b := s.Distribution.BaseConfig; b != nil {
		out.Spec.BaseConfig = &ogx.ConfigMapKeyRef{Name: b.ConfigMapName, Key: b.ConfigKey()}
	}
	if o := s.OverrideConfig; o != nil {
		out.Spec.OverrideConfig = &ogx.ConfigMapKeyRef{Name: o.ConfigMapName, Key: cmp.Or(o.Key, runKey(deploymentOf(res)), o.ConfigKey())}
	}
	m.behindPraxis = m.praxis(out)
	m.unmapped()
	m.modelAccess()
	m.defaultedResources()
	m.adopt(out)
	return out, m.warnings
}

// rendered is the spec as rendered: with the endpoints and models llsd derived from the
// InferenceServices the providers name, which an OGXServer cannot name.
func (m *migration) rendered() *v1alpha2.LlamaStackDistributionSpec {
	if m.res.Derived != nil {
		return &m.res.Derived.Spec
	}
	return &m.res.LLSD.Spec
}

// modelAccess warns that the token llsd rendered for token-protected KServe models (its
// Secret, Role and RoleBinding) and the service CA are not the successor's to write.
func (m *migration) modelAccess() {
	a := m.res.ModelAccess
	var lost, keep []string
	if len(a.Models) > 0 {
		names := api.NamesOf(m.obj.Name)
		lost = append(lost, fmt.Sprintf("the token llsd rendered for them (Secret %s, Role and RoleBinding %s)", names.ModelToken(), names.ModelAccess()))
		keep = append(keep, "keep those objects")
	}
	if a.ServiceCA {
		lost = append(lost, "the mount of OpenShift's service CA that tls_verify names")
		keep = append(keep, "mount the openshift-service-ca.crt ConfigMap at "+config.ServiceCADir+" in workload.overrides")
	}
	if len(lost) > 0 {
		m.warn(specPath.Child("providers", "inference"), "the OGXServer calls the KServe models llsd derived its providers from "+
			"(their base_url is in the providers' settings), but the successor writes neither %s: %s",
			strings.Join(lost, " nor "), strings.Join(keep, ", and "))
	}
}

// defaultedResources warns where the successor sets requests the LLSD did not: a core per
// worker and 1Gi, which the scheduler then reserves.
func (m *migration) defaultedResources() {
	var requests corev1.ResourceList
	if w := m.obj.Spec.Workload; w != nil {
		requests = w.Resources.Requests
	}
	var missing []string
	for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
		if q, ok := requests[name]; !ok || q.IsZero() {
			missing = append(missing, string(name))
		}
	}
	if len(missing) > 0 {
		m.warn(specPath.Child("workload", "resources", "requests"), "the successor requests %s where none is set (a core per worker, 1Gi): "+
			"set workload.resources.requests to what the server needs", strings.Join(missing, " and "))
	}
}

// migration is the state of one LLSD's migration.
type migration struct {
	obj      *v1alpha2.LlamaStackDistribution
	res      *pipeline.Result
	env      map[string]*corev1.EnvVarSource // the server container's variables from Secrets
	warnings []config.Warning
	// behindPraxis: the LLSD is the one praxisMode converts to, and is written as praxisMode.
	behindPraxis bool
}

func (m *migration) warn(path *field.Path, format string, args ...any) {
	m.warnings = append(m.warnings, config.Warning{Field: path.String(), Message: fmt.Sprintf(format, args...)})
}

// adopt lets the successor take over what the LLSD's operator (or llsd) created: its Service
// and Ingress always, its PVC when it has one.
func (m *migration) adopt(out *ogx.OGXServer) {
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	out.Annotations[ogx.AdoptNetworking] = m.obj.Name
	if w := m.obj.Spec.Workload; w != nil && w.Storage != nil {
		out.Annotations[ogx.AdoptStorage] = m.obj.Name
	}
}

// userAnnotations are the LLSD's annotations but llsd's receipt and the conversion's.
func userAnnotations(obj *v1alpha2.LlamaStackDistribution) map[string]string {
	out := map[string]string{}
	for k, v := range obj.Annotations {
		if !isLLSDAnnotation(k) {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// containerEnv are the server container's variables that come from somewhere (Secrets), by name.
func containerEnv(res *pipeline.Result) map[string]*corev1.EnvVarSource {
	out := map[string]*corev1.EnvVarSource{}
	if dep := deploymentOf(res); dep != nil {
		for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
			if e.ValueFrom != nil {
				out[e.Name] = e.ValueFrom
			}
		}
	}
	return out
}
