// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/pkg/api"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

var specPath = field.NewPath("spec")

// distribution keeps the image the LLSD ran: a name only when it stands for that image in an
// OGXServer too (a catalog distribution of the OGX release the successor pins), else the image.
func (m *migration) distribution() ogx.DistributionSpec {
	image := m.res.LLSD.Annotations[api.AnnotationImage]
	version := m.res.LLSD.Annotations[api.AnnotationServerVersion]
	d := m.obj.Spec.Distribution
	if d.Name != "" && version == api.OGXServerVersion { // an OGXServer's name resolves as the LLSD's did
		return ogx.DistributionSpec{Name: d.Name}
	}
	switch {
	case d.Name == api.RHDev:
		m.warn(specPath.Child("distribution", "name"), "%s runs %s (server %s): the OGXServer keeps that image, which llsd reads as the "+
			"release that ships it, since an OGXServer's %s stands for the image of the release its render names (without the render option "+
			"openshiftAI.release, %s); name %s again when you move to that release", d.Name, image, version, api.RHDev, distribution.DefaultOGXServerRelease, api.RHDev)
	case d.Name != "":
		m.warn(specPath.Child("distribution", "name"), "%s runs %s (server %s): the OGXServer keeps that image, since its distribution names "+
			"stand for OGX %s; name the distribution again when you move to OGX %s", d.Name, image, version, api.OGXServerVersion, api.OGXServerVersion)
	}
	return ogx.DistributionSpec{Image: image}
}

func (m *migration) resources() *ogx.ResourcesSpec {
	r := m.rendered().Resources
	if r == nil {
		return nil
	}
	path := specPath.Child("resources")
	out := &ogx.ResourcesSpec{}
	for i, model := range r.Models {
		entry := ogx.ModelSpec{Name: model.Name, Provider: model.Provider, ModelType: model.ModelType, Quantization: model.Quantization}
		if model.ContextLength != nil {
			entry.ContextLength = ptr.To(int(*model.ContextLength))
		}
		if model.ProviderModelID != "" || model.EmbeddingDimension != nil {
			m.warn(path.Child("models").Index(i), "an OGXServer's model has no providerModelId or embeddingDimension: they are left out")
		}
		out.Models = append(out.Models, entry)
	}
	for _, list := range []struct {
		name string
		set  bool
	}{{"shields", len(r.Shields) > 0}, {"tools", len(r.Tools) > 0}, {"mcpServers", len(r.MCPServers) > 0}} {
		if list.set { // in this order on every run
			m.warn(path.Child(list.name), "an OGXServer registers models only: %s are left out (register them with the server's API, or in a base config)", list.name)
		}
	}
	if len(out.Models) == 0 {
		return nil
	}
	return out
}

func (m *migration) storage() *ogx.StorageSpec {
	st := m.obj.Spec.Storage
	if st == nil {
		return nil
	}
	out := &ogx.StorageSpec{}
	if kv := st.KV; kv != nil {
		out.KV = &ogx.KVStorageSpec{Type: kv.Type, Endpoint: kv.Endpoint}
		if kv.Password != nil {
			out.KV.Password = &ogx.SecretKeyRef{Name: kv.Password.SecretKeyRef.Name, Key: kv.Password.SecretKeyRef.Key}
		}
	}
	if sql := st.SQL; sql != nil {
		out.SQL = &ogx.SQLStorageSpec{Type: sql.Type}
		if sql.ConnectionString != nil {
			out.SQL.ConnectionString = &ogx.SecretKeyRef{Name: sql.ConnectionString.SecretKeyRef.Name, Key: sql.ConnectionString.SecretKeyRef.Key}
		}
	}
	out.Backends, out.Stores = namedBackends(st.Backends), namedStores(st.Stores)
	return out
}

// namedBackends are the same fields in both APIs; the successor's numbers may also be strings.
func namedBackends(backends map[string]v1alpha2.StorageBackendSpec) map[string]ogx.StorageBackend {
	if len(backends) == 0 {
		return nil
	}
	out := make(map[string]ogx.StorageBackend, len(backends))
	for name, b := range backends {
		backend := ogx.StorageBackend{
			Type: b.Type, Host: b.Host, DB: b.DB, User: b.User, SSLMode: b.SSLMode, CACertPath: b.CACertPath, TableName: b.TableName,
			Port: intOrString(b.Port), PoolSize: intOrString(b.PoolSize), MaxOverflow: intOrString(b.MaxOverflow),
			CommandTimeout: intOrString(b.CommandTimeout), PoolRecycle: intOrString(b.PoolRecycle), PoolPrePing: b.PoolPrePing,
		}
		if p := b.Password; p != nil {
			backend.Password = &ogx.SecretKeyRef{Name: p.SecretKeyRef.Name, Key: p.SecretKeyRef.Key}
		}
		out[name] = backend
	}
	return out
}

func intOrString(v *int32) *intstr.IntOrString {
	if v == nil {
		return nil
	}
	return ptr.To(intstr.FromInt32(*v))
}

func namedStores(s *v1alpha2.StorageStoresSpec) *ogx.StoresSpec {
	if s == nil {
		return nil
	}
	sql := func(r *v1alpha2.SQLStoreRef) *ogx.SQLStoreMapping {
		if r == nil {
			return nil
		}
		return &ogx.SQLStoreMapping{Backend: r.Backend, TableName: r.TableName}
	}
	out := &ogx.StoresSpec{Conversations: sql(s.Conversations), Prompts: sql(s.Prompts), Connectors: sql(s.Connectors), VectorStores: sql(s.VectorStores)}
	if m := s.Metadata; m != nil {
		out.Metadata = &ogx.KVStoreMapping{Backend: m.Backend, Namespace: m.Namespace}
	}
	if i := s.Inference; i != nil {
		out.Inference = &ogx.InferenceStoreMapping{Backend: i.Backend, TableName: i.TableName, MaxWriteQueueSize: i.MaxWriteQueueSize, NumWriters: i.NumWriters}
	}
	if r := s.Responses; r != nil {
		out.Responses = &ogx.ResponsesStoreMapping{Backend: r.Backend, TableName: r.TableName, MaxWriteQueueSize: r.MaxWriteQueueSize, NumWriters: r.NumWriters}
	}
	return out
}

// disabled are the disabled APIs an OGXServer can disable; the others are warnings.
func (m *migration) disabled() []string {
	var out []string
	for i, name := range m.obj.Spec.Disabled {
		server := name.ServerName()
		if !slices.Contains(ogx.DisabledAPINames, server) {
			m.warn(specPath.Child("disabled").Index(i), "an OGXServer cannot disable %s: left out", server)
			continue
		}
		out = append(out, server)
	}
	return out
}

// network writes the port, the server's TLS, the Ingress and the NetworkPolicy: none when the
// LLSD had none (an OGXServer has one unless turned off).
func (m *migration) network() *ogx.NetworkSpec {
	n := m.obj.Spec.Networking
	out := &ogx.NetworkSpec{Policy: &ogx.NetworkPolicySpec{Enabled: ptr.To(false)}}
	if n == nil {
		return out
	}
	path := specPath.Child("networking")
	if n.Port != nil {
		out.Port = *n.Port
	}
	if t := m.obj.Spec.ServerTLS(); t != nil {
		out.TLS = &ogx.ServerTLSSpec{SecretName: t.SecretName}
		if t.OtherKeys {
			m.warn(path.Child("tls"), "an OGXServer reads the server's certificate from tls.crt and tls.key: certificateKey and privateKeyKey are left out")
		}
	}
	if e := n.Expose; e != nil && m.obj.Spec.ExposeEnabled() {
		out.ExternalAccess = m.externalAccess(e, m.obj.Spec.ServerTLS())
	}
	if n.AllowedFrom != nil {
		out.Policy = m.policy(n.AllowedFrom, n.Egress)
	}
	return out
}

// externalAccess is the Ingress, when the OGXServer can say it: an OGXServer's needs a
// hostname and TLS, so without either it is left out with a warning that says what to add.
func (m *migration) externalAccess(e *v1alpha2.ExposeSpec, tls *v1alpha2.ServerTLS) *ogx.ExternalAccessSpec {
	path := specPath.Child("networking", "expose")
	out := &ogx.ExternalAccessSpec{Enabled: true, Hostname: e.Hostname}
	switch {
	case e.TLSSecretName != "":
		out.TLS = &ogx.ServerTLSSpec{SecretName: e.TLSSecretName}
	case tls != nil:
		out.TLS = &ogx.ServerTLSSpec{SecretName: tls.SecretName}
	}
	if e.ClassName != "" || len(e.Annotations) > 0 || e.Route != nil {
		m.warn(path, "an OGXServer's Ingress has no class, annotations or Route: left out")
	}
	if out.Hostname == "" || out.TLS == nil {
		m.warn(path, "an OGXServer's external access needs a hostname (the render option's domain does not reach it) and TLS: "+
			"left out; set externalAccess {enabled: true, hostname, tls: {secretName: <the Secret of the hostname's certificate>}}")
		return nil
	}
	return out
}

// policy writes who may connect as ingress rules (by namespace name, label, or network) and
// where the server may go as egress rules; Prometheus's namespaces get a rule for the metrics
// port.
func (m *migration) policy(a *v1alpha2.AllowedFromSpec, egress *v1alpha2.EgressSpec) *ogx.NetworkPolicySpec {
	rule := networkingv1.NetworkPolicyIngressRule{}
	for _, ns := range a.Namespaces {
		rule.From = append(rule.From, namespacePeer(ns))
	}
	for _, label := range a.Labels {
		sel := &metav1.LabelSelector{}
		if k, v, ok := strings.Cut(label, "="); ok {
			sel.MatchLabels = map[string]string{k: v}
		} else {
			sel.MatchExpressions = []metav1.LabelSelectorRequirement{{Key: label, Operator: metav1.LabelSelectorOpExists}}
		}
		rule.From = append(rule.From, networkingv1.NetworkPolicyPeer{NamespaceSelector: sel})
	}
	for _, cidr := range a.CIDRs {
		rule.From = append(rule.From, networkingv1.NetworkPolicyPeer{IPBlock: &networkingv1.IPBlock{CIDR: cidr}})
	}
	for _, pods := range a.Pods {
		rule.From = append(rule.From, podsPeer(pods))
	}
	out := &ogx.NetworkPolicySpec{}
	if len(rule.From) > 0 {
		out.Ingress = append(out.Ingress, rule)
	}
	if mon := m.obj.Spec.Monitoring; mon != nil && len(mon.ScraperNamespaces) > 0 {
		port := intstr.FromInt32(ptr.Deref(mon.Port, ogx.DefaultMetricsPort))
		scrapers := networkingv1.NetworkPolicyIngressRule{Ports: []networkingv1.NetworkPolicyPort{{Port: &port}}}
		for _, ns := range mon.ScraperNamespaces {
			scrapers.From = append(scrapers.From, namespacePeer(ns))
		}
		out.Ingress = append(out.Ingress, scrapers)
	}
	if egress != nil {
		// The rules the LLSD's render wrote (DNS, the spec's endpoints, its networks): an
		// OGXServer without egress rules would let the server go anywhere.
		if np := networkPolicyOf(m.res); np != nil {
			out.Egress = np.Spec.Egress
		}
	}
	return out
}

// namespacePeer admits a namespace by name, or every namespace for "*".
// podsPeer admits the pods of a namespace by their labels.
func podsPeer(p v1alpha2.PodsPeer) networkingv1.NetworkPolicyPeer {
	peer := namespacePeer(p.Namespace)
	peer.PodSelector = &metav1.LabelSelector{MatchLabels: p.MatchLabels()}
	return peer
}

func namespacePeer(ns string) networkingv1.NetworkPolicyPeer {
	if ns == "*" {
		return networkingv1.NetworkPolicyPeer{NamespaceSelector: &metav1.LabelSelector{}}
	}
	return networkingv1.NetworkPolicyPeer{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: ns}}}
}

// clientTLS writes the CA bundles the server trusts, one certificate key each.
func (m *migration) clientTLS() *ogx.ClientTLSSpec {
	if m.obj.Spec.ClusterTrustedCAs() {
		m.warn(specPath.Child("networking", "tls", "clusterTrustedCAs"), "an OGXServer does not ask OpenShift for the cluster's trusted CAs: "+
			"list a ConfigMap labelled config.openshift.io/inject-trusted-cabundle=true in tls.trust.caCertificates")
	}
	out := &ogx.ClientTLSSpec{Trust: &ogx.TrustSpec{}}
	for _, ref := range m.obj.Spec.CABundleRefs() {
		if ns := ref.ConfigMapNamespace; ns != "" && ns != m.obj.Namespace {
			m.warn(ref.Path, "an OGXServer reads CA bundles of its own namespace only: copy %s/%s there", ns, ref.ConfigMapName)
		}
		for _, key := range ref.Keys() {
			out.Trust.CACertificates = append(out.Trust.CACertificates, ogx.ConfigMapKeyRef{Name: ref.ConfigMapName, Key: key})
		}
	}
	if len(out.Trust.CACertificates) == 0 {
		return nil
	}
	return out
}

// workload writes the Deployment's settings; the pod settings an OGXServer has no field for
// are warnings. The resources are the container's as rendered, so that the successor's
// defaults (a core and 1Gi) apply only where the LLSD set nothing either.
func (m *migration) workload() *ogx.WorkloadSpec {
	w := m.obj.Spec.Workload
	if w == nil {
		return nil
	}
	path := specPath.Child("workload")
	out := &ogx.WorkloadSpec{Replicas: w.Replicas, Workers: w.Workers, TopologySpreadConstraints: w.TopologySpreadConstraints}
	if len(w.Resources.Requests) > 0 || len(w.Resources.Limits) > 0 {
		out.Resources = w.Resources.DeepCopy()
	}
	if a := w.Autoscaling; a != nil {
		out.Autoscaling = &ogx.AutoscalingSpec{MinReplicas: a.MinReplicas, MaxReplicas: a.MaxReplicas,
			TargetCPUUtilizationPercentage: a.TargetCPUUtilizationPercentage, TargetMemoryUtilizationPercentage: a.TargetMemoryUtilizationPercentage}
	}
	if st := w.Storage; st != nil {
		out.Storage = &ogx.PVCStorageSpec{Size: st.Size, MountPath: m.mountPath()}
		if st.StorageClassName != nil || len(st.AccessModes) > 0 {
			m.warn(path.Child("storage"), "an OGXServer's PVC has no storageClassName or accessModes (ReadWriteOnce, the default class): left out")
		}
	}
	if p := w.PodDisruptionBudget; p != nil {
		out.PodDisruptionBudget = &ogx.PodDisruptionBudgetSpec{MinAvailable: p.MinAvailable, MaxUnavailable: p.MaxUnavailable}
	}
	if o := w.Overrides; o != nil {
		out.Overrides = &ogx.WorkloadOverrides{ServiceAccountName: o.ServiceAccountName, Env: o.Env, Command: o.Command, Args: o.Args,
			Volumes: o.Volumes, VolumeMounts: o.VolumeMounts}
		if o.TerminationGracePeriodSeconds != nil {
			m.warn(path.Child("overrides", "terminationGracePeriodSeconds"), "an OGXServer has no termination grace period: left out")
		}
	}
	if p := w.Pod; p != nil {
		for _, claim := range p.ResourceClaims {
			c := corev1.PodResourceClaim{Name: claim.Name}
			if claim.ResourceClaimName != "" {
				c.ResourceClaimName = ptr.To(claim.ResourceClaimName)
			}
			if claim.ResourceClaimTemplateName != "" {
				c.ResourceClaimTemplateName = ptr.To(claim.ResourceClaimTemplateName)
			}
			out.ResourceClaims = append(out.ResourceClaims, c)
		}
		rest := *p.DeepCopy()
		rest.ResourceClaims = nil
		if !isZero(rest) {
			m.warn(path.Child("pod"), "an OGXServer sets no pod labels, annotations, scheduling, pull secrets or service account token: left out")
		}
	}
	return out
}

// mountPath is where the LLSD's render mounted its PersistentVolumeClaim (the server
// version's state directory when the LLSD named none).
func (m *migration) mountPath() string {
	dep := deploymentOf(m.res)
	if dep == nil {
		return ogx.DefaultMountPath
	}
	for _, v := range dep.Spec.Template.Spec.Volumes {
		if v.PersistentVolumeClaim == nil {
			continue
		}
		for _, mount := range dep.Spec.Template.Spec.Containers[0].VolumeMounts {
			if mount.Name == v.Name {
				return mount.MountPath
			}
		}
	}
	return ogx.DefaultMountPath
}

// monitoring is off when the LLSD had none (an OGXServer's is on unless turned off).
func (m *migration) monitoring() *ogx.MonitoringSpec {
	mon := m.obj.Spec.Monitoring
	if mon == nil {
		return &ogx.MonitoringSpec{Enabled: ptr.To(false)}
	}
	if !mon.Alerts || (mon.ServiceMonitor != nil && !*mon.ServiceMonitor) {
		m.warn(specPath.Child("monitoring"), "an OGXServer's monitoring always writes a ServiceMonitor and a PrometheusRule")
	}
	return &ogx.MonitoringSpec{Enabled: ptr.To(true), MetricsPort: mon.Port}
}

// unmapped warns about the fields an OGXServer has nothing for.
func (m *migration) unmapped() {
	s := &m.obj.Spec
	if s.Telemetry != nil {
		m.warn(specPath.Child("telemetry"), "an OGXServer exports no traces: left out (the server's OTEL_* variables in workload.overrides.env do)")
	}
	if s.ExternalProviders != nil {
		m.warn(specPath.Child("externalProviders"), "an OGXServer installs no provider packages: build an image with them and set distribution.image")
	}
	if s.VectorStores != nil {
		m.warn(specPath.Child("vectorStores"), "an OGXServer writes vector store defaults only through its responses provider (inline builtin vectorStoresConfig): left out")
	}
	if s.Authentication != nil && !m.behindPraxis { // praxisMode says it
		m.warn(specPath.Child("authentication"), "an OGXServer has no field for authentication, so the server it renders answers every "+
			"caller: left out; to keep it, run a config of your own with server.auth (the server.auth block of the config llsd render "+
			"writes for this object) through the OGXServer's overrideConfig, or keep the LlamaStackDistribution")
	}
	if s.Networking != nil && s.Networking.Egress != nil && s.Networking.AllowedFrom == nil {
		m.warn(specPath.Child("networking", "egress"), "an OGXServer restricts egress only with its NetworkPolicy on: left out")
	}
}

func isZero[T any](v T) bool {
	var zero T
	return equalJSON(v, zero)
}
