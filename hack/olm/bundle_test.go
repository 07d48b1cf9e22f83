// SPDX-License-Identifier: Apache-2.0

// Package olm tests the controller's OLM bundle with operator-framework's own validation.
package olm

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	kustomize := needEnv(t, "KUSTOMIZE", "builds the pinned kustomize")
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
	assertLeastPermissions(t, csv.Spec.InstallStrategy.StrategySpec)
}

// writes are the only writes the controller needs: its status, its leader Lease and Events,
// and the reviews that guard /metrics. OLM gives the webhook its certificate, so the bundle
// needs no Secret write (the self-signed install's Role) and no CRD patch.
var writes = map[string][]string{
	"llamastack.io/llamastackdistributions/status": {"get", "patch", "update"},
	"coordination.k8s.io/leases":                   {"get", "create", "update"},
	"/events":                                      {"create", "patch"},
	"authentication.k8s.io/tokenreviews":           {"create"},
	"authorization.k8s.io/subjectaccessreviews":    {"create"},
}

// assertLeastPermissions holds the bundle's permissions to what the controller uses (round
// five: the OLM bundle's permissions): no wildcard, Secrets read one by one (get, never list
// or watch, so none is cached), every other resource read, and only writes.
func assertLeastPermissions(t *testing.T, strategy operatorsv1alpha1.StrategyDetailsDeployment) {
	for _, perms := range [][]operatorsv1alpha1.StrategyDeploymentPermissions{strategy.ClusterPermissions, strategy.Permissions} {
		require.Len(t, perms, 1)
		assert.Equal(t, "llsd-controller", perms[0].ServiceAccountName)
		for _, rule := range perms[0].Rules {
			assert.Empty(t, rule.NonResourceURLs, "no non-resource URL for the controller itself")
			for _, group := range rule.APIGroups {
				for _, resource := range rule.Resources {
					name := group + "/" + resource
					assert.NotContains(t, []string{group, resource}, "*", name)
					for _, verb := range rule.Verbs {
						switch {
						case slices.Contains(writes[name], verb):
						case resource == "secrets":
							assert.Equal(t, "get", verb, "Secrets are read by name only")
						default:
							assert.Contains(t, []string{"get", "list", "watch"}, verb, "%s may only be read", name)
						}
					}
				}
			}
		}
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
