// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/pkg/api"
)

// The pod template carries the config's hash, so a config change rolls the pods and nothing
// else does; a ReadWriteOnce volume makes the rollout Recreate (the new pod cannot attach it
// while the old one runs); the server's TLS Secret is mounted with its keys renamed to the
// files config.yaml names.
func TestDeployment(t *testing.T) {
	plain, problems := renderSpec(t, "dep", "  distribution: {name: starter}\n", nil)
	require.Empty(t, problems)
	d := deploymentOf(t, plain)
	assert.Equal(t, plain.ConfigHash, d.Spec.Template.Annotations[api.AnnotationConfigHash])
	assert.NotEqual(t, appsv1.RecreateDeploymentStrategyType, d.Spec.Strategy.Type)

	stateful, problems := renderSpec(t, "dep", `  distribution: {name: starter}
  workload: {storage: {size: 1Gi}}
`, nil)
	require.Empty(t, problems)
	assert.Equal(t, appsv1.RecreateDeploymentStrategyType, deploymentOf(t, stateful).Spec.Strategy.Type)

	tls, problems := renderSpec(t, "dep", `  distribution: {name: starter}
  networking: {tls: {enabled: true, secretName: certs, certificateKey: fullchain.pem, privateKeyKey: privkey.pem}}
`, nil)
	require.Empty(t, problems)
	var secret *corev1.SecretVolumeSource
	for _, v := range deploymentOf(t, tls).Spec.Template.Spec.Volumes {
		if v.Secret != nil && v.Secret.SecretName == "certs" {
			secret = v.Secret
		}
	}
	require.NotNil(t, secret, "the TLS Secret is mounted")
	assert.Equal(t, []corev1.KeyToPath{{Key: "fullchain.pem", Path: "tls.crt"}, {Key: "privkey.pem", Path: "tls.key"}}, secret.Items)
	assert.NotEqual(t, plain.ConfigHash, tls.ConfigHash, "the config names the certificate: another config")
}
