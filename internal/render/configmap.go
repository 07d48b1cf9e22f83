// SPDX-License-Identifier: Apache-2.0

package render

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Keys of the generated ConfigMap.
const (
	ConfigKey   = "config.yaml"
	LauncherKey = "launcher.py"
)

// configMap is the generated config as an immutable ConfigMap named after its content: a new
// config is a new ConfigMap, which rolls the pods; old pods keep their config until they go
// (Argo CD prunes the old one last).
func configMap(m meta, res *config.Result) (*corev1.ConfigMap, string) {
	data := map[string]string{ConfigKey: string(res.Config)}
	if res.Launcher != nil {
		data[LauncherKey] = string(res.Launcher)
	}
	hash := ConfigMapDataHash(data)
	immutable := true
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: m.object(m.names.ConfigMap(hash)),
		Immutable:  &immutable,
		Data:       data,
	}
	cm.Annotations["argocd.argoproj.io/sync-options"] = "PruneLast=true"
	return cm, hash
}

// injectTrustedCABundle is the label OpenShift's cluster network operator looks for: it fills
// the ConfigMap's ca-bundle.crt with the CAs the cluster trusts, and keeps it current.
const injectTrustedCABundle = "config.openshift.io/inject-trusted-cabundle"

// trustedCAConfigMap is the ConfigMap the cluster fills with its trusted CAs
// (networking.tls.clusterTrustedCAs). It has no data of its own: the cluster's are not drift
// for a GitOps tool that applies only the fields it manages, and it is not immutable.
func trustedCAConfigMap(m meta, obj *v1alpha2.LlamaStackDistribution) *corev1.ConfigMap {
	if tls := obj.Spec.Networking.GetTLS(); tls == nil || !tls.ClusterTrustedCAs {
		return nil
	}
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: m.object(m.names.TrustedCA()),
	}
	cm.Labels[injectTrustedCABundle] = "true"
	return cm
}
