// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/render"
)

// The spec's volumes and mounts join llsd's so that the API server takes the pod: a mount at
// the path of llsd's state or cache replaces llsd's, a volume with the name of one of llsd's
// keeps it (llsd's is renamed), each with a warning naming both; what cannot join is an error
// with the fix. The first case is the shape of a public Helm chart's LLSD values (a PVC at
// /.llama, an emptyDir named cache at /.cache), which rendered a Deployment the API server
// rejected (volumes[5].name: Duplicate value: "cache"; mountPath "/.llama" must be unique).
func TestUserVolumesJoinLLSDs(t *testing.T) {
	overrides := func(version, o string) string {
		return "  distribution: {name: starter, serverVersion: \"" + version + "\"}\n  workload: {overrides: " + o + "}\n"
	}
	for _, tc := range []struct {
		reason, spec string
		want         []string // problems, errors first, each a substring of one line
		mounts       map[string]string
	}{
		{reason: "a Helm chart's state and cache volumes",
			spec: overrides("0.7", "{volumes: [{name: run-config-volume, configMap: {name: run-config}}, {name: dot-llama, persistentVolumeClaim: {claimName: llama-stack-data}}, {name: cache, emptyDir: {}}], "+
				"volumeMounts: [{name: run-config-volume, mountPath: /app-config}, {name: dot-llama, mountPath: /.llama}, {name: cache, mountPath: /.cache}]}"),
			want: []string{
				"warning: spec.workload.overrides.volumeMounts[1]: mounts volume dot-llama at /.llama in place of llsd's volume lls-storage (the server's state)",
				"warning: spec.workload.overrides.volumeMounts[2]: mounts volume cache at /.cache in place of llsd's volume cache (the server's cache)",
			},
			mounts: map[string]string{"/app-config": "run-config-volume", "/.llama": "dot-llama", "/.cache": "cache", "/etc/llama-stack": "config"}},
		{reason: "a volume with the name of llsd's cache, mounted elsewhere",
			spec:   overrides("1.3", "{volumes: [{name: cache, emptyDir: {}}], volumeMounts: [{name: cache, mountPath: /models}]}"),
			want:   []string{"warning: spec.workload.overrides.volumes[0].name: cache is also the name of llsd's volume (the server's cache), which is named llsd-cache in the pod"},
			mounts: map[string]string{"/models": "cache", "/.cache": "llsd-cache", "/.ogx": "lls-storage"}},
		{reason: "the state directory of the version the spec runs, with a trailing slash",
			spec:   overrides("1.3", "{volumes: [{name: state, emptyDir: {medium: Memory}}], volumeMounts: [{name: state, mountPath: /.ogx/}]}"),
			want:   []string{"warning: spec.workload.overrides.volumeMounts[0]: mounts volume state at /.ogx/ in place of llsd's volume lls-storage"},
			mounts: map[string]string{"/.ogx/": "state", "/.cache": "cache"}},
		{reason: "the storage llsd was asked for, mounted over",
			spec: `  distribution: {name: starter}
  workload:
    storage: {size: 1Gi}
    overrides: {volumes: [{name: mine, emptyDir: {}}], volumeMounts: [{name: mine, mountPath: /.ogx}]}
`,
			want:   []string{"the PersistentVolumeClaim s-pvc of spec.workload.storage is generated but not mounted; remove spec.workload.storage or mount yours elsewhere"},
			mounts: map[string]string{"/.ogx": "mine"}},
		{reason: "a mount of llsd's own cache volume at a second path",
			spec: overrides("1.3", "{volumeMounts: [{name: cache, mountPath: /root/.cache}]}"), want: nil,
			mounts: map[string]string{"/root/.cache": "cache", "/.cache": "cache"}},
		{reason: "a mount over config.yaml",
			spec: overrides("1.3", "{volumes: [{name: mine, emptyDir: {}}], volumeMounts: [{name: mine, mountPath: /etc/llama-stack/}]}"),
			want: []string{`spec.workload.overrides.volumeMounts[0].mountPath: Duplicate value: "/etc/llama-stack/ is where llsd mounts its volume config (the generated config.yaml): mount yours elsewhere"`}, mounts: nil},
		{reason: "two volumes of one name",
			spec: overrides("1.3", "{volumes: [{name: m, emptyDir: {}}, {name: m, emptyDir: {}}], volumeMounts: [{name: m, mountPath: /m}]}"),
			want: []string{`spec.workload.overrides.volumes[1].name: Duplicate value: "m is also the name of volumes[0]: give each volume a name of its own"`}, mounts: nil},
		{reason: "two mounts at one path",
			spec: overrides("1.3", "{volumes: [{name: a, emptyDir: {}}, {name: b, emptyDir: {}}], volumeMounts: [{name: a, mountPath: /m}, {name: b, mountPath: /m/}]}"),
			want: []string{`spec.workload.overrides.volumeMounts[1].mountPath: Duplicate value: "/m/ is also where volumeMounts[0] mounts: one volume per path"`}, mounts: nil},
		{reason: "a volume with a name and no source (a reference page's placeholder)",
			spec: overrides("1.3", "{volumes: [{name: models}], volumeMounts: [{name: models, mountPath: /models}]}"),
			want: []string{`spec.workload.overrides.volumes[0]: Required value: volume models has no source: give it one, such as emptyDir: {}`}, mounts: nil},
		{reason: "a mount of no volume",
			spec: overrides("1.3", "{volumeMounts: [{name: models, mountPath: /models}]}"),
			want: []string{`spec.workload.overrides.volumeMounts[0].name: Not found: "models (add a volume of that name to spec.workload.overrides.volumes)"`}, mounts: nil},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			out, problems := renderSpec(t, "s", tc.spec, nil)
			require.Len(t, problems, len(tc.want), strings.Join(problems, "\n"))
			for i, want := range tc.want {
				assert.Contains(t, problems[i], want)
			}
			if tc.mounts == nil {
				assert.Empty(t, out.Objects, "an error renders nothing")
				return
			}
			pod := podSpecOf(t, out)
			assertAcceptablePod(t, pod)
			got := map[string]string{}
			for _, m := range pod.Containers[0].VolumeMounts {
				got[m.MountPath] = m.Name
			}
			for mountPath, volume := range tc.mounts {
				assert.Equal(t, volume, got[mountPath], "the volume at %s", mountPath)
			}
		})
	}
}

func podSpecOf(t *testing.T, out render.Output) corev1.PodSpec {
	for _, o := range out.Objects {
		if d, ok := o.(*appsv1.Deployment); ok {
			return d.Spec.Template.Spec
		}
	}
	require.Fail(t, "no Deployment rendered")
	return corev1.PodSpec{}
}

// assertAcceptablePod checks what the API server checks of a pod's volumes: unique names,
// one mount per path in a container, and a volume for every mount.
func assertAcceptablePod(t *testing.T, pod corev1.PodSpec) {
	t.Helper()
	names := map[string]bool{}
	for _, v := range pod.Volumes {
		assert.False(t, names[v.Name], "two volumes named %s", v.Name)
		names[v.Name] = true
	}
	for _, c := range append(pod.InitContainers, pod.Containers...) {
		paths := map[string]bool{}
		for _, m := range c.VolumeMounts {
			assert.False(t, paths[path.Clean(m.MountPath)], "container %s mounts two volumes at %s", c.Name, m.MountPath)
			paths[path.Clean(m.MountPath)] = true
			assert.True(t, names[m.Name], "container %s mounts volume %s, which the pod does not have", c.Name, m.Name)
		}
	}
}

// Whatever volumes and mounts the spec adds, a pod llsd renders passes the API server's checks
// of volume names and mount paths (the envtest suite's TestFuzzedSampleIsAccepted applies such
// pods to a real API server).
func FuzzUserVolumesRenderAnAcceptablePod(f *testing.F) {
	f.Add("cache", "/.cache", "cache", "/.ogx", "lls-storage")
	f.Add("config", "/etc/llama-stack", "m", "/m/", "m")
	f.Fuzz(func(t *testing.T, volume1, path1, volume2, path2, volume3 string) {
		quote := strconv.Quote
		spec := "  distribution: {name: starter}\n  workload: {overrides: {volumes: [{name: " + quote(volume1) + ", emptyDir: {}}, {name: " + quote(volume3) +
			", emptyDir: {}}], volumeMounts: [{name: " + quote(volume1) + ", mountPath: " + quote(path1) + "}, {name: " + quote(volume2) +
			", mountPath: " + quote(path2) + "}]}}\n"
		in, errs := specInput(t, "s", spec)
		if len(errs) > 0 {
			return // not a spec llsd takes
		}
		out, errs := render.Render(in)
		if len(errs) == 0 {
			assertAcceptablePod(t, podSpecOf(t, out))
		}
	})
}
