// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"slices"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/llamastack/llsd/pkg/api"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
)

// praxis writes an LLSD behind the Praxis gateway (api.BehindPraxis) as praxisMode, which says
// its authentication, tenancy, disabled responses and the gateway's peer: those leave the
// OGXServer's other fields, and the gateway's selector is written only where it is not the
// successor's default.
func (m *migration) praxis(out *ogx.OGXServer) bool {
	peer, ok := api.BehindPraxis(&m.obj.Spec)
	if !ok {
		return false
	}
	mode := &ogx.PraxisModeSpec{}
	if peer.Namespace != ogx.DefaultPraxisNamespace || !slices.Equal(peer.Labels, []string{ogx.DefaultPraxisPodLabel}) {
		mode.PraxisSelector = &ogx.PraxisSelector{Namespace: peer.Namespace, PodSelector: &metav1.LabelSelector{MatchLabels: peer.MatchLabels()}}
	}
	out.Spec.PraxisMode = mode
	out.Spec.DisabledAPIs = slices.DeleteFunc(out.Spec.DisabledAPIs, func(api string) bool { return api == "responses" })
	if len(out.Spec.DisabledAPIs) == 0 {
		out.Spec.DisabledAPIs = nil
	}
	if p := out.Spec.Network.Policy; p != nil {
		gateway := podsPeer(peer)
		for i := range p.Ingress {
			p.Ingress[i].From = slices.DeleteFunc(p.Ingress[i].From, func(from networkingv1.NetworkPolicyPeer) bool {
				return equality.Semantic.DeepEqual(from, gateway)
			})
		}
		p.Ingress = slices.DeleteFunc(p.Ingress, func(r networkingv1.NetworkPolicyIngressRule) bool { return len(r.From) == 0 && len(r.Ports) == 0 })
	}
	return true
}
