// SPDX-License-Identifier: Apache-2.0

// Package chart tests the Helm chart of llsd's controller with Helm's own library: lint, render
// each variant, and install on a real API server (envtest).
package chart

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"helm.sh/helm/v4/pkg/action"
	"helm.sh/helm/v4/pkg/chart/common"
	"helm.sh/helm/v4/pkg/chart/v2/lint/support"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	"helm.sh/helm/v4/pkg/kube"
	releaseutil "helm.sh/helm/v4/pkg/release"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

var chartDir = filepath.Join("..", "..", "charts", "llsd-controller")

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// enforced are values that turn every optional part on: the NetworkPolicy with its networks.
var enforced = map[string]any{"networkPolicy": map[string]any{"enabled": true}, "podNetworks": []any{"10.128.0.0/14"}}

// with is base with the keys of more set over it (one level deep: enough for these values).
func with(base map[string]any, more map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range more {
		out[k] = v
	}
	return out
}

// The chart passes helm lint with its own values and with each variant's.
func TestLint(t *testing.T) {
	for _, certificates := range []string{"self-signed", "cert-manager"} {
		for _, values := range []map[string]any{{}, enforced} {
			result := action.NewLint().Run([]string{chartDir}, with(values, map[string]any{"webhook": map[string]any{"certificates": certificates}}))
			for _, m := range result.Messages {
				assert.Less(t, m.Severity, support.ErrorSev, "%s: %v", certificates, m)
			}
			assert.Empty(t, result.Errors, certificates)
		}
	}
}

// Each variant renders the objects of its install manifests in the release's namespace, the
// image by digest when the values give one, and the values' replicas, resources, networks,
// scheduling and labels.
func TestRenderedVariants(t *testing.T) {
	for _, tc := range []struct {
		certificates string
		want         []string
	}{
		{certificates: "self-signed", want: []string{"Role/llsd-controller-certs", "ClusterRole/llsd-controller-certs"}},
		{certificates: "cert-manager", want: []string{"Certificate/llsd-webhook", "Issuer/llsd-selfsigned"}},
	} {
		t.Run(tc.certificates, func(t *testing.T) {
			objs := render(t, with(enforced, map[string]any{"webhook": map[string]any{"certificates": tc.certificates},
				"image": map[string]any{"digest": digest}, "replicas": 3,
				"resources":        map[string]any{"limits": map[string]any{"memory": "512Mi"}},
				"imagePullSecrets": []any{map[string]any{"name": "mirror"}}, "nodeSelector": map[string]any{"pool": "system"},
				"tolerations": []any{map[string]any{"key": "dedicated", "operator": "Equal", "value": "system", "effect": "NoSchedule"}},
				"affinity": map[string]any{"podAntiAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{map[string]any{
					"weight": 1, "podAffinityTerm": map[string]any{"topologyKey": "kubernetes.io/hostname",
						"labelSelector": map[string]any{"matchLabels": map[string]any{"app.kubernetes.io/name": "llsd-controller"}}}}}}},
				"priorityClassName": "system-cluster-critical", "labels": map[string]any{"team": "platform"}}))
			for _, want := range append(tc.want, "CustomResourceDefinition/llamastackdistributions.llamastack.io", "ServiceAccount/llsd-controller",
				"ClusterRole/llsd-controller", "Deployment/llsd-controller", "Service/llsd-webhook", "NetworkPolicy/llsd-controller") {
				assert.Contains(t, objs, want)
			}
			assert.NotContains(t, objs, "Namespace/llsd-system", "helm install --create-namespace makes the namespace")
			var d appsv1.Deployment
			decode(t, objs["Deployment/llsd-controller"], &d)
			pod := d.Spec.Template.Spec
			assert.Equal(t, "team-llsd", d.Namespace)
			assert.Equal(t, int32(3), *d.Spec.Replicas)
			assert.Equal(t, "ghcr.io/llamastack/llsd-controller@"+digest, pod.Containers[0].Image)
			assert.Equal(t, "512Mi", pod.Containers[0].Resources.Limits.Memory().String())
			assert.Equal(t, []corev1.LocalObjectReference{{Name: "mirror"}}, pod.ImagePullSecrets)
			assert.Equal(t, map[string]string{"pool": "system"}, pod.NodeSelector)
			assert.Equal(t, "dedicated", pod.Tolerations[0].Key)
			assert.Equal(t, "kubernetes.io/hostname", pod.Affinity.PodAntiAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].PodAffinityTerm.TopologyKey)
			assert.Equal(t, "system-cluster-critical", pod.PriorityClassName)
			assert.Equal(t, "platform", d.Spec.Template.Labels["team"], "the pods carry the labels")
			assert.Equal(t, map[string]string{"app.kubernetes.io/name": "llsd-controller"}, d.Spec.Selector.MatchLabels, "the selector does not: it cannot change")
			for name, doc := range objs {
				var meta struct {
					Metadata metav1.ObjectMeta `json:"metadata"`
				}
				require.NoError(t, yaml.Unmarshal([]byte(doc), &meta))
				assert.Equal(t, "platform", meta.Metadata.Labels["team"], "%s carries the labels", name)
			}
			var crd apiextensionsv1.CustomResourceDefinition
			decode(t, objs["CustomResourceDefinition/llamastackdistributions.llamastack.io"], &crd)
			assert.Equal(t, "team-llsd", crd.Spec.Conversion.Webhook.ClientConfig.Service.Namespace, "the webhook is the release's")
			assert.Equal(t, "keep", crd.Annotations["helm.sh/resource-policy"], "helm uninstall would delete every LlamaStackDistribution with it")
			var policy networkingv1.NetworkPolicy
			decode(t, objs["NetworkPolicy/llsd-controller"], &policy)
			assert.Equal(t, []string{"10.128.0.0/14"}, policy.Spec.Ingress[0].From[0].IPBlock.Except)
		})
	}
}

// With its own values the chart runs the image of its appVersion (never a moving tag), and
// leaves out what needs the cluster's own facts: the NetworkPolicy without pod networks, and
// the scheduling keys.
func TestDefaults(t *testing.T) {
	chart, err := loader.Load(chartDir)
	require.NoError(t, err)
	require.Regexp(t, `^v[0-9]+\.[0-9]+\.[0-9]+$`, chart.Metadata.AppVersion, "Chart.yaml's appVersion names a release")
	objs := render(t, map[string]any{})
	assert.NotContains(t, objs, "NetworkPolicy/llsd-controller")
	var d appsv1.Deployment
	decode(t, objs["Deployment/llsd-controller"], &d)
	pod := d.Spec.Template.Spec
	assert.Equal(t, "ghcr.io/llamastack/llsd-controller:"+chart.Metadata.AppVersion, pod.Containers[0].Image)
	assert.Empty(t, pod.NodeSelector)
	assert.Empty(t, pod.Tolerations)
	assert.Nil(t, pod.Affinity)
	assert.Empty(t, pod.PriorityClassName)
	assert.Empty(t, pod.ImagePullSecrets)
}

// A misspelt key, a value outside its choices, or a NetworkPolicy without the pod networks it
// needs is an error of helm install, not a release that renders something else.
func TestValuesAreChecked(t *testing.T) {
	for _, tc := range []struct {
		reason string
		values map[string]any
		want   string
	}{
		{reason: "a misspelt choice", values: map[string]any{"webhook": map[string]any{"certificates": "certmanager"}}, want: "certificates"},
		{reason: "a misspelt key", values: map[string]any{"webhook": map[string]any{"certificate": "cert-manager"}}, want: "certificate"},
		{reason: "an unknown top-level key", values: map[string]any{"replica": 3}, want: "replica"},
		{reason: "a tag with a digest's form", values: map[string]any{"image": map[string]any{"digest": "0123"}}, want: "digest"},
		{reason: "a label llsd's selector owns", values: map[string]any{"labels": map[string]any{"app.kubernetes.io/name": "x"}}, want: "labels: app.kubernetes.io/name is the label"},
		{reason: "a NetworkPolicy without the pod networks", values: map[string]any{"networkPolicy": map[string]any{"enabled": true}},
			want: "podNetworks: the NetworkPolicy (networkPolicy.enabled) needs the cluster's pod networks"},
		{reason: "a pod network that is not one", values: with(enforced, map[string]any{"podNetworks": []any{"pods"}}), want: "podNetworks"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			chart, err := loader.Load(chartDir)
			require.NoError(t, err)
			_, err = dryRun().Run(chart, tc.values)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The chart's pod is the install manifests' pod, which TestInstallManifests holds to what
// OpenShift's restricted-v2 admits (the check the stacks llsd renders for OpenShift get): the
// values change only the image, replicas, resources, scheduling and labels, never what the SCC
// judges.
func TestChartPodIsTheInstallManifests(t *testing.T) {
	kustomize := needEnv(t, "KUSTOMIZE", "builds the pinned kustomize")
	for _, certificates := range []string{"self-signed", "cert-manager"} {
		out, err := exec.Command(kustomize, "build", filepath.Join("..", "..", "examples", "install", certificates)).Output()
		require.NoError(t, err)
		var manifests appsv1.Deployment
		for _, doc := range strings.Split(string(out), "\n---\n") {
			if strings.Contains(doc, "kind: Deployment\n") {
				decode(t, doc, &manifests)
			}
		}
		for _, values := range []map[string]any{{}, with(enforced, map[string]any{"nodeSelector": map[string]any{"pool": "system"},
			"imagePullSecrets": []any{map[string]any{"name": "mirror"}}, "priorityClassName": "high", "labels": map[string]any{"team": "platform"}})} {
			var chart appsv1.Deployment
			decode(t, render(t, with(values, map[string]any{"webhook": map[string]any{"certificates": certificates}}))["Deployment/llsd-controller"], &chart)
			got, want := chart.Spec.Template.Spec, manifests.Spec.Template.Spec
			assert.Equal(t, want.SecurityContext, got.SecurityContext, certificates)
			assert.Equal(t, want.Volumes, got.Volumes, certificates)
			assert.Equal(t, want.ServiceAccountName, got.ServiceAccountName, certificates)
			require.Len(t, got.Containers, len(want.Containers))
			for i := range want.Containers {
				assert.Equal(t, want.Containers[i].SecurityContext, got.Containers[i].SecurityContext, certificates)
				assert.Equal(t, want.Containers[i].VolumeMounts, got.Containers[i].VolumeMounts, certificates)
				assert.Equal(t, want.Containers[i].Args, got.Containers[i].Args, certificates)
			}
			assert.Empty(t, got.InitContainers)
		}
	}
}

// helm uninstall leaves the CRD and every LlamaStackDistribution; helm install of the chart
// again takes the CRD back, and helm upgrade changes it (a template, which Helm upgrades; the
// crds/ directory it would not).
func TestUninstallKeepsTheCRD(t *testing.T) {
	cluster := startCluster(t)
	chart, err := loader.Load(chartDir)
	require.NoError(t, err)
	_, err = cluster.install().Run(chart, map[string]any{"image": map[string]any{"digest": digest}})
	require.NoError(t, err)

	stack := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "llamastack.io/v1alpha2", "kind": "LlamaStackDistribution",
		"metadata": map[string]any{"name": "chat", "namespace": cluster.namespace},
		"spec":     map[string]any{"distribution": map[string]any{"name": "starter"}}}}
	require.EventuallyWithT(t, func(c *assert.CollectT) { // until the API server serves the new CRD
		assert.NoError(c, cluster.client.Create(t.Context(), stack.DeepCopy()))
	}, 30*time.Second, 100*time.Millisecond)

	uninstall := action.NewUninstall(cluster.actions)
	uninstall.WaitStrategy = kube.HookOnlyStrategy // helm's default
	_, err = uninstall.Run("llsd")
	require.NoError(t, err)
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, cluster.client.Get(t.Context(), client.ObjectKey{Name: "llamastackdistributions.llamastack.io"}, &crd), "the CRD is kept")
	assert.Nil(t, crd.DeletionTimestamp)
	kept := &unstructured.Unstructured{}
	kept.SetGroupVersionKind(stack.GroupVersionKind())
	require.NoError(t, cluster.client.Get(t.Context(), client.ObjectKey{Namespace: cluster.namespace, Name: "chat"}, kept), "the LlamaStackDistribution is kept")
	var d appsv1.Deployment
	err = cluster.client.Get(t.Context(), client.ObjectKey{Namespace: cluster.namespace, Name: "llsd-controller"}, &d)
	assert.True(t, apierrors.IsNotFound(err), "the rest of the release is gone: %v", err)

	_, err = cluster.install().Run(chart, map[string]any{"image": map[string]any{"digest": digest}})
	require.NoError(t, err, "installing again takes the kept CRD back")
	upgrade := action.NewUpgrade(cluster.actions)
	upgrade.Namespace, upgrade.WaitStrategy = cluster.namespace, kube.HookOnlyStrategy
	_, err = upgrade.Run("llsd", chart, map[string]any{"image": map[string]any{"digest": digest}, "labels": map[string]any{"team": "platform"}})
	require.NoError(t, err)
	require.NoError(t, cluster.client.Get(t.Context(), client.ObjectKey{Name: "llamastackdistributions.llamastack.io"}, &crd))
	assert.Equal(t, "platform", crd.Labels["team"], "helm upgrade changes the CRD")
}

// The self-signed variant installs through Helm's library on a real API server: every object is
// accepted and the CRD converts through the release's webhook Service.
func TestInstall(t *testing.T) {
	cluster := startCluster(t)
	chart, err := loader.Load(chartDir)
	require.NoError(t, err)
	installed, err := cluster.install().Run(chart, with(enforced, map[string]any{"image": map[string]any{"digest": digest}}))
	require.NoError(t, err)
	release, err := releaseutil.NewAccessor(installed)
	require.NoError(t, err)
	assert.Equal(t, "deployed", release.Status())

	c := cluster.client
	var d appsv1.Deployment
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Namespace: cluster.namespace, Name: "llsd-controller"}, &d))
	assert.Equal(t, "ghcr.io/llamastack/llsd-controller@"+digest, d.Spec.Template.Spec.Containers[0].Image)
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Name: "llamastackdistributions.llamastack.io"}, &crd))
	assert.Equal(t, apiextensionsv1.WebhookConverter, crd.Spec.Conversion.Strategy)
	assert.Equal(t, "llsd-webhook", crd.Spec.Conversion.Webhook.ClientConfig.Service.Name)
	var policy networkingv1.NetworkPolicy
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Namespace: cluster.namespace, Name: "llsd-controller"}, &policy), "the API server takes the NetworkPolicy")

	t.Run("the conversion webhook answers through the chart's Service, as the chart's service account", func(t *testing.T) {
		webhookAnswers(t, c, cluster.config, d, cluster.namespace)
	})
}

// cluster is a real API server (envtest) and Helm's configuration for it.
type cluster struct {
	config    *rest.Config
	client    client.Client
	actions   *action.Configuration
	namespace string
}

// install is helm install llsd -n <namespace> --create-namespace.
func (c cluster) install() *action.Install {
	install := action.NewInstall(c.actions)
	install.ReleaseName, install.Namespace, install.CreateNamespace = "llsd", c.namespace, true
	install.WaitStrategy = kube.HookOnlyStrategy // helm's default
	return install
}

func startCluster(t *testing.T) cluster {
	needEnv(t, "KUBEBUILDER_ASSETS", "installs envtest's API server")
	env := &envtest.Environment{}
	// The API server calls a webhook's Service at an address of its EndpointSlice, as the
	// aggregator does, instead of its cluster IP (nothing routes those here).
	env.ControlPlane.GetAPIServer().Configure().Set("enable-aggregator-routing", "true")
	cfg, err := env.Start()
	require.NoError(t, err)
	t.Cleanup(func() { _ = env.Stop() })
	user, err := env.AddUser(envtest.User{Name: "installer", Groups: []string{"system:masters"}}, nil)
	require.NoError(t, err)
	kubeconfig, err := user.KubeConfig()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(path, kubeconfig, 0o600))
	flags := genericclioptions.NewConfigFlags(false)
	flags.KubeConfig = &path
	namespace := "team-llsd" // not the manifests' llsd-system: the release's namespace is used throughout
	flags.Namespace = &namespace
	actions := action.NewConfiguration()
	require.NoError(t, actions.Init(flags, namespace, "secret"))

	scheme := runtime.NewScheme()
	require.NoError(t, clientgoscheme.AddToScheme(scheme))
	require.NoError(t, apiextensionsv1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	require.NoError(t, err)
	return cluster{config: cfg, client: c, actions: actions, namespace: namespace}
}

// dryRun is helm template's install: client-only, in namespace team-llsd, on Kubernetes 1.34.
func dryRun() *action.Install {
	install := action.NewInstall(action.NewConfiguration())
	install.DryRunStrategy, install.ReleaseName, install.Namespace = action.DryRunClient, "llsd", "team-llsd"
	install.KubeVersion = &common.KubeVersion{Version: "v1.34.0", Major: "1", Minor: "34"}
	return install
}

// render renders the chart as a release in namespace team-llsd, by kind/name.
func render(t *testing.T, values map[string]any) map[string]string {
	chart, err := loader.Load(chartDir)
	require.NoError(t, err)
	installed, err := dryRun().Run(chart, values)
	require.NoError(t, err)
	release, err := releaseutil.NewAccessor(installed)
	require.NoError(t, err)
	objs := map[string]string{}
	for _, doc := range strings.Split(release.Manifest(), "\n---\n") {
		var meta struct {
			Kind     string `json:"kind"`
			Metadata struct {
				Name string `json:"name"`
			} `json:"metadata"`
		}
		require.NoError(t, yaml.Unmarshal([]byte(doc), &meta))
		if meta.Kind != "" {
			objs[meta.Kind+"/"+meta.Metadata.Name] = doc
		}
	}
	return objs
}

func decode(t *testing.T, doc string, into any) {
	t.Helper()
	require.NoError(t, yaml.UnmarshalStrict([]byte(doc), into))
}

// The chart's templates are those hack/chart/gen makes from the install manifests now: an
// edit of the manifests without make generate fails here.
func TestTemplatesAreCurrent(t *testing.T) {
	kustomize := needEnv(t, "KUSTOMIZE", "builds the pinned kustomize")
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "templates"), 0o755))
	out, err := exec.Command("go", "run", "./gen", kustomize, filepath.Join("..", "..", "examples", "install"), dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, variant := range []string{"self-signed", "cert-manager"} {
		want, err := os.ReadFile(filepath.Join(chartDir, "templates", variant+".yaml"))
		require.NoError(t, err)
		got, err := os.ReadFile(filepath.Join(dir, "templates", variant+".yaml"))
		require.NoError(t, err)
		assert.Equal(t, string(got), string(want), "charts/llsd-controller/templates/%s.yaml is stale: run make generate", variant)
	}
}

// needEnv is the tool a variable make test sets names; it skips without it, and fails in CI.
func needEnv(t *testing.T, name, what string) string {
	t.Helper()
	value := os.Getenv(name)
	if value == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(name + " is not set: make test sets it")
		}
		t.Skip(name + " is not set: run make test, which " + what)
	}
	return value
}
