// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/render"
)

// The server calls token-protected InferenceServices and LLMInferenceServices as its own
// service account: a token Secret the cluster fills (no value in the output), a Role that may
// get exactly those models in their namespace, bound to the account the pod runs as; and the service
// CA mounted where the provider's tls_verify points.
func TestModelAccessIsTheLeastTheProxyChecks(t *testing.T) {
	for _, tc := range []struct {
		reason, spec, account string
	}{
		{reason: "llsd's service account", spec: "  distribution: {name: starter}\n", account: "chat-sa"},
		{reason: "the user's service account", spec: "  distribution: {name: starter}\n  workload: {overrides: {serviceAccountName: models-reader}}\n",
			account: "models-reader"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			in, errs := specInput(t, "chat", tc.spec)
			require.Empty(t, errs)
			in.ModelAccess.Grant("ai", "inferenceservices", "granite")
			in.ModelAccess.Grant("models", "inferenceservices", "llama")
			in.ModelAccess.Grant("ai", "inferenceservices", "granite") // twice: once
			in.ModelAccess.Grant("ai", "llminferenceservices", "qwen")
			in.ModelAccess.ServiceCA = true
			out, errs := render.Render(in)
			require.Empty(t, errs)
			var secrets []*corev1.Secret
			roles := map[string]*rbacv1.Role{}
			bindings := map[string]*rbacv1.RoleBinding{}
			for _, o := range out.Objects {
				switch o := o.(type) {
				case *corev1.Secret:
					secrets = append(secrets, o)
				case *rbacv1.Role:
					roles[o.Namespace] = o
				case *rbacv1.RoleBinding:
					bindings[o.Namespace] = o
				}
			}
			require.Len(t, secrets, 1)
			assert.Equal(t, corev1.SecretTypeServiceAccountToken, secrets[0].Type)
			assert.Equal(t, tc.account, secrets[0].Annotations[corev1.ServiceAccountNameKey])
			assert.Empty(t, secrets[0].Data, "the cluster writes the token")
			require.Len(t, roles, 2)
			assert.Equal(t, []rbacv1.PolicyRule{
				{APIGroups: []string{"serving.kserve.io"}, Resources: []string{"inferenceservices"}, ResourceNames: []string{"granite"}, Verbs: []string{"get"}},
				{APIGroups: []string{"serving.kserve.io"}, Resources: []string{"llminferenceservices"}, ResourceNames: []string{"qwen"}, Verbs: []string{"get"}},
			}, roles["ai"].Rules, "exactly those models, each of its kind")
			assert.Equal(t, []string{"llama"}, roles["models"].Rules[0].ResourceNames)
			for ns, b := range bindings {
				assert.Equal(t, []rbacv1.Subject{{Kind: "ServiceAccount", Name: tc.account, Namespace: "ai"}}, b.Subjects, ns)
				assert.Equal(t, roles[ns].Name, b.RoleRef.Name)
			}
			pod := deploymentOf(t, out).Spec.Template.Spec
			assert.Contains(t, pod.Containers[0].VolumeMounts, corev1.VolumeMount{Name: "service-ca", MountPath: config.ServiceCADir, ReadOnly: true})
		})
	}
}

// Without token-protected InferenceServices, nothing of it is rendered.
func TestNoModelAccessWithoutProtectedModels(t *testing.T) {
	out, problems := renderSpec(t, "chat", "  distribution: {name: starter}\n", nil)
	require.Empty(t, filterErrors(problems))
	for _, o := range out.Objects {
		assert.NotContains(t, []string{"Secret", "Role", "RoleBinding"}, o.GetObjectKind().GroupVersionKind().Kind)
	}
}
