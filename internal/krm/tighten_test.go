// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"sigs.k8s.io/yaml"

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
		{reason: "a tenant cannot turn the platform's requireAuthentication off",
			above:  &krm.RenderOptions{Spec: krm.RenderOptionsSpec{RequireAuthentication: true}},
			tenant: krm.RenderOptionsSpec{Ingress: krm.IngressOptions{ClassName: "nginx"}},
			want: func(t *testing.T, got krm.RenderOptionsSpec) {
				assert.True(t, got.RequireAuthentication)
			}},
		{reason: "the platform's OpenShift AI release stands where the tenant names none",
			above: &krm.RenderOptions{Spec: krm.RenderOptionsSpec{OpenShiftAI: &krm.OpenShiftAIOptions{Release: "3.4"}}},
			want: func(t *testing.T, got krm.RenderOptionsSpec) {
				assert.Equal(t, &krm.OpenShiftAIOptions{Release: "3.4"}, got.OpenShiftAI)
			}},
		{reason: "another release would move rh-dev to another image (round four's F5)",
			above:  &krm.RenderOptions{Spec: krm.RenderOptionsSpec{OpenShiftAI: &krm.OpenShiftAIOptions{Release: "3.4"}}},
			tenant: krm.RenderOptionsSpec{OpenShiftAI: &krm.OpenShiftAIOptions{Release: "3.6-ea"}},
			err:    "spec.openshiftAI.release 3.6-ea is not the release the options above name (3.4)"},
		{reason: "the platform's Praxis gateway stands below it",
			above:  &krm.RenderOptions{Spec: krm.RenderOptionsSpec{Praxis: krm.PraxisOptions{Namespace: "gateway", PodLabels: []string{"app=praxis"}}}},
			tenant: krm.RenderOptionsSpec{Praxis: krm.PraxisOptions{Namespace: "gateway"}},
			want: func(t *testing.T, got krm.RenderOptionsSpec) {
				assert.Equal(t, krm.PraxisOptions{Namespace: "gateway", PodLabels: []string{"app=praxis"}}, got.Praxis)
			}},
		{reason: "a tenant's own pods named as the gateway would say who calls",
			above:  &krm.RenderOptions{},
			tenant: krm.RenderOptionsSpec{Praxis: krm.PraxisOptions{Namespace: "tenant", PodLabels: []string{"app=mine"}}},
			err:    "spec.praxis names another gateway than the options above"},
		{reason: "a release where the platform names none", above: &krm.RenderOptions{},
			tenant: krm.RenderOptionsSpec{OpenShiftAI: &krm.OpenShiftAIOptions{Release: "3.6-ea"}},
			err:    "spec.openshiftAI.release 3.6-ea is not the release the options above name (none)"},
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
// ARGOCD_ENV_ form) cannot set them, and below the sidecar's plain variable a repository's
// RenderOptions may only tighten (F6: requireAuthentication is one of them).
func TestAnApplicationCannotLoosenThePlatformsOptions(t *testing.T) {
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	for _, name := range []string{"LLSD_POD_SECURITY", "LLSD_IMAGE_OVERRIDES", "LLSD_DISTRIBUTIONS", "LLSD_REGISTRY_ENABLED", "LLSD_REGISTRY_INSECURE_HOSTS",
		"LLSD_OPENSHIFT_AI_RELEASE", "LLSD_REQUIRE_AUTHENTICATION"} {
		_, err := krm.RenderOptions{}.WithEnv(env(map[string]string{"ARGOCD_ENV_" + name: "false"}))
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "ARGOCD_ENV_"+name+": "+name+" is the platform's to set", name)
	}
	repository := krm.RenderOptions{Spec: krm.RenderOptionsSpec{PodSecurity: "privileged"}}
	_, err := repository.WithEnv(env(map[string]string{"LLSD_POD_SECURITY": "restricted"}))
	require.Error(t, err, "a repository cannot loosen the sidecar's standard")
	assert.Contains(t, err.Error(), "below the renderer's variables (LLSD_POD_SECURITY): options below others may only tighten "+
		"the platform's options: spec.podSecurity privileged is looser than restricted above it")

	strict := krm.RenderOptions{Spec: krm.RenderOptionsSpec{PodSecurity: "restricted", RequireAuthentication: true}}
	opts, err := strict.WithEnv(env(map[string]string{"LLSD_POD_SECURITY": "baseline", "LLSD_REQUIRE_AUTHENTICATION": "false"}))
	require.NoError(t, err)
	assert.Equal(t, "restricted", opts.Spec.PodSecurity, "a repository may tighten the sidecar's standard")
	assert.True(t, opts.Spec.RequireAuthentication, "and require authentication the sidecar leaves to it")
}

// A platform option the renderer's environment sets pins it, also when set to "": a
// repository's RenderOptions that would add an image mapping beside the platform's, turn
// registry reads on for hosts it names, or choose the OpenShift AI release, which decides
// rh-dev's image (round four's F5 and F10), is refused with every option it would loosen; what
// is not the platform's stays the repository's.
func TestThePlatformsVariablesPinTheirOptions(t *testing.T) {
	repository := krm.RenderOptions{Spec: krm.RenderOptionsSpec{
		PodSecurity:    "privileged",
		ImageOverrides: map[string]string{"starter": "quay.io/evil/starter:latest"},
		Distributions:  map[string]string{"mine": "quay.io/evil/mine:latest"},
		Registry:       krm.RegistryOptions{Enabled: true, InsecureHosts: []string{"internal.svc:5000"}},
		OpenShiftAI:    &krm.OpenShiftAIOptions{Release: "3.6-ea"},
		Ingress:        krm.IngressOptions{ClassName: "nginx"},
	}}
	sidecar := map[string]string{"LLSD_POD_SECURITY": "restricted", "LLSD_IMAGE_OVERRIDES": "starter=registry.internal/starter:1",
		"LLSD_DISTRIBUTIONS": "", "LLSD_REGISTRY_ENABLED": "false", "LLSD_REGISTRY_INSECURE_HOSTS": "", "LLSD_OPENSHIFT_AI_RELEASE": "3.4"}
	lookup := func(k string) (string, bool) { v, ok := sidecar[k]; return v, ok }
	_, err := repository.WithEnv(lookup)
	require.Error(t, err)
	for _, loosened := range []string{"spec.podSecurity privileged is looser than restricted", "spec.imageOverrides[starter]",
		"spec.distributions[mine]", "spec.registry.enabled", "spec.registry.insecureHosts adds internal.svc:5000",
		"spec.openshiftAI.release 3.6-ea is not the release the options above name (3.4)"} {
		assert.Contains(t, err.Error(), loosened)
	}

	got, err := krm.RenderOptions{Spec: krm.RenderOptionsSpec{Ingress: krm.IngressOptions{ClassName: "nginx"}}}.WithEnv(lookup)
	require.NoError(t, err)
	assert.Equal(t, krm.RenderOptionsSpec{
		PodSecurity:    "restricted",
		ImageOverrides: map[string]string{"starter": "registry.internal/starter:1"},
		OpenShiftAI:    &krm.OpenShiftAIOptions{Release: "3.4"},
		Ingress:        krm.IngressOptions{ClassName: "nginx"},
		Limits:         got.Spec.Limits,
	}, got.Spec, "the platform's options, and the repository's own")

	unpinned, err := repository.WithEnv(func(string) (string, bool) { return "", false })
	require.NoError(t, err)
	assert.Equal(t, repository.Spec.PodSecurity, unpinned.Spec.PodSecurity, "without the platform's variables, the document's options stand")
	assert.Equal(t, repository.Spec.ImageOverrides, unpinned.Spec.ImageOverrides)
}

// The example repo-server sidecar pins every platform option: a repository's RenderOptions
// cannot loosen a render the sidecar runs.
func TestTheExampleSidecarPinsEveryPlatformOption(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "argocd", "repo-server-patch.yaml"))
	require.NoError(t, err)
	var patch appsv1.Deployment
	require.NoError(t, yaml.Unmarshal(data, &patch))
	require.Len(t, patch.Spec.Template.Spec.Containers, 1)
	set := map[string]bool{}
	for _, e := range patch.Spec.Template.Spec.Containers[0].Env {
		set[e.Name] = e.ValueFrom == nil
	}
	for _, name := range krm.PlatformOptions() {
		assert.True(t, set[name], "the sidecar sets %s", name)
	}
}

// A misspelt variable of a render option is said, not ignored without a word; another
// program's LLSD_ variable is not llsd's to judge.
func TestMisspeltVariablesAreSaid(t *testing.T) {
	got := krm.MisspeltVariables([]string{"LLSD_PLATFOM=openshift", "ARGOCD_ENV_LLSD_INGRES_DOMAIN=apps.example.com",
		"LLSD_PLATFORM=openshift", "LLSD_SOMETHING_ELSE_ENTIRELY=1", "PATH=/bin"})
	assert.Equal(t, []string{
		"ARGOCD_ENV_LLSD_INGRES_DOMAIN is no variable llsd reads (did you mean ARGOCD_ENV_LLSD_INGRESS_DOMAIN?): it is ignored",
		"LLSD_PLATFOM is no variable llsd reads (did you mean LLSD_PLATFORM?): it is ignored",
	}, got)
}
