// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"net"
	"net/netip"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// networking.egress: the NetworkPolicy lets the server reach DNS, the endpoints of the spec a
// rule can name, and the listed networks. A NetworkPolicy names pods, namespaces and
// networks, never host names: an endpoint in the cluster (<service>.<namespace>.svc, or a
// bare Service name of the server's namespace) admits its namespace (any port: a Service's
// port is not its pods'), a literal address its /32 or /128 and port; any other host name is
// named in a warning, as its address is not known at render time.

// egressRules are the NetworkPolicy's egress rules and the endpoints no rule can name.
func egressRules(obj *v1alpha2.LlamaStackDistribution) ([]networkingv1.NetworkPolicyEgressRule, []string) {
	udp, tcp := corev1.ProtocolUDP, corev1.ProtocolTCP
	dns := make([]networkingv1.NetworkPolicyPort, 0, 4)
	for _, port := range []int32{53, 5353} { // kube-dns, OpenShift's dns-default
		for _, proto := range []*corev1.Protocol{&udp, &tcp} {
			p := intstr.FromInt32(port)
			dns = append(dns, networkingv1.NetworkPolicyPort{Protocol: proto, Port: &p})
		}
	}
	rules := []networkingv1.NetworkPolicyEgressRule{{To: []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &metav1.LabelSelector{}}}, Ports: dns}}
	var namespaces []string
	var unnamed []string
	for _, e := range obj.Spec.Endpoints() {
		host, port := e.Host(), e.Port()
		if e.Field == kubernetesAPIServerField && config.MountsKubeCA(&obj.Spec) {
			// the in-cluster API server is no pod: its Service's address is translated to the
			// control plane's, which no namespace selector names
			unnamed = append(unnamed, "the API server the Kubernetes provider asks ("+wording.Field(e.Field)+"): its addresses are those "+
				"`kubectl get endpointslices -n default -l kubernetes.io/service-name=kubernetes` lists")
			continue
		}
		if addr, err := netip.ParseAddr(host); err == nil {
			bits := 32
			if addr.Is6() {
				bits = 128
			}
			rule := networkingv1.NetworkPolicyEgressRule{To: []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: netip.PrefixFrom(addr, bits).String()}}}}
			if port > 0 {
				p := intstr.FromInt(port)
				rule.Ports = []networkingv1.NetworkPolicyPort{{Protocol: &tcp, Port: &p}}
			}
			rules = append(rules, rule)
			continue
		}
		if ns, ok := clusterNamespace(host, namespaceOr(obj, "")); ok {
			if !slices.Contains(namespaces, ns) {
				namespaces = append(namespaces, ns)
			}
			continue
		}
		unnamed = append(unnamed, fmt.Sprintf("%s (%s)", host, wording.Field(e.Field)))
	}
	slices.Sort(namespaces)
	for _, ns := range namespaces {
		peer := networkingv1.NetworkPolicyPeer{PodSelector: &metav1.LabelSelector{}}
		if ns != obj.Namespace {
			peer = namespacePeer(ns)
		}
		rules = append(rules, networkingv1.NetworkPolicyEgressRule{To: []networkingv1.NetworkPolicyPeer{peer}})
	}
	for _, cidr := range obj.Spec.Networking.Egress.CIDRs {
		rules = append(rules, networkingv1.NetworkPolicyEgressRule{To: []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: cidr}}}})
	}
	return rules, unnamed
}

// kubernetesAPIServerField is the field of the API server the Kubernetes provider asks.
var kubernetesAPIServerField = field.NewPath("spec", "authentication", "kubernetes", "apiServerURL").String()

// clusterNamespace is the namespace of an in-cluster host: <service>.<namespace>.svc[.cluster.local],
// or a bare name (a Service of the server's namespace, own).
func clusterNamespace(host, own string) (string, bool) {
	labels := strings.Split(strings.TrimSuffix(host, "."), ".")
	switch {
	case len(labels) == 1 && own != "" && net.ParseIP(host) == nil:
		return own, true
	case len(labels) >= 3 && labels[2] == "svc" && (len(labels) == 3 || strings.Join(labels[3:], ".") == "cluster.local"):
		return labels[1], true
	}
	return "", false
}

// checkEgress says which endpoints the egress rules cannot admit, and that the database of a
// connection string in a Secret is one.
func checkEgress(in Input) []config.Warning {
	n := in.Object.Spec.Networking
	if n == nil || n.Egress == nil {
		return nil
	}
	_, unnamed := egressRules(in.Object)
	if st := in.Object.Spec.Storage; st != nil && st.SQL != nil && st.SQL.ConnectionString != nil {
		unnamed = append(unnamed, "the database of ⟦spec.storage.sql.connectionString⟧ (its address is in a Secret)")
	}
	if len(unnamed) == 0 {
		return nil
	}
	return []config.Warning{{Field: "spec.networking.egress", Message: "the NetworkPolicy lets the server reach in-cluster " +
		"services, literal addresses and cidrs, and no host name outside the cluster: " + strings.Join(unnamed, ", ") +
		": add their networks to networking.egress.cidrs (or write in-cluster services as <service>.<namespace>.svc)"}}
}
