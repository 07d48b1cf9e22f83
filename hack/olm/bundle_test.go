// SPDX-License-Identifier: Apache-2.0

// Package olm tests the controller's OLM bundle with operator-framework's own validation.
package olm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/operator-framework/api/pkg/manifests"
	operatorsv1alpha1 "github.com/operator-framework/api/pkg/operators/v1alpha1"
	"github.com/operator-framework/api/pkg/validation"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const image = "registry.example.com/platform/llsd-controller@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// The bundle gen writes from the install manifests passes operator-framework's bundle
// validation (the CSV, the CRD, the bundle as a whole) without an error or a warning, names the controller's image by digest
// in relatedImages, and hands the CRD's conversion to OLM's webhook.
func TestBundleIsValid(t *testing.T) {
	kustomize := os.Getenv("KUSTOMIZE")
	if kustomize == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("KUSTOMIZE is not set: make test sets it")
		}
		t.Skip("KUSTOMIZE is not set: run make test, which builds the pinned kustomize")
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "run", "./gen", kustomize, filepath.Join("..", "..", "examples", "install"), "v0.4.0", image, dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	bundle, err := manifests.GetBundleFromDir(dir)
	require.NoError(t, err)
	// each validator takes its kind of object: the bundle, its CSV, its CRDs
	objs := []any{bundle, bundle.CSV}
	for _, crd := range bundle.V1CRDs {
		objs = append(objs, crd)
	}
	for _, result := range validation.DefaultBundleValidators.Validate(objs...) {
		for _, e := range result.Errors {
			assert.Fail(t, "invalid bundle", "%s: %v", result.Name, e)
		}
		for _, w := range result.Warnings {
			assert.Fail(t, "a warning of the bundle's validation", "%s: %v", result.Name, w)
		}
	}
	csv := bundle.CSV
	require.NotNil(t, csv)
	assert.Equal(t, "llsd.v0.4.0", csv.Name)
	assert.Equal(t, []operatorsv1alpha1.RelatedImage{{Name: "llsd-controller", Image: image}}, csv.Spec.RelatedImages)
	deployment := csv.Spec.InstallStrategy.StrategySpec.DeploymentSpecs[0]
	assert.Equal(t, image, deployment.Spec.Template.Spec.Containers[0].Image)
	require.Len(t, csv.Spec.WebhookDefinitions, 1)
	webhook := csv.Spec.WebhookDefinitions[0]
	assert.Equal(t, operatorsv1alpha1.ConversionWebhook, webhook.Type)
	assert.Equal(t, []string{"llamastackdistributions.llamastack.io"}, webhook.ConversionCRDs)
	assert.Equal(t, int32(9443), webhook.TargetPort.IntVal, "the controller's webhook port")
	for _, mode := range csv.Spec.InstallModes {
		assert.Equal(t, mode.Type == operatorsv1alpha1.InstallModeTypeAllNamespaces, mode.Supported, "%s", mode.Type)
	}
	assert.Len(t, bundle.V1CRDs, 1)
	assert.True(t, strings.HasPrefix(csv.Spec.Version.String(), "0.4.0"))
}
