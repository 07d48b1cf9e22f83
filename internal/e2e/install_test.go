// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/testsupport/openshift"
)

// The controller's install manifests render with kustomize in both TLS variants, and the
// controller pod is one OpenShift's restricted-v2 admits (the Pod Security Standard restricted,
// no fixed user), with a read-only root.
func TestInstallManifests(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	root := filepath.Join("..", "..", "examples", "install")
	for _, tc := range []struct {
		overlay string
		want    []string
		check   func(t *testing.T, out string, d *appsv1.Deployment)
	}{
		{overlay: "cert-manager", want: []string{"Certificate/llsd-webhook", "Issuer/llsd-selfsigned"}, check: func(t *testing.T, out string, d *appsv1.Deployment) {
			assert.Contains(t, out, "cert-manager.io/inject-ca-from: llsd-system/llsd-webhook")
			assert.Contains(t, d.Spec.Template.Spec.Volumes[len(d.Spec.Template.Spec.Volumes)-1].Secret.SecretName, "llsd-webhook-tls")
		}},
		{overlay: "self-signed", want: []string{"Role/llsd-controller-certs", "ClusterRole/llsd-controller-certs"}, check: func(t *testing.T, _ string, d *appsv1.Deployment) {
			assert.Contains(t, d.Spec.Template.Spec.Containers[0].Args, "--self-signed-certs=llsd-webhook-tls")
		}},
		{overlay: "namespaced", want: []string{"Certificate/llsd-webhook", "Role/llsd-controller"}, check: func(t *testing.T, out string, d *appsv1.Deployment) {
			assert.Contains(t, d.Spec.Template.Spec.Containers[0].Args, "--namespaces=team-a")
			objs := objects(t, []byte(out))
			assert.Equal(t, "team-a", objs["Role/llsd-controller"]["metadata"].(map[string]any)["namespace"], "the Role stays in the watched namespace")
			cluster, err := yaml.Marshal(objs["ClusterRole/llsd-controller"])
			require.NoError(t, err)
			assert.NotContains(t, string(cluster), "secrets", "no cluster-wide rule on Secrets")
		}},
	} {
		t.Run(tc.overlay, func(t *testing.T) {
			out := run(t, "", kustomize, "build", filepath.Join(root, tc.overlay))
			objs := objects(t, out)
			for _, want := range append(tc.want, "CustomResourceDefinition/llamastackdistributions.llamastack.io", "Namespace/llsd-system",
				"ServiceAccount/llsd-controller", "ClusterRole/llsd-controller", "Role/llsd-controller-leader-election",
				"Deployment/llsd-controller", "Service/llsd-webhook", "ClusterRole/llsd-metrics-reader") {
				assert.Contains(t, objs, want)
			}
			assert.NotContains(t, objs, "NetworkPolicy/llsd-controller", "the NetworkPolicy needs the cluster's pod networks: a component")
			data, err := yaml.Marshal(objs["Deployment/llsd-controller"])
			require.NoError(t, err)
			var d appsv1.Deployment
			require.NoError(t, yaml.UnmarshalStrict(data, &d))
			// restricted-v2 (and so the Pod Security Standard restricted), as the stacks for
			// OpenShift are held to; the Helm chart's pod is this one (hack/chart's TestChartPodIsTheInstallManifests)
			assert.Empty(t, openshift.RestrictedV2(d.Spec.Template), "what OpenShift's restricted-v2 refuses")
			assert.True(t, *d.Spec.Template.Spec.Containers[0].SecurityContext.ReadOnlyRootFilesystem)
			tc.check(t, string(out), &d)
		})
	}
}

// The NetworkPolicy component takes the cluster's pod network from the overlay, and without it
// kustomize build fails naming what to add: no default network (kind's would be wrong elsewhere).
func TestInstallNetworkPolicyNeedsThePodNetwork(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	root, err := filepath.Abs(filepath.Join("..", "..", "examples", "install"))
	require.NoError(t, err)
	dir := t.TempDir()
	rel, err := filepath.Rel(dir, root)
	require.NoError(t, err)
	overlay := "resources: [" + filepath.Join(rel, "self-signed") + "]\ncomponents: [" + filepath.Join(rel, "network-policy") + "]\n"
	writeFiles(t, dir, map[string]string{"kustomization.yaml": overlay})
	assert.Contains(t, runFailing(t, "", kustomize, "build", dir), "llsd-pod-networks")

	writeFiles(t, dir, map[string]string{"kustomization.yaml": overlay + `configMapGenerator:
  - name: llsd-pod-networks
    literals: [podNetwork=10.128.0.0/14]
    options: {disableNameSuffixHash: true, annotations: {config.kubernetes.io/local-config: "true"}}
`})
	objs := objects(t, run(t, "", kustomize, "build", dir))
	assert.NotContains(t, objs, "ConfigMap/llsd-pod-networks", "the overlay's ConfigMap is local")
	data, err := yaml.Marshal(objs["NetworkPolicy/llsd-controller"])
	require.NoError(t, err)
	var policy networkingv1.NetworkPolicy
	require.NoError(t, yaml.UnmarshalStrict(data, &policy))
	assert.Equal(t, []string{"10.128.0.0/14"}, policy.Spec.Ingress[0].From[0].IPBlock.Except)
	assert.Equal(t, "llsd-system", policy.Namespace)
}

// Every RBAC rule of the install manifests says why it is there: the line before each rule
// is a comment (the rules of kustomization patches too).
func TestEveryRBACRuleIsJustified(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "install", "*", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		f, err := os.Open(file)
		require.NoError(t, err)
		sc := bufio.NewScanner(f)
		previous, line, rules := "", 0, 0
		for sc.Scan() {
			line++
			text := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(text, "- apiGroups:") || strings.HasPrefix(text, "- nonResourceURLs:") {
				rules++
				assert.True(t, strings.HasPrefix(previous, "#"), "%s:%d: a rule without a comment saying why", file, line)
			}
			if text != "" {
				previous = text
			}
		}
		f.Close()
		if filepath.Base(file) == "rbac.yaml" {
			assert.Positive(t, rules, file)
		}
	}
}
