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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/lint/support"
	appsv1 "k8s.io/api/apps/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

var chartDir = filepath.Join("..", "..", "charts", "llsd-controller")

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// The chart passes helm lint with its own values and with each variant's.
func TestLint(t *testing.T) {
	for _, certificates := range []string{"self-signed", "cert-manager"} {
		result := action.NewLint().Run([]string{chartDir}, map[string]any{"webhook": map[string]any{"certificates": certificates}})
		for _, m := range result.Messages {
			assert.Less(t, m.Severity, support.ErrorSev, "%s: %v", certificates, m)
		}
		assert.Empty(t, result.Errors, certificates)
	}
}

// Each variant renders the objects of its install manifests in the release's namespace, the
// image by digest when the values give one, and the values' replicas, resources and networks.
func TestRenderedVariants(t *testing.T) {
	for _, tc := range []struct {
		certificates string
		want         []string
	}{
		{certificates: "self-signed", want: []string{"Role/llsd-controller-certs", "ClusterRole/llsd-controller-certs"}},
		{certificates: "cert-manager", want: []string{"Certificate/llsd-webhook", "Issuer/llsd-selfsigned"}},
	} {
		t.Run(tc.certificates, func(t *testing.T) {
			objs := render(t, map[string]any{"webhook": map[string]any{"certificates": tc.certificates},
				"image": map[string]any{"digest": digest}, "replicas": 3, "podNetworks": []any{"10.128.0.0/14"},
				"resources": map[string]any{"limits": map[string]any{"memory": "512Mi"}}})
			for _, want := range append(tc.want, "CustomResourceDefinition/llamastackdistributions.llamastack.io", "ServiceAccount/llsd-controller",
				"ClusterRole/llsd-controller", "Deployment/llsd-controller", "Service/llsd-webhook", "NetworkPolicy/llsd-controller") {
				assert.Contains(t, objs, want)
			}
			assert.NotContains(t, objs, "Namespace/llsd-system", "helm install --create-namespace makes the namespace")
			var d appsv1.Deployment
			decode(t, objs["Deployment/llsd-controller"], &d)
			assert.Equal(t, "team-llsd", d.Namespace)
			assert.Equal(t, int32(3), *d.Spec.Replicas)
			assert.Equal(t, "ghcr.io/llamastack/llsd-controller@"+digest, d.Spec.Template.Spec.Containers[0].Image)
			assert.Equal(t, "512Mi", d.Spec.Template.Spec.Containers[0].Resources.Limits.Memory().String())
			var crd apiextensionsv1.CustomResourceDefinition
			decode(t, objs["CustomResourceDefinition/llamastackdistributions.llamastack.io"], &crd)
			assert.Equal(t, "team-llsd", crd.Spec.Conversion.Webhook.ClientConfig.Service.Namespace, "the webhook is the release's")
			assert.Contains(t, objs["NetworkPolicy/llsd-controller"], "10.128.0.0/14")
		})
	}
}

// The self-signed variant installs through Helm's library on a real API server: every object is
// accepted and the CRD converts through the release's webhook Service.
func TestInstall(t *testing.T) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("KUBEBUILDER_ASSETS is not set: make test sets it")
		}
		t.Skip("KUBEBUILDER_ASSETS is not set: run make test, which installs envtest's API server")
	}
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

	actions := new(action.Configuration)
	require.NoError(t, actions.Init(flags, namespace, "secret", func(string, ...any) {}))
	install := action.NewInstall(actions)
	install.ReleaseName, install.Namespace, install.CreateNamespace = "llsd", namespace, true
	chart, err := loader.Load(chartDir)
	require.NoError(t, err)
	release, err := install.Run(chart, map[string]any{"image": map[string]any{"digest": digest}})
	require.NoError(t, err)
	assert.Equal(t, "deployed", release.Info.Status.String())

	scheme := runtime.NewScheme()
	require.NoError(t, clientgoscheme.AddToScheme(scheme))
	require.NoError(t, apiextensionsv1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	require.NoError(t, err)
	var d appsv1.Deployment
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Namespace: namespace, Name: "llsd-controller"}, &d))
	assert.Equal(t, "ghcr.io/llamastack/llsd-controller@"+digest, d.Spec.Template.Spec.Containers[0].Image)
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, c.Get(t.Context(), client.ObjectKey{Name: "llamastackdistributions.llamastack.io"}, &crd))
	assert.Equal(t, apiextensionsv1.WebhookConverter, crd.Spec.Conversion.Strategy)
	assert.Equal(t, "llsd-webhook", crd.Spec.Conversion.Webhook.ClientConfig.Service.Name)

	t.Run("the conversion webhook answers through the chart's Service, as the chart's service account", func(t *testing.T) {
		webhookAnswers(t, c, cfg, d, namespace)
	})
}

// render renders the chart as a release in namespace team-llsd, by kind/name.
func render(t *testing.T, values map[string]any) map[string]string {
	chart, err := loader.Load(chartDir)
	require.NoError(t, err)
	install := action.NewInstall(&action.Configuration{})
	install.DryRun, install.ClientOnly, install.ReleaseName, install.Namespace = true, true, "llsd", "team-llsd"
	install.KubeVersion = &chartutil.KubeVersion{Version: "v1.34.0", Major: "1", Minor: "34"}
	release, err := install.Run(chart, values)
	require.NoError(t, err)
	objs := map[string]string{}
	for _, doc := range strings.Split(release.Manifest, "\n---\n") {
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
	kustomize := os.Getenv("KUSTOMIZE")
	if kustomize == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("KUSTOMIZE is not set: make test sets it")
		}
		t.Skip("KUSTOMIZE is not set: run make test, which builds the pinned kustomize")
	}
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
