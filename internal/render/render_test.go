// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/golden"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

func renderCase(t *testing.T, dir string) render.Output {
	return renderEdited(t, dir, func(*v1alpha2.LlamaStackDistribution) {})
}

// renderEdited renders a case after edit changed its LlamaStackDistribution.
func renderEdited(t *testing.T, dir string, edit func(*v1alpha2.LlamaStackDistribution)) render.Output {
	data, err := os.ReadFile(filepath.Join(dir, "llsd.yaml"))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "# reason: "), "%s/llsd.yaml must start with '# reason: '", dir)
	obj, errs := api.Decode(data)
	require.Empty(t, errs)
	edit(obj)
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
	require.Nil(t, ferr)
	res, errs := config.Generate(obj, dist)
	require.Empty(t, errs)
	var opts render.Options
	if raw, err := os.ReadFile(filepath.Join(dir, "options.yaml")); err == nil {
		require.NoError(t, yaml.UnmarshalStrict(raw, &opts))
	}
	out, errs := render.Render(render.Input{Object: obj, Distribution: dist, Config: res, Options: opts})
	require.Empty(t, errs)
	return out
}

func stream(t *testing.T, out render.Output) []byte {
	data, err := render.YAML(out.Objects)
	require.NoError(t, err)
	return data
}

// Each case renders its LlamaStackDistribution (with the render options of options.yaml, if
// any) into objects.yaml; the config.yaml inside
// the ConfigMap is covered by internal/config's golden cases.
func TestGolden(t *testing.T) {
	dirs, err := filepath.Glob(filepath.Join("testdata", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			got := stream(t, renderCase(t, dir))
			golden.Check(t, filepath.Join(dir, "objects.yaml"), got)
			assert.Equal(t, string(got), string(stream(t, renderCase(t, dir))), "rendering must be deterministic")
		})
	}
}

// Every rendered pod passes the Pod Security Standards at level restricted.
func TestPodsAreRestricted(t *testing.T) {
	evaluator, err := policy.NewEvaluator(policy.DefaultChecks())
	require.NoError(t, err)
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*"))
	for _, dir := range dirs {
		for _, o := range renderCase(t, dir).Objects {
			d, ok := o.(*appsv1.Deployment)
			if !ok {
				continue
			}
			results := evaluator.EvaluatePod(psaapi.LevelVersion{Level: psaapi.LevelRestricted, Version: psaapi.LatestVersion()},
				&d.Spec.Template.ObjectMeta, &d.Spec.Template.Spec)
			for _, r := range results {
				assert.True(t, r.Allowed, "%s: %s: %s", dir, r.ForbiddenReason, r.ForbiddenDetail)
			}
		}
	}
}

// A config change renames the ConfigMap and changes the pod annotation (a rollout); a
// change elsewhere (replicas) does not.
func TestConfigChangeRollsPodsAndNothingElseDoes(t *testing.T) {
	base := renderCase(t, filepath.Join("testdata", "starter-minimal"))
	tls := renderCase(t, filepath.Join("testdata", "tls-and-ca-bundle"))
	assert.NotEqual(t, base.ConfigHash, tls.ConfigHash)
	assert.NotEqual(t, podAnnotations(t, base), podAnnotations(t, tls))

	three := renderCase(t, filepath.Join("testdata", "replicas-only"))
	one := renderEdited(t, filepath.Join("testdata", "replicas-only"), func(obj *v1alpha2.LlamaStackDistribution) {
		obj.Spec.Workload.Replicas = ptr.To[int32](1)
	})
	assert.Equal(t, three.ConfigHash, one.ConfigHash)
	assert.Equal(t, podAnnotations(t, three), podAnnotations(t, one))
}

func podAnnotations(t *testing.T, out render.Output) map[string]string {
	for _, o := range out.Objects {
		if d, ok := o.(*appsv1.Deployment); ok {
			return d.Spec.Template.Annotations
		}
	}
	t.Fatal("no Deployment")
	return nil
}

// Secrets reach the pod as secretKeyRefs; no object carries a secret value or a Secret.
func TestSecretsStayInSecrets(t *testing.T) {
	out := renderCase(t, filepath.Join("testdata", "postgres-and-vllm-key"))
	for _, o := range out.Objects {
		_, isSecret := o.(*corev1.Secret)
		assert.False(t, isSecret)
	}
	got := string(stream(t, out))
	assert.Contains(t, got, "secretKeyRef")
	assert.Contains(t, got, "launcher.py")
}
