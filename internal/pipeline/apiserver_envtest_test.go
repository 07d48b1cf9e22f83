// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
)

// apiServer is the real kube-apiserver the suite applies rendered objects to (nil without
// the envtest assets), and apiServerConfig its address and CA.
var (
	apiServer       client.Client
	apiServerConfig *rest.Config
)

func TestMain(m *testing.M) {
	testenv.Main(m, "the rendered-objects suite", func() int {
		routeCRD, err := testenv.RouteCRD()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		monitoringCRDs, err := testenv.MonitoringCRDs()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		env := &envtest.Environment{CRDInstallOptions: envtest.CRDInstallOptions{Paths: append([]string{routeCRD}, monitoringCRDs...)}}
		cfg, err := testenv.Start(env)
		if err != nil {
			fmt.Fprintln(os.Stderr, "starting the API server:", err)
			return 1
		}
		defer func() { _ = env.Stop() }()
		apiServerConfig = cfg
		if apiServer, err = client.New(cfg, client.Options{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		return m.Run()
	})
}

// Every object rendered from every golden case and example is accepted by the real API
// server: a server-side apply, dry run, with the built-in types' own validation (names,
// label syntax, duplicate list keys, ...) and the CRDs' (llsd's own, OpenShift's Route, the
// Prometheus Operator's ServiceMonitor and PrometheusRule). Field
// validation is strict: a field the schema does not know is an error, not a dropped value.
func TestRenderedObjectsAreAccepted(t *testing.T) {
	testenv.Need(t, testenv.MissingAssets())
	for _, in := range renderInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			obj, errs := api.Decode(in.doc)
			require.Empty(t, errs)
			res, errs := pipeline.Render(obj, in.opts)
			require.Empty(t, errs)
			for _, o := range append([]render.Object{res.LLSD}, res.Objects...) {
				require.NoError(t, dryRunApply(t, o))
			}
		})
	}
}

// dryRunApply server-side applies one rendered object without persisting it, in its
// namespace (created when missing) or in "default" when it has none.
func dryRunApply(t *testing.T, o client.Object) error {
	manifest, err := render.Manifest(o)
	if err != nil {
		return err
	}
	return dryRunApplyManifest(t, manifest)
}

// dryRunApplyManifest is dryRunApply for an object read from YAML.
func dryRunApplyManifest(t *testing.T, manifest map[string]any) error {
	u := &unstructured.Unstructured{Object: manifest}
	if u.GetNamespace() == "" {
		u.SetNamespace("default")
	}
	ensureNamespace(t, u.GetNamespace())
	err := apiServer.Patch(context.Background(), u, client.Apply, client.FieldOwner("llsd"), client.ForceOwnership, client.DryRunAll, client.FieldValidation("Strict"))
	if err != nil {
		return fmt.Errorf("the API server rejects %s %s: %w", u.GetKind(), u.GetName(), err)
	}
	return nil
}

func ensureNamespace(t *testing.T, name string) {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if err := apiServer.Create(context.Background(), ns); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

// A fuzzed sample: golden cases with names, labels, env, ports, exposure, volumes and mounts changed at random
// (a fixed seed, so a failure reproduces). Whatever llsd renders, the API server accepts;
// what it would not accept, llsd refuses with an error.
func TestFuzzedSampleIsAccepted(t *testing.T) {
	testenv.Need(t, testenv.MissingAssets())
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := renderInputs(t)
	rendered, renderedWithMounts := 0, 0
	for i := range 400 {
		in := inputs[rng.IntN(len(inputs))]
		doc, err := mutate(rng, in.doc)
		require.NoError(t, err)
		obj, errs := api.Decode(doc)
		if len(errs) > 0 {
			continue
		}
		res, errs := pipeline.Render(obj, in.opts)
		if len(errs) > 0 {
			continue
		}
		rendered++
		if bytes.Contains(doc, []byte("volumeMounts")) {
			renderedWithMounts++
		}
		for _, o := range append([]render.Object{res.LLSD}, res.Objects...) {
			require.NoError(t, dryRunApply(t, o), "variant %d of %s:\n%s", i, in.name, doc)
		}
	}
	require.Greater(t, rendered, 50, "the sample renders too few variants to say much")
	t.Logf("%d of 400 variants rendered, %d with volume mounts", rendered, renderedWithMounts)
	require.Greater(t, renderedWithMounts, 10, "the sample renders too few variants with volume mounts to say much")
}

// mutate changes a few fields of an LLSD document at random.
func mutate(rng *rand.Rand, doc []byte) ([]byte, error) {
	var m map[string]any
	if err := yaml.Unmarshal(doc, &m); err != nil {
		return nil, err
	}
	meta := mapOf(m, "metadata")
	spec := mapOf(m, "spec")
	for range 1 + rng.IntN(3) {
		switch rng.IntN(9) {
		case 0:
			meta["name"] = randomName(rng)
		case 1:
			meta["namespace"] = randomName(rng)
		case 2:
			net := mapOf(spec, "networking")
			net["allowedFrom"] = map[string]any{"labels": []any{pick(rng, "team=frontend", "team", "example.com/tier=gold",
				"bad key", "a=b=c", "tier=", "x/y/z")}}
		case 3:
			env := []any{map[string]any{"name": pick(rng, "LLAMA_STACK_PORT", "RUN_CONFIG_PATH", "LLSD_VLLM_API_KEY",
				"SSL_CERT_FILE", "SQLITE_STORE_DIR", "HF_HOME", "MY_VAR"), "value": "x"}}
			if rng.IntN(2) == 0 {
				env = append(env, env[0])
			}
			mapOf(mapOf(spec, "workload"), "overrides")["env"] = env
		case 4:
			mapOf(spec, "networking")["expose"] = map[string]any{"hostname": pick(rng, "chat.example.com", "Chat.Example.com",
				"*.example.com", "no_underscores.example.com", "x")}
		case 5:
			mapOf(spec, "networking")["port"] = rng.IntN(70000)
		case 6:
			w := mapOf(spec, "workload")
			w["replicas"] = rng.IntN(4)
			if rng.IntN(2) == 0 {
				w["autoscaling"] = map[string]any{"maxReplicas": 1 + rng.IntN(4)}
			}
		case 7, 8:
			mutateVolumes(rng, mapOf(mapOf(spec, "workload"), "overrides"))
		}
	}
	return yaml.Marshal(m)
}

// mutateVolumes adds volumes and mounts whose names and paths are often llsd's own (the
// state, the cache, config.yaml's directory) or each other's.
func mutateVolumes(rng *rand.Rand, overrides map[string]any) {
	var volumes, mounts []any
	for range rng.IntN(4) {
		volume := map[string]any{"name": pick(rng, "cache", "lls-storage", "config", "tls", "providers", "m", "run-config-volume")}
		if rng.IntN(2) == 0 {
			volume["emptyDir"] = map[string]any{}
		} else {
			volume["persistentVolumeClaim"] = map[string]any{"claimName": "data"}
		}
		volumes = append(volumes, volume)
	}
	for range rng.IntN(4) {
		name := pick(rng, "cache", "lls-storage", "config", "m", "run-config-volume")
		if len(volumes) > 0 && rng.IntN(3) > 0 {
			name = volumes[rng.IntN(len(volumes))].(map[string]any)["name"].(string)
		}
		mounts = append(mounts, map[string]any{
			"name":      name,
			"mountPath": pick(rng, "/.cache", "/.cache/", "/.llama", "/.ogx", "/etc/llama-stack", "/m", "/m/", "/app-config"),
		})
	}
	if len(volumes) > 0 {
		overrides["volumes"] = volumes
	}
	if len(mounts) > 0 {
		overrides["volumeMounts"] = mounts
	}
}

// randomName is a Kubernetes-ish name: often valid, sometimes too long, with dots, capitals
// or a leading digit.
func randomName(rng *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789-."
	n := 1 + rng.IntN(70)
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[rng.IntN(26+10)]
		if rng.IntN(20) == 0 {
			b[i] = letters[36+rng.IntN(2)]
		}
	}
	if rng.IntN(10) == 0 {
		b[0] = 'A'
	}
	return string(b)
}

func pick(rng *rand.Rand, options ...string) string { return options[rng.IntN(len(options))] }

func mapOf(m map[string]any, key string) map[string]any {
	child, ok := m[key].(map[string]any)
	if !ok {
		child = map[string]any{}
		m[key] = child
	}
	return child
}
