// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/pipeline"
)

// A RenderOptions in a directory below another (a tenant's, below the platform's) takes its own
// ingress and the like, but may only tighten what loosens a render: the Pod Security Standard,
// the images a distribution name stands for, registries read without TLS. Limits are the lower.
func TestNestedOptionsOnlyTighten(t *testing.T) {
	platform := krm.RenderOptions{Spec: krm.RenderOptionsSpec{
		PodSecurity: "baseline", ImageOverrides: map[string]string{"starter": "registry.internal/starter:1"},
		Registry: krm.RegistryOptions{Enabled: true, InsecureHosts: []string{"registry.lab:5000"}},
		Limits:   krm.LimitOptions{LLSDs: 10},
	}}
	for _, tc := range []struct {
		reason string
		above  *krm.RenderOptions // platform, unless set
		tenant krm.RenderOptionsSpec
		want   func(t *testing.T, got krm.RenderOptionsSpec)
		err    string
	}{
		{reason: "unset options inherit the platform's", tenant: krm.RenderOptionsSpec{Ingress: krm.IngressOptions{ClassName: "nginx"}},
			want: func(t *testing.T, got krm.RenderOptionsSpec) {
				assert.Equal(t, "baseline", got.PodSecurity)
				assert.Equal(t, "nginx", got.Ingress.ClassName, "the tenant's own option")
				assert.Equal(t, platform.Spec.ImageOverrides, got.ImageOverrides)
				assert.Equal(t, krm.RegistryOptions{Enabled: true, InsecureHosts: []string{"registry.lab:5000"}}, got.Registry)
			}},
		{reason: "a stricter standard is taken", tenant: krm.RenderOptionsSpec{PodSecurity: "restricted"},
			want: func(t *testing.T, got krm.RenderOptionsSpec) { assert.Equal(t, "restricted", got.PodSecurity) }},
		{reason: "the lower limit wins either way", tenant: krm.RenderOptionsSpec{Limits: krm.LimitOptions{LLSDs: 50, Limits: pipeline.Limits{SettingsDepth: 8}}},
			want: func(t *testing.T, got krm.RenderOptionsSpec) {
				assert.Equal(t, 10, got.Limits.LLSDs)
				assert.Equal(t, 8, got.Limits.SettingsDepth)
			}},
		{reason: "the same image mapping is no loosening", tenant: krm.RenderOptionsSpec{ImageOverrides: map[string]string{"starter": "registry.internal/starter:1"}},
			want: func(t *testing.T, got krm.RenderOptionsSpec) {}},
		{reason: "a looser standard would let a hostPath through", tenant: krm.RenderOptionsSpec{PodSecurity: "privileged"},
			err: "spec.podSecurity privileged is looser than baseline above it"},
		{reason: "a distribution name mapped to an image of the tenant's choice",
			tenant: krm.RenderOptionsSpec{ImageOverrides: map[string]string{"starter": "evil.example/starter:1"}, Distributions: map[string]string{"rh-dev": "evil.example/rh:1"}},
			err:    "spec.imageOverrides[starter] maps a name the options above do not map so; spec.distributions[rh-dev] maps"},
		{reason: "registry reads the platform leaves off", above: &krm.RenderOptions{}, tenant: krm.RenderOptionsSpec{Registry: krm.RegistryOptions{Enabled: true}},
			err: "spec.registry.enabled turns on registry reads the options above leave off"},
		{reason: "a registry read without TLS the platform does not allow", tenant: krm.RenderOptionsSpec{Registry: krm.RegistryOptions{InsecureHosts: []string{"evil.example"}}},
			err: "spec.registry.insecureHosts adds evil.example"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			above := platform
			if tc.above != nil {
				above = *tc.above
			}
			got, err := above.Tighten(krm.RenderOptions{Spec: tc.tenant})
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			tc.want(t, got.Spec)
		})
	}
}

// The options that loosen a render are the platform's: an Application's plugin env (Argo CD's
// ARGOCD_ENV_ form) cannot set them, and the sidecar's plain variable wins over a repository's
// RenderOptions document.
func TestAnApplicationCannotLoosenThePlatformsOptions(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, name := range []string{"LLSD_POD_SECURITY", "LLSD_IMAGE_OVERRIDES", "LLSD_DISTRIBUTIONS", "LLSD_REGISTRY_ENABLED", "LLSD_REGISTRY_INSECURE_HOSTS"} {
		_, err := krm.RenderOptions{}.WithEnv(env(map[string]string{"ARGOCD_ENV_" + name: "x"}))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "ARGOCD_ENV_"+name+": "+name+" is the platform's to set", name)
	}
	repository := krm.RenderOptions{Spec: krm.RenderOptionsSpec{PodSecurity: "privileged"}}
	opts, err := repository.WithEnv(env(map[string]string{"LLSD_POD_SECURITY": "restricted"}))
	require.NoError(t, err)
	assert.Equal(t, "restricted", opts.Spec.PodSecurity, "the sidecar pins the standard")
}
