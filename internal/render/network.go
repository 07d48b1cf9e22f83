// SPDX-License-Identifier: Apache-2.0

package render

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Options are the render options for objects outside the pod.
type Options struct {
	// IngressClassName is the Ingress class of exposed servers ("" = the cluster default).
	IngressClassName string `json:"ingressClassName,omitempty"`
	// IngressDomain gives exposed servers without a hostname the host <name>.<namespace>.<domain>.
	IngressDomain string `json:"ingressDomain,omitempty"`
	// IngressControllerNamespace is let through the NetworkPolicy of exposed servers
	// (default ingress-nginx).
	IngressControllerNamespace string `json:"ingressControllerNamespace,omitempty"`
	// Platform is the cluster's flavour: "" (Kubernetes) or openshift, where the pods leave
	// their user and group to the namespace's security context constraints and an exposed
	// server gets a Route.
	Platform string `json:"platform,omitempty"`
	// PodSecurity is the most privileged Pod Security Standard the pods may meet:
	// restricted (the default), baseline or privileged.
	PodSecurity string `json:"podSecurity,omitempty"`
	// ControllerNamespace is where llsd-controller runs (default llsd-system): the
	// NetworkPolicy lets it ask the server for its version and providers' health.
	ControllerNamespace string `json:"controllerNamespace,omitempty"`
	// OpenShiftAI renders the OpenShift AI and Open Data Hub conventions: the platform's
	// trusted CA bundle, and DashboardNamespace admitted by the NetworkPolicy.
	OpenShiftAI        bool   `json:"openShiftAI,omitempty"`
	DashboardNamespace string `json:"dashboardNamespace,omitempty"`
	// OptionsSource names the RenderOptions document the options came from ("RenderOptions
	// llsd (options.yaml)"), for warnings that say what an option changed; "" otherwise.
	OptionsSource string `json:"-"`
	// RequireAuthentication refuses to expose a server that authenticates nobody (a warning
	// otherwise).
	RequireAuthentication bool `json:"requireAuthentication,omitempty"`
	// OGXServer: the object is an OGXServer, whose config the pod also mounts where the
	// successor operator does (SuccessorConfigFile). Set from the decoded object, not an option.
	OGXServer bool `json:"-"`
}

const defaultControllerNamespace = "llsd-system"

// controllerPeer is llsd-controller's pod, which reads the running server's version and
// providers' health.
func controllerPeer(opts Options) networkingv1.NetworkPolicyPeer {
	peer := namespacePeer(cmp.Or(opts.ControllerNamespace, defaultControllerNamespace))
	peer.PodSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "llsd-controller"}}
	return peer
}

// PlatformOpenShift is Options.Platform for OpenShift clusters.
const PlatformOpenShift = "openshift"

// openShiftRouterPeer admits OpenShift's router, whose namespace carries this label.
var openShiftRouterPeer = networkingv1.NetworkPolicyPeer{NamespaceSelector: &metav1.LabelSelector{
	MatchLabels: map[string]string{"network.openshift.io/policy-group": "ingress"},
}}

const defaultIngressControllerNamespace = "ingress-nginx"

// ingressHost is the Ingress rule's host: expose.hostname, else <name>.<namespace>.<domain>
// with the render option's domain, else none.
func ingressHost(obj *v1alpha2.LlamaStackDistribution, opts Options) string {
	if host := obj.Spec.Networking.Expose.Hostname; host != "" {
		return host
	}
	if opts.IngressDomain != "" {
		return obj.Name + "." + obj.Namespace + "." + opts.IngressDomain // checkExpose refuses it without a namespace
	}
	return ""
}

// ingressClass is expose.className, else the render option's class ("" = the cluster default).
func ingressClass(obj *v1alpha2.LlamaStackDistribution, opts Options) string {
	if c := obj.Spec.Networking.Expose.ClassName; c != "" {
		return c
	}
	return opts.IngressClassName
}

// nginxBackendProtocol is the annotation that tells ingress-nginx to speak HTTPS to the server.
const nginxBackendProtocol = "nginx.ingress.kubernetes.io/backend-protocol"

// backendTLSAnnotation is what tells the controller of an ingress class that the server
// speaks HTTPS: ingress-nginx's backend protocol, the OpenShift router's re-encrypting route;
// nil for a class llsd does not know.
func backendTLSAnnotation(class string) map[string]string {
	switch class {
	case "nginx":
		return map[string]string{nginxBackendProtocol: "HTTPS"}
	case "openshift-default":
		return map[string]string{"route.openshift.io/termination": "reencrypt"}
	}
	return nil
}

// ingress exposes the Service (networking.expose): host from expose.hostname or the render
// option's domain, TLS with expose.tlsSecretName's certificate or else the server's when TLS is
// enabled (and the annotation that tells a known controller to speak HTTPS to the server), the
// spec's annotations.
func ingress(m meta, obj *v1alpha2.LlamaStackDistribution, opts Options) *networkingv1.Ingress {
	if !obj.Spec.ExposeEnabled() || routeEnabled(obj, opts) {
		return nil
	}
	host := ingressHost(obj, opts)
	prefix := networkingv1.PathTypePrefix
	ing := &networkingv1.Ingress{
		TypeMeta:   metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "Ingress"},
		ObjectMeta: m.object(m.names.Ingress()),
		Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{
			Host: host,
			IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{
				Paths: []networkingv1.HTTPIngressPath{{Path: "/", PathType: &prefix, Backend: networkingv1.IngressBackend{
					Service: &networkingv1.IngressServiceBackend{
						Name: m.names.Service(), Port: networkingv1.ServiceBackendPort{Name: portName(obj)},
					},
				}}},
			}},
		}}},
	}
	if class := ingressClass(obj, opts); class != "" {
		ing.Spec.IngressClassName = &class
	}
	if tls := obj.Spec.ServerTLS(); tls != nil {
		ing.Spec.TLS = []networkingv1.IngressTLS{{Hosts: []string{host}, SecretName: tls.SecretName}}
		maps.Copy(ing.Annotations, backendTLSAnnotation(ingressClass(obj, opts)))
	}
	if edge := obj.Spec.Networking.Expose.TLSSecretName; edge != "" {
		ing.Spec.TLS = []networkingv1.IngressTLS{{Hosts: []string{host}, SecretName: edge}}
	}
	maps.Copy(ing.Annotations, obj.Spec.Networking.Expose.Annotations)
	return ing
}

// networkPolicy admits traffic to the server's port only from networking.allowedFrom: its
// own namespace, the listed namespaces ("*" = all), namespaces carrying the listed label
// keys, llsd-controller, and the ingress controller when the server is exposed; with
// networking.egress it also restricts where the server connects (egressRules).
func networkPolicy(m meta, obj *v1alpha2.LlamaStackDistribution, opts Options) *networkingv1.NetworkPolicy {
	n := obj.Spec.Networking
	if n == nil || (n.AllowedFrom == nil && n.Egress == nil) {
		return nil
	}
	np := &networkingv1.NetworkPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy"},
		ObjectMeta: m.object(m.names.NetworkPolicy()),
		Spec:       networkingv1.NetworkPolicySpec{PodSelector: metav1.LabelSelector{MatchLabels: m.names.Selector()}},
	}
	if n.AllowedFrom != nil {
		tcp := corev1.ProtocolTCP
		port := intstr.FromInt32(obj.Spec.Port())
		np.Spec.PolicyTypes = append(np.Spec.PolicyTypes, networkingv1.PolicyTypeIngress)
		np.Spec.Ingress = append([]networkingv1.NetworkPolicyIngressRule{{From: ingressPeers(obj, opts), Ports: []networkingv1.NetworkPolicyPort{{Protocol: &tcp, Port: &port}}}},
			metricsIngressRule(obj)...)
	}
	if n.Egress != nil {
		np.Spec.PolicyTypes = append(np.Spec.PolicyTypes, networkingv1.PolicyTypeEgress)
		np.Spec.Egress, _ = egressRules(obj)
	}
	return np
}

// ingressPeers are who may connect to the server's port (networking.allowedFrom).
func ingressPeers(obj *v1alpha2.LlamaStackDistribution, opts Options) []networkingv1.NetworkPolicyPeer {
	n := obj.Spec.Networking
	if believesAHeader(obj) {
		// Only the proxy, and llsd-controller, which reads the server's health: not the
		// server's own namespace nor the dashboard's, whose pods could send the header too
		// (checkUpstreamHeader refuses "*" and every wider peer).
		return append(allowedPeers(n.AllowedFrom), controllerPeer(opts))
	}
	from := []networkingv1.NetworkPolicyPeer{{PodSelector: &metav1.LabelSelector{}}}
	if slices.Contains(n.AllowedFrom.Namespaces, "*") {
		return []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &metav1.LabelSelector{}}}
	}
	from = append(append(append(from, allowedPeers(n.AllowedFrom)...), controllerPeer(opts)), dashboardPeers(opts)...)
	switch {
	case routeEnabled(obj, opts):
		from = append(from, openShiftRouterPeer)
	case obj.Spec.ExposeEnabled():
		from = append(from, namespacePeer(cmp.Or(opts.IngressControllerNamespace, defaultIngressControllerNamespace)))
	}
	return from
}

// believesAHeader reports whether the server takes its callers from a header a proxy sets.
func believesAHeader(obj *v1alpha2.LlamaStackDistribution) bool {
	return obj.Spec.Authentication != nil && obj.Spec.Authentication.UpstreamHeader != nil
}

// allowedPeers are the peers networking.allowedFrom names.
func allowedPeers(a *v1alpha2.AllowedFromSpec) []networkingv1.NetworkPolicyPeer {
	from := make([]networkingv1.NetworkPolicyPeer, 0, len(a.Namespaces)+len(a.Labels)+len(a.CIDRs)+len(a.Pods))
	for _, ns := range a.Namespaces {
		from = append(from, namespacePeer(ns))
	}
	for _, label := range a.Labels {
		from = append(from, networkingv1.NetworkPolicyPeer{NamespaceSelector: namespaceLabelSelector(label)})
	}
	for _, cidr := range a.CIDRs {
		from = append(from, networkingv1.NetworkPolicyPeer{IPBlock: &networkingv1.IPBlock{CIDR: cidr}})
	}
	for _, pods := range a.Pods {
		peer := namespacePeer(pods.Namespace)
		peer.PodSelector = &metav1.LabelSelector{MatchLabels: pods.MatchLabels()}
		from = append(from, peer)
	}
	return from
}

// namespaceLabelSelector selects namespaces by an allowedFrom label: key=value (the upstream
// operator's documented form) matches that value, a bare key any value.
func namespaceLabelSelector(label string) *metav1.LabelSelector {
	if key, value, ok := strings.Cut(label, "="); ok {
		return &metav1.LabelSelector{MatchLabels: map[string]string{key: value}}
	}
	return &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: label, Operator: metav1.LabelSelectorOpExists}}}
}

func namespacePeer(ns string) networkingv1.NetworkPolicyPeer {
	return networkingv1.NetworkPolicyPeer{NamespaceSelector: &metav1.LabelSelector{
		MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns},
	}}
}

func namespaceOr(obj *v1alpha2.LlamaStackDistribution, fallback string) string {
	if obj.Namespace != "" {
		return obj.Namespace
	}
	return fallback
}
