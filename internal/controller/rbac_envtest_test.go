// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/controller"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

const controllerNamespace = "llsd-system"

// installRBAC creates the Roles and ClusterRoles of examples/install (their bindings are to
// the ServiceAccount llsd-system/llsd-controller) and returns a config that acts as it.
func installRBAC(t *testing.T, files ...string) *rest.Config {
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: controllerNamespace}}
	if err := k8sClient.Create(ctx, ns); err != nil {
		require.True(t, client.IgnoreAlreadyExists(err) == nil, err)
	}
	for _, file := range files {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", "install", file))
		require.NoError(t, err)
		for _, doc := range bytes.Split(data, []byte("\n---")) {
			var meta metav1.TypeMeta
			require.NoError(t, yaml.Unmarshal(doc, &meta))
			var obj client.Object
			switch meta.Kind {
			case "ClusterRole":
				obj = &rbacv1.ClusterRole{}
			case "ClusterRoleBinding":
				obj = &rbacv1.ClusterRoleBinding{}
			case "Role":
				obj = &rbacv1.Role{}
			case "RoleBinding":
				obj = &rbacv1.RoleBinding{}
			default:
				continue
			}
			require.NoError(t, yaml.UnmarshalStrict(doc, obj))
			if (meta.Kind == "Role" || meta.Kind == "RoleBinding") && obj.GetNamespace() == "" {
				obj.SetNamespace(controllerNamespace) // kustomize's namespace: llsd-system
			}
			require.NoError(t, k8sClient.Create(ctx, obj), "%s %s", meta.Kind, obj.GetName())
			t.Cleanup(func() { _ = k8sClient.Delete(context.Background(), obj) })
		}
	}
	sa := rest.CopyConfig(cfg)
	sa.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:" + controllerNamespace + ":llsd-controller",
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + controllerNamespace, "system:authenticated"}}
	return sa
}

// The controller runs on exactly the RBAC of examples/install: as its ServiceAccount, with
// leader election, it writes status (all four conditions observed) and, with the
// self-signed overlay's rules, keeps its certificate and patches the CRD.
func TestInstallRBACIsEnough(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	sa := installRBAC(t, "base/rbac.yaml", "self-signed/rbac.yaml")

	// Self-signed certificates, as the ServiceAccount, into llsd's CRD; envtest's CA is put
	// back afterwards so the other tests' webhook stays trusted.
	crdScheme := runtime.NewScheme()
	require.NoError(t, apiextensionsv1.AddToScheme(crdScheme))
	admin, err := client.New(cfg, client.Options{Scheme: crdScheme})
	require.NoError(t, err)
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, admin.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &crd))
	envtestCA := crd.Spec.Conversion.Webhook.ClientConfig.CABundle
	t.Cleanup(func() {
		var now apiextensionsv1.CustomResourceDefinition
		require.NoError(t, admin.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &now))
		now.Spec.Conversion.Webhook.ClientConfig.CABundle = envtestCA
		require.NoError(t, admin.Update(ctx, &now))
	})
	require.NoError(t, controller.EnsureSelfSignedCerts(ctx, sa, controller.CertOptions{Namespace: controllerNamespace,
		SecretName: "llsd-webhook-tls", ServiceName: "llsd-webhook", CertDir: t.TempDir(), CRDName: controller.CRDName}))
	require.NoError(t, admin.Get(ctx, types.NamespacedName{Name: controller.CRDName}, &crd))
	assert.NotEqual(t, envtestCA, crd.Spec.Conversion.Webhook.ClientConfig.CABundle)

	// Status, as the ServiceAccount. The webhook is not exercised here (it needs no RBAC).
	startControllerAs(t, sa, controller.Options{LeaderElection: true, LeaderElectionNamespace: controllerNamespace})

	ns := namespace(t)
	llsd, objs := rendered(t, ns, stackYAML)
	create(t, append([]client.Object{llsd}, objs...)...)
	create(t, secret(ns, "vllm-creds", map[string]string{"token": "x"}), secret(ns, "pg", map[string]string{"url": "x"}))
	eventually(t, ns, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionTrue, v1alpha2.ReasonConfigGenerationSucceeded)
		hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionTrue, v1alpha2.ReasonAllSecretsFound)
		hasCondition(c, st, v1alpha2.ConditionDeploymentUpdated, metav1.ConditionFalse, v1alpha2.ReasonRolloutInProgress)
		hasCondition(c, st, v1alpha2.ConditionAvailable, metav1.ConditionFalse, v1alpha2.ReasonDeploymentUnavailable)
	})
	var d appsv1.Deployment
	require.NoError(t, k8sClient.Get(ctx, types.NamespacedName{Namespace: ns, Name: "chat"}, &d))
	assert.NotNil(t, d.Spec.Replicas, "the controller left the Deployment alone")
}

// The namespaced install (examples/install/namespaced) is enough for --namespaces=team-a: with
// only team-a's Role, the controller writes the status of team-a's LLSDs, and it could not
// read a Secret of any other namespace.
func TestNamespacedRBACIsEnough(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	const watched = "team-a" // the namespace of namespaced/rbac.yaml
	if err := k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: watched}}); err != nil {
		require.True(t, client.IgnoreAlreadyExists(err) == nil, err)
	}
	sa := installRBAC(t, "namespaced/rbac.yaml")

	startControllerAs(t, sa, controller.Options{Namespaces: []string{watched}})

	llsd, objs := rendered(t, watched, stackYAML)
	create(t, append([]client.Object{llsd}, objs...)...)
	create(t, secret(watched, "vllm-creds", map[string]string{"token": "x"}), secret(watched, "pg", map[string]string{"url": "x"}))
	t.Cleanup(func() {
		for _, o := range append([]client.Object{llsd}, objs...) {
			_ = k8sClient.Delete(context.Background(), o)
		}
	})
	eventually(t, watched, "chat", func(c *assert.CollectT, st v1alpha2.LlamaStackDistributionStatus) {
		hasCondition(c, st, v1alpha2.ConditionConfigGenerated, metav1.ConditionTrue, v1alpha2.ReasonConfigGenerationSucceeded)
		hasCondition(c, st, v1alpha2.ConditionSecretsResolved, metav1.ConditionTrue, v1alpha2.ReasonAllSecretsFound)
	})

	other := namespace(t)
	create(t, secret(other, "elsewhere", map[string]string{"token": "x"}))
	asSA, err := client.New(sa, client.Options{Scheme: controller.Scheme()})
	require.NoError(t, err)
	err = asSA.Get(ctx, types.NamespacedName{Namespace: other, Name: "elsewhere"}, &corev1.Secret{})
	assert.True(t, apierrors.IsForbidden(err), "a Secret outside the watched namespaces is forbidden, got %v", err)
}
