// SPDX-License-Identifier: Apache-2.0

package render

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// service exposes the server inside the cluster on its port, named http (https with TLS).
func service(m meta, obj *v1alpha2.LlamaStackDistribution) *corev1.Service {
	port := obj.Spec.Port()
	svc := &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: m.object(m.names.Service()),
		Spec: corev1.ServiceSpec{
			Type:     corev1.ServiceTypeClusterIP,
			Selector: m.names.Selector(),
			Ports: []corev1.ServicePort{{
				Name: portName(obj), Port: port, TargetPort: intstr.FromString(api.PortName), Protocol: corev1.ProtocolTCP,
				AppProtocol: appProtocol(obj),
			}},
		},
	}
	if monitoringEnabled(obj) {
		svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: metricsPortName, Port: metricsPort(obj),
			TargetPort: intstr.FromString(metricsPortName), Protocol: corev1.ProtocolTCP, AppProtocol: ptr.To("http")})
	}
	return svc
}

func tlsEnabled(obj *v1alpha2.LlamaStackDistribution) bool {
	return obj.Spec.ServerTLS() != nil
}

func portName(obj *v1alpha2.LlamaStackDistribution) string {
	if tlsEnabled(obj) {
		return "https"
	}
	return api.PortName
}

// appProtocol is the port's protocol, which is also its name (http or https).
func appProtocol(obj *v1alpha2.LlamaStackDistribution) *string {
	p := portName(obj)
	return &p
}

// serviceAccount is <cr>-sa, unless the spec names its own account.
func serviceAccount(m meta, obj *v1alpha2.LlamaStackDistribution) *corev1.ServiceAccount {
	if o := overrides(obj); o != nil && o.ServiceAccountName != "" {
		return nil
	}
	automount := false
	return &corev1.ServiceAccount{
		TypeMeta:                     metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
		ObjectMeta:                   m.object(m.names.ServiceAccount()),
		AutomountServiceAccountToken: &automount,
	}
}

func overrides(obj *v1alpha2.LlamaStackDistribution) *v1alpha2.WorkloadOverrides {
	if obj.Spec.Workload == nil {
		return nil
	}
	return obj.Spec.Workload.Overrides
}
