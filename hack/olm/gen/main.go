// SPDX-License-Identifier: Apache-2.0

// Command gen writes the controller's OLM bundle (registry+v1) from its install manifests: the
// ClusterServiceVersion carries the Deployment, the RBAC and the conversion webhook of
// examples/install/base (OLM gives the webhook its certificate), the CRD goes beside it, and the
// controller's image is named by digest in relatedImages, for disconnected clusters.
//
//	go run ./gen KUSTOMIZE INSTALL_DIR VERSION IMAGE OUT
//
// IMAGE is the controller image by digest (registry/llsd-controller@sha256:...).
package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/operator-framework/api/pkg/lib/version"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	appsv1 "k8s.io/api/apps/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

const (
	pkg        = "llsd"
	channel    = "stable"
	crdName    = "llamastackdistributions.llamastack.io"
	controller = "llsd-controller"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: gen KUSTOMIZE INSTALL_DIR VERSION IMAGE OUT")
		os.Exit(2)
	}
	if err := bundle(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// manifests are the base install manifests, by kind/name, as YAML.
type manifests map[string][]byte

func (m manifests) into(key string, obj any) error {
	data, ok := m[key]
	if !ok {
		return fmt.Errorf("the install manifests have no %s", key)
	}
	return yaml.UnmarshalStrict(data, obj)
}

func bundle(kustomize, install, version, image, out string) error {
	built, err := exec.Command(kustomize, "build", filepath.Join(install, "base")).Output()
	if err != nil {
		return fmt.Errorf("kustomize build %s/base: %w", install, err)
	}
	m := manifests{}
	for _, doc := range bytes.Split(built, []byte("\n---\n")) {
		var meta struct {
			Kind     string            `json:"kind"`
			Metadata metav1.ObjectMeta `json:"metadata"`
		}
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			return err
		}
		m[meta.Kind+"/"+meta.Metadata.Name] = doc
	}
	csv, err := clusterServiceVersion(m, strings.TrimPrefix(version, "v"), image)
	if err != nil {
		return err
	}
	files := map[string]any{
		"manifests/" + pkg + ".clusterserviceversion.yaml": csv,
		"metadata/annotations.yaml": map[string]any{"annotations": map[string]string{
			"operators.operatorframework.io.bundle.mediatype.v1":       "registry+v1",
			"operators.operatorframework.io.bundle.manifests.v1":       "manifests/",
			"operators.operatorframework.io.bundle.metadata.v1":        "metadata/",
			"operators.operatorframework.io.bundle.package.v1":         pkg,
			"operators.operatorframework.io.bundle.channels.v1":        channel,
			"operators.operatorframework.io.bundle.channel.default.v1": channel,
		}},
	}
	for _, name := range []string{"CustomResourceDefinition/" + crdName, "ClusterRole/llsd-metrics-reader"} {
		var obj map[string]any
		if err := m.into(name, &obj); err != nil {
			return err
		}
		files["manifests/"+strings.ToLower(strings.ReplaceAll(name, "/", "_"))+".yaml"] = obj
	}
	for path, obj := range files {
		data, err := yaml.Marshal(obj)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, path)), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, path), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// clusterServiceVersion is the controller's CSV: the base manifests' Deployment (its image by
// digest), ClusterRole and leader-election Role, the CRD it owns, its conversion webhook.
func clusterServiceVersion(m manifests, version, image string) (*operatorsv1alpha1.ClusterServiceVersion, error) {
	var deployment appsv1.Deployment
	var cluster, leader rbacv1.ClusterRole
	if err := m.into("Deployment/"+controller, &deployment); err != nil {
		return nil, err
	}
	if err := m.into("ClusterRole/"+controller, &cluster); err != nil {
		return nil, err
	}
	if err := m.into("Role/"+controller+"-leader-election", &leader); err != nil {
		return nil, err
	}
	deployment.Spec.Template.Spec.Containers[0].Image = image
	path, port := "/convert", intstr.FromInt32(9443)
	return &operatorsv1alpha1.ClusterServiceVersion{
		TypeMeta: metav1.TypeMeta{APIVersion: operatorsv1alpha1.SchemeGroupVersion.String(), Kind: operatorsv1alpha1.ClusterServiceVersionKind},
		ObjectMeta: metav1.ObjectMeta{Name: pkg + ".v" + version, Annotations: map[string]string{
			"capabilities":   "Basic Install",
			"categories":     "AI/Machine Learning",
			"containerImage": image,
			"description":    "Serves the LlamaStackDistribution CRD's v1alpha1/v1alpha2 conversion and writes status; llsd (a KRM function) renders the servers.",
			"features.operators.openshift.io/disconnected": "true",
			// what the console offers to create: a LlamaStackDistribution as a user writes it
			"alm-examples": `[{"apiVersion":"llamastack.io/v1alpha2","kind":"LlamaStackDistribution","metadata":{"name":"chat"},` +
				`"spec":{"distribution":{"name":"starter"},"providers":{"inference":[{"provider":"vllm","endpoint":"http://vllm.models.svc:8000/v1"}]},` +
				`"resources":{"models":[{"name":"meta-llama/Llama-3.2-3B-Instruct"}]}}},` +
				`{"apiVersion":"llamastack.io/v1alpha1","kind":"LlamaStackDistribution","metadata":{"name":"upstream"},` +
				`"spec":{"replicas":1,"server":{"distribution":{"name":"starter"}}}}]`,
		}},
		Spec: operatorsv1alpha1.ClusterServiceVersionSpec{
			DisplayName: "llsd controller",
			Description: "The companion controller of llsd, which renders llama-stack servers from LlamaStackDistributions in " +
				"GitOps (kustomize, kpt, Argo CD): it serves the conversion webhook between v1alpha1 (the upstream operator's API) " +
				"and v1alpha2, and writes each LlamaStackDistribution's status from its render receipt and the running server. " +
				"It never renders and never changes a workload.",
			Version:        mustVersion(version),
			Keywords:       []string{"llama-stack", "ogx", "gitops", "krm"},
			Provider:       operatorsv1alpha1.AppLink{Name: "llsd"},
			Links:          []operatorsv1alpha1.AppLink{{Name: "Source", URL: "https://github.com/llamastack/llsd"}},
			Maintainers:    []operatorsv1alpha1.Maintainer{{Name: "llsd", Email: "llsd@llamastack.io"}},
			Maturity:       "alpha",
			MinKubeVersion: "1.30.0",
			InstallModes: []operatorsv1alpha1.InstallMode{
				{Type: operatorsv1alpha1.InstallModeTypeOwnNamespace, Supported: false},
				{Type: operatorsv1alpha1.InstallModeTypeSingleNamespace, Supported: false},
				{Type: operatorsv1alpha1.InstallModeTypeMultiNamespace, Supported: false},
				{Type: operatorsv1alpha1.InstallModeTypeAllNamespaces, Supported: true}, // the CRD's conversion is cluster-wide
			},
			InstallStrategy: operatorsv1alpha1.NamedInstallStrategy{
				StrategyName: operatorsv1alpha1.InstallStrategyNameDeployment,
				StrategySpec: operatorsv1alpha1.StrategyDetailsDeployment{
					DeploymentSpecs:    []operatorsv1alpha1.StrategyDeploymentSpec{{Name: controller, Label: deployment.Labels, Spec: deployment.Spec}},
					ClusterPermissions: []operatorsv1alpha1.StrategyDeploymentPermissions{{ServiceAccountName: controller, Rules: cluster.Rules}},
					Permissions:        []operatorsv1alpha1.StrategyDeploymentPermissions{{ServiceAccountName: controller, Rules: leader.Rules}},
				},
			},
			CustomResourceDefinitions: operatorsv1alpha1.CustomResourceDefinitions{Owned: []operatorsv1alpha1.CRDDescription{
				{Name: crdName, Version: "v1alpha2", Kind: "LlamaStackDistribution", DisplayName: "LlamaStackDistribution",
					Description: "A llama-stack server, written in a few lines; llsd renders its config.yaml and objects."},
				{Name: crdName, Version: "v1alpha1", Kind: "LlamaStackDistribution", DisplayName: "LlamaStackDistribution (v1alpha1)",
					Description: "The upstream operator's API, served by conversion."},
			}},
			WebhookDefinitions: []operatorsv1alpha1.WebhookDescription{{
				GenerateName: "cllamastackdistributions.kb.io", Type: operatorsv1alpha1.ConversionWebhook, DeploymentName: controller,
				ContainerPort: 443, TargetPort: &port, WebhookPath: &path, ConversionCRDs: []string{crdName},
				AdmissionReviewVersions: []string{"v1"}, SideEffects: sideEffectsNone(),
			}},
			RelatedImages: []operatorsv1alpha1.RelatedImage{{Name: controller, Image: image}},
		},
	}, nil
}

func sideEffectsNone() *admissionregistrationv1.SideEffectClass {
	none := admissionregistrationv1.SideEffectClassNone
	return &none
}

// mustVersion is the CSV's version, SemVer 2 (a build from a commit without a tag is
// 0.0.0-<commit>).
func mustVersion(v string) version.OperatorVersion {
	parsed, err := semver.Parse(v)
	if err != nil {
		parsed = semver.MustParse("0.0.0-" + strings.NewReplacer(".", "-", "_", "-").Replace(v))
	}
	return version.OperatorVersion{Version: parsed}
}
