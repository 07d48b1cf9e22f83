// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// renderSpec renders an LLSD given by its spec (YAML under spec:), with the inputs' ConfigMaps.
func renderSpec(t *testing.T, name, spec string, configMaps map[string]map[string]string) (render.Output, []string) {
	return renderSpecWith(t, name, spec, configMaps, render.Options{IngressClassName: "traefik"})
}

// renderSpecWith is renderSpec with the given render options. It returns the output and the
// errors and warnings, one line each ("warning: " before a warning).
func renderSpecWith(t *testing.T, name, spec string, configMaps map[string]map[string]string, opts render.Options) (render.Output, []string) {
	in, errs := specInput(t, name, spec)
	require.Empty(t, errs, spec)
	in.ConfigMaps, in.Options = configMaps, opts
	out, errs := render.Render(in)
	var problems []string
	for _, e := range errs {
		problems = append(problems, wording.Plain(e.Error()))
	}
	for _, w := range out.Warnings {
		problems = append(problems, "warning: "+wording.Plain(w.String()))
	}
	return out, problems
}

// specInput decodes an LLSD given by its spec, resolves its distribution and generates its
// config: the render's input. The errors are the spec's own (decoding, validation).
func specInput(t testing.TB, name, spec string) (render.Input, field.ErrorList) {
	doc := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: ` + name +
		`, namespace: ai}
spec:
` + spec
	obj, errs := api.Decode([]byte(doc))
	if len(errs) == 0 {
		errs = v1alpha2.Validate(obj)
	}
	if len(errs) > 0 {
		return render.Input{}, errs
	}
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
	require.Nil(t, ferr)
	res, errs := config.Generate(obj, dist)
	require.Empty(t, errs)
	return render.Input{Object: obj, Distribution: dist, Config: res}, nil
}

// What the API server or the workload would refuse is an error that names the field and the
// fix; what works but surprises is a warning.
func TestRenderRefusesWhatTheClusterWould(t *testing.T) {
	shared := `  storage:
    kv: {type: redis, endpoint: 'redis:6379'}
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
`
	for _, tc := range []struct {
		reason, spec string
		configMaps   map[string]map[string]string
		want         []string
	}{
		{reason: "a variable llsd sets itself, twice in the container otherwise",
			spec: `  distribution: {name: starter}
  workload: {overrides: {env: [{name: OGX_PORT, value: '9000'}]}}
`, configMaps: nil,
			want: []string{`spec.workload.overrides.env[0].name: Duplicate value: "OGX_PORT is set by spec.networking.port: set it there`}},
		{reason: "a secret variable of a provider",
			spec: `  distribution: {name: starter}
  providers: {inference: {provider: vllm, endpoint: 'http://v:8000/v1', apiKey: {secretKeyRef: {name: s, key: k}}}}
` +
				"  workload: {overrides: {env: [{name: LLSD_VLLM_API_KEY, value: plain}]}}\n", configMaps: nil,
			want: []string{`LLSD_VLLM_API_KEY is set by spec.providers.inference[0].apiKey`}},
		{reason: "replicas on sqlite: each would have its own state",
			spec: `  distribution: {name: starter}
  workload: {replicas: 2}
`, configMaps: nil,
			want: []string{"spec.workload.replicas: Invalid value: 2: 2 replicas would each keep their own registry, conversations and stores in kv_default (kv_sqlite) and sql_default (sql_sqlite)"}},
		{reason: "replicas with shared state, but a ReadWriteOnce volume",
			spec: "  distribution: {name: starter}\n" + shared + "  workload: {replicas: 2, storage: {size: 1Gi}}\n", configMaps: nil,
			want: []string{"spec.workload.replicas: Invalid value: 2: spec.workload.storage is a ReadWriteOnce volume"}},
		{reason: "replicas with shared state: files and local vector stores stay per replica, with a warning",
			spec: "  distribution: {name: starter}\n" + shared + "  workload: {replicas: 2}\n", configMaps: nil,
			want: []string{"warning: spec.workload.replicas: 2 replicas do not share the files of files provider builtin-files (inline::localfs)"}},
		{reason: "an autoscaler on CPU without CPU requests runs at its minimum, a warning (the refusal rule)",
			spec: "  distribution: {name: starter}\n" + shared + "  workload: {autoscaling: {maxReplicas: 3, targetMemoryUtilizationPercentage: 70, targetCPUUtilizationPercentage: 70}, resources: {requests: {memory: 1Gi}}}\n", configMaps: nil,
			want: []string{"warning: spec.workload.resources.requests.cpu: the autoscaler scales on cpu utilization, a share of the cpu request, which is not set: the server runs at its minimum of 1"}},
		{reason: "an Ingress's own certificate without a host, which the API server refuses",
			spec: "  distribution: {name: starter}\n  networking: {expose: {tlsSecretName: edge}}\n", configMaps: nil,
			want: []string{"spec.networking.expose.hostname: Required value: the Ingress serves TLS with Secret edge, and an Ingress serves TLS only for a host"}},
		{reason: "replicas beyond the autoscaler's minimum, which owns the count",
			spec: "  distribution: {name: starter}\n" + shared + "  workload: {replicas: 3, autoscaling: {minReplicas: 2, maxReplicas: 4}, resources: {requests: {cpu: '1'}}}\n", configMaps: nil,
			want: []string{"warning: spec.workload.replicas: the autoscaler owns the replica count (2 to 4), so replicas: 3 is not written to the Deployment"}},
		{reason: "TLS through an Ingress without a host",
			spec: `  distribution: {name: starter}
  networking: {tls: {enabled: true, secretName: t}, expose: true}
`, configMaps: nil,
			want: []string{"spec.networking.expose.hostname: Required value: the server speaks TLS, and an Ingress serves TLS only for a host"}},
		{reason: "an ingress class llsd cannot tell about HTTPS",
			spec: `  distribution: {name: starter}
  networking: {tls: {enabled: true, secretName: t}, expose: {hostname: a.example.com}}
`, configMaps: nil,
			want: []string{`warning: spec.networking.expose: the server speaks HTTPS, and llsd does not know how ingress class "traefik" is told so`}},
		{reason: "a Route for a wildcard host, which OpenShift's Route schema refuses",
			spec: `  distribution: {name: starter}
  networking: {expose: {route: true, hostname: '*.apps.example.com'}}
`, configMaps: nil,
			want: []string{`spec.networking.expose.hostname: Invalid value: "*.apps.example.com": a Route serves one host, not a wildcard`}},
		{reason: "a Route without a host: the router assigns one (and the server, exposed, authenticates nobody)",
			spec: `  distribution: {name: starter}
  networking: {expose: {route: true}}
`, configMaps: nil, want: []string{"warning: spec.networking.expose: the server is exposed outside the cluster (a Route) and authenticates nobody"}},
		{reason: "an annotation key the API server rejects",
			spec: `  distribution: {name: starter}
  networking: {expose: {hostname: a.example.com, annotations: {'bad key': x}}}
`, configMaps: nil,
			want: []string{"spec.networking.expose.annotations: Invalid value: \"bad key\""}},
		{reason: "a namespace label value longer than a label value may be (the CRD's pattern cannot count)",
			spec: "  distribution: {name: starter}\n  networking: {allowedFrom: {labels: ['team=" + strings.Repeat("x", 64) + "']}}\n", configMaps: nil,
			want: []string{"spec.networking.allowedFrom.labels[0]: Invalid value: \"team=xxx", "must be no more than 63 characters"}},
		{reason: "a namespace name no namespace can have (the upstream operator's sample writes nsA)",
			spec: `  distribution: {name: starter}
  networking: {allowedFrom: {namespaces: [nsA, team-b, '*']}}
`, configMaps: nil,
			want: []string{`warning: spec.networking.allowedFrom.namespaces[0]: no namespace can be called "nsA", so this entry admits nothing: a namespace name is a lowercase DNS label (did you mean nsa?)`}},
		{reason: "a CA bundle key its ConfigMap, among the inputs, does not have",
			spec: `  distribution: {name: starter}
  networking: {tls: {caBundle: {configMapName: ca, configMapKeys: [a.pem, b.pem]}}}
`,
			configMaps: map[string]map[string]string{"ai/ca": {"a.pem": "-----BEGIN CERTIFICATE-----"}},
			want:       []string{`spec.networking.tls.caBundle.configMapKeys[1]: Not found: "b.pem"`}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			_, problems := renderSpec(t, "s", tc.spec, tc.configMaps)
			for _, want := range tc.want {
				assert.True(t, containsLine(problems, want), "%s: want %q in\n%s", tc.reason, want, strings.Join(problems, "\n"))
			}
			if tc.want == nil {
				assert.Empty(t, problems, tc.reason)
			}
		})
	}
}

func containsLine(lines []string, want string) bool {
	for _, l := range lines {
		if strings.Contains(l, want) {
			return true
		}
	}
	return false
}

// The longest name the CRD allows keeps every rendered name valid, and no shorter limit would
// do: the longest suffix takes exactly the rest of 63 characters.
func TestLongestNameFits(t *testing.T) {
	name := "a" + strings.Repeat("b", v1alpha2.MaxNameLength-1)
	out, problems := renderSpec(t, name, "  distribution: {name: starter}\n"+
		"  storage: {kv: {type: redis, endpoint: 'r:6379'}, sql: {type: postgres, connectionString: {secretKeyRef: {name: p, key: u}}}}\n"+
		"  networking: {expose: {hostname: a.example.com}, allowedFrom: {namespaces: [x]}}\n"+
		"  workload: {autoscaling: {maxReplicas: 2}, resources: {requests: {cpu: '1'}}, podDisruptionBudget: {maxUnavailable: 1}}\n", nil)
	require.Empty(t, filterErrors(problems))
	longest := 0
	for _, o := range out.Objects {
		assert.Empty(t, validation.IsDNS1123Subdomain(o.GetName()), o.GetName())
		if o.GetObjectKind().GroupVersionKind().Kind == "ConfigMap" {
			continue // a subdomain of up to 253 characters
		}
		assert.Empty(t, validation.IsDNS1123Label(o.GetName()), o.GetName())
		longest = max(longest, len(o.GetName())-len(name))
	}
	assert.Equal(t, 63-v1alpha2.MaxNameLength, longest, "MaxNameLength leaves room for exactly the longest suffix")
}

func filterErrors(problems []string) []string {
	var errs []string
	for _, p := range problems {
		if !strings.HasPrefix(p, "warning: ") {
			errs = append(errs, p)
		}
	}
	return errs
}

// The init container that merges a CA bundle of several keys produces one file with all of
// them, run as the pod runs it (paths moved into a temporary directory).
func TestCABundleMergeRuns(t *testing.T) {
	out, problems := renderSpec(t, "ca", "  distribution: {name: starter}\n"+
		"  networking: {tls: {caBundle: {configMapName: ca, configMapKeys: [root.pem, sub.pem]}}}\n", nil)
	require.Empty(t, problems)
	var dep *appsv1.Deployment
	for _, o := range out.Objects {
		if d, ok := o.(*appsv1.Deployment); ok {
			dep = d
		}
	}
	require.Len(t, dep.Spec.Template.Spec.InitContainers, 2, "the merge, and the cache's seed")
	require.Equal(t, "ca-bundle", dep.Spec.Template.Spec.InitContainers[0].Name)
	dir := t.TempDir()
	move := strings.NewReplacer("/etc/ssl/certs", dir)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "ca-bundle"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "llsd"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ca-bundle", "root.pem"), []byte("ROOT\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ca-bundle", "sub.pem"), []byte("SUB\n"), 0o644))
	command := dep.Spec.Template.Spec.InitContainers[0].Command
	for i := range command {
		command[i] = move.Replace(command[i])
	}
	require.NoError(t, exec.Command(command[0], command[1:]...).Run())
	var file string
	for _, e := range dep.Spec.Template.Spec.Containers[0].Env {
		if e.Name == "SSL_CERT_FILE" {
			file = move.Replace(e.Value)
		}
	}
	merged, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Equal(t, "ROOT\nSUB\n", string(merged))
}
