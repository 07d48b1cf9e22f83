// SPDX-License-Identifier: Apache-2.0

package render

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/llamastack/llsd/internal/config"
)

// ModelAccess is what the server needs to call models that KServe serves behind OpenShift
// AI's token check: a token of its service account, allowed to get the InferenceServices or
// LLMInferenceServices (the SubjectAccessReview kube-rbac-proxy, or the gateway's AuthPolicy,
// makes), and OpenShift's service CA, which signs the proxies' and llm-d workloads'
// certificates.
type ModelAccess struct {
	// Models are the token-protected models: namespace -> resource -> names.
	Models map[string]map[string][]string
	// ServiceCA mounts the service CA at config.ServiceCADir.
	ServiceCA bool
}

// Grant lets the server's service account get namespace/name of resource (of
// serving.kserve.io: inferenceservices or llminferenceservices).
func (a *ModelAccess) Grant(namespace, resource, name string) {
	if a.Models == nil {
		a.Models = map[string]map[string][]string{}
	}
	if a.Models[namespace] == nil {
		a.Models[namespace] = map[string][]string{}
	}
	if !slices.Contains(a.Models[namespace][resource], name) {
		a.Models[namespace][resource] = append(a.Models[namespace][resource], name)
	}
}

// modelAccessObjects are the token Secret, and per namespace the Role and RoleBinding, of the
// service account the pod runs as. The Secret holds no value: the cluster's token controller
// writes the token into it.
func modelAccessObjects(m meta, a ModelAccess, serviceAccount string) []Object {
	if len(a.Models) == 0 {
		return nil
	}
	secret := &corev1.Secret{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"}, ObjectMeta: m.object(m.names.ModelToken()),
		Type: corev1.SecretTypeServiceAccountToken}
	secret.Annotations[corev1.ServiceAccountNameKey] = serviceAccount
	objects := []Object{secret}
	for _, ns := range slices.Sorted(maps.Keys(a.Models)) {
		meta := m.object(m.names.ModelAccess())
		meta.Namespace = ns
		var rules []rbacv1.PolicyRule
		for _, resource := range slices.Sorted(maps.Keys(a.Models[ns])) {
			rules = append(rules, rbacv1.PolicyRule{APIGroups: []string{"serving.kserve.io"}, Resources: []string{resource},
				ResourceNames: slices.Sorted(slices.Values(a.Models[ns][resource])), Verbs: []string{"get"}})
		}
		objects = append(objects, &rbacv1.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"}, ObjectMeta: meta,
			Rules: rules},
			&rbacv1.RoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"}, ObjectMeta: meta,
				RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "Role", Name: m.names.ModelAccess()},
				Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: serviceAccount, Namespace: m.namespace}}})
	}
	return objects
}

// serviceCAVolume is OpenShift's service CA, from the ConfigMap it publishes in every namespace.
func serviceCAVolume() corev1.Volume {
	return corev1.Volume{Name: volumeServiceCA, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: serviceCAConfigMap},
		Items:                []corev1.KeyToPath{{Key: "service-ca.crt", Path: "service-ca.crt"}},
	}}}
}

func serviceCAMount() corev1.VolumeMount {
	return corev1.VolumeMount{Name: volumeServiceCA, MountPath: config.ServiceCADir, ReadOnly: true}
}

const (
	volumeServiceCA = "service-ca"
	// serviceCAConfigMap is the ConfigMap OpenShift's service CA operator fills in every namespace.
	serviceCAConfigMap = "openshift-service-ca.crt"
)
