// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

const header = `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s}
`

func TestDecodeShorthand(t *testing.T) {
	cases := map[string]struct {
		reason string
		spec   string
		want   string // the canonical spec, as YAML
	}{
		"single provider object": {
			reason: "a provider written as an object is a list of one",
			spec: `distribution: {name: starter}
providers:
  inference: {provider: vllm, endpoint: 'http://vllm:8000/v1'}`,
			want: `distribution:
  name: starter
providers:
  inference:
  - endpoint: http://vllm:8000/v1
    provider: vllm
`,
		},
		"model strings": {
			reason: "a model written as a string is its name",
			spec: `distribution: {name: starter}
resources:
  models: [llama3, {name: big, contextLength: 128000}]`,
			want: `distribution:
  name: starter
resources:
  models:
  - name: llama3
  - contextLength: 128000
    name: big
`,
		},
		"expose true": {
			reason: "expose: true is expose: {enabled: true}",
			spec: `distribution: {name: starter}
networking: {expose: true}`,
			want: `distribution:
  name: starter
networking:
  expose:
    enabled: true
`,
		},
		"expose false": {
			reason: "expose: false is expose: {enabled: false}",
			spec: `distribution: {name: starter}
networking: {expose: false}`,
			want: `distribution:
  name: starter
networking:
  expose:
    enabled: false
`,
		},
		"expose empty object": {
			reason: "expose: {} means enabled",
			spec: `distribution: {name: starter}
networking: {expose: {hostname: llama.example.com}}`,
			want: `distribution:
  name: starter
networking:
  expose:
    enabled: true
    hostname: llama.example.com
`,
		},
		"storage types default": {
			reason: "a storage backend without a type is sqlite, as the CRD defaults it",
			spec: `distribution: {name: starter}
storage: {kv: {}}`,
			want: `distribution:
  name: starter
storage:
  kv:
    type: sqlite
`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			obj, errs := api.Decode([]byte(header + "spec:\n" + indent(tc.spec)))
			require.Empty(t, errs, tc.reason)
			got, err := yaml.Marshal(obj.Spec)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got), tc.reason)
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := map[string]struct {
		reason string
		doc    string
		field  string
		detail string
	}{
		"misspelled group": {
			reason: "the seeds also wrote llamastack.ai; say which group is right",
			doc: `apiVersion: llamastack.ai/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s}
spec: {distribution: {name: starter}}`,
			field: "apiVersion", detail: "write apiVersion: llamastack.io/v1alpha2",
		},
		"a group of the author's making, an operator's version": {
			reason: "READMEs and tests publish llama-stack.io and llamastack.rhoai.opendatahub.io too: any other group gets the right one",
			doc: `apiVersion: llamastack.rhoai.opendatahub.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: s}
spec: {server: {distribution: {name: starter}}}`,
			field: "apiVersion", detail: "the API group of LlamaStackDistribution is llamastack.io: write apiVersion: llamastack.io/v1alpha1",
		},
		"a group and a version of the author's making, a v1alpha1 spec": {
			reason: "the version to write is the one the spec is shaped for: spec.server is v1alpha1's",
			doc: `apiVersion: llama.ai/v1
kind: LlamaStackDistribution
metadata: {name: s}
spec: {server: {distribution: {name: starter}}}`,
			field: "apiVersion", detail: "write apiVersion: llamastack.io/v1alpha1",
		},
		"a group and a version of the author's making, a v1alpha2 spec": {
			reason: "without spec.server the spec is v1alpha2's",
			doc: `apiVersion: llama-stack.io/v1
kind: LlamaStackDistribution
metadata: {name: s}
spec: {distribution: {name: starter}}`,
			field: "apiVersion", detail: "write apiVersion: llamastack.io/v1alpha2",
		},
		"a typo in a map's value": {
			reason: "a named backend's fields are suggested like any other's",
			doc: header + `spec:
  distribution: {name: starter}
  storage:
    backends:
      kv_default: {type: kv_postgres, hostname: pg, user: u, password: {secretKeyRef: {name: pg, key: p}}}`,
			field: "spec.storage.backends.kv_default.hostname", detail: `unknown field "hostname" (did you mean host?)`,
		},
		"the right group, a version llsd does not serve": {
			reason: "the versions served are listed",
			doc: `apiVersion: llamastack.io/v1beta1
kind: LlamaStackDistribution
metadata: {name: s}
spec: {distribution: {name: starter}}`,
			field: "apiVersion", detail: `supported values: "llamastack.io/v1alpha2", "llamastack.io/v1alpha1"`,
		},
		"unknown provider field": {
			reason: "a config key next to provider belongs under settings or secretRefs",
			doc: header + `spec:
  distribution: {name: starter}
  providers:
    vectorIo: {provider: pgvector, host: db}`,
			field: "spec.providers.vectorIo[0].host", detail: "put other config keys under settings and credentials under secretRefs",
		},
		"misspelled field": {
			reason: "a typo is reported with its path and the field meant",
			doc: header + `spec:
  distribution: {name: starter}
  networkin: {port: 80}`,
			field: "spec.networkin", detail: `Unsupported value: unknown field "networkin" (did you mean networking?)`,
		},
		"singular of a list field": {
			reason: "configMapKey is configMapKeys",
			doc: header + `spec:
  distribution: {name: starter}
  networking: {tls: {caBundle: {configMapName: ca, configMapKey: a.pem}}}`,
			field: "spec.networking.tls.caBundle.configMapKey", detail: "(did you mean configMapKeys?): the fields here are configMapName, configMapNamespace, configMapKeys",
		},
		"a v1alpha1 field in a v1alpha2 object": {
			reason: "spec.server is v1alpha1's; its providers belong one level up",
			doc: header + `spec:
  distribution: {name: starter}
  server: {providers: {inference: {provider: vllm}}}`,
			field: "spec.server", detail: "spec.server is a field of llamastack.io/v1alpha1; in v1alpha2 its content is in spec.distribution, spec.networking and spec.workload (write spec.providers: one level up)",
		},
		"a field one level too high": {
			reason: "a documentation page wrote spec.image; the image is the distribution's",
			doc:    header + "spec:\n  image: registry.example.com/stack:v1",
			field:  "spec.image", detail: `unknown field "image" (did you mean spec.distribution.image?)`,
		},
		"... in v1alpha1": {
			reason: "v1alpha1 keeps the distribution under spec.server",
			doc: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: s}
spec:
  image: registry.example.com/stack:v1`,
			field: "spec.image", detail: `unknown field "image" (did you mean spec.server.distribution.image?)`,
		},
		"a pod field only v1alpha2 has": {
			reason: "tolerations are v1alpha2's spec.workload.pod.tolerations; v1alpha1 has no place for them",
			doc: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: s}
spec:
  tolerations: [{key: gpu, operator: Exists}]`,
			field: "spec.tolerations", detail: "llamastack.io/v1alpha2 has it, at spec.workload.pod.tolerations; v1alpha1 does not",
		},
		"wrong type": {
			reason: "a string where a number belongs names the field and the type",
			doc: header + `spec:
  distribution: {name: starter}
  networking: {port: eighty}`,
			field: "spec.networking.port", detail: "must be of type integer",
		},
		"no name": {
			reason: "rendering needs a name",
			doc: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
spec: {distribution: {name: starter}}`,
			field: "metadata.name", detail: "needs a name",
		},
		"empty env value is fine but empty tool is not": {
			reason: "explicit empties are checked outside embedded Kubernetes types only",
			doc: header + `spec:
  distribution: {name: starter}
  resources: {tools: ['']}
  workload: {overrides: {env: [{name: A, value: ''}]}}`,
			field: "spec.resources.tools[0]", detail: "should be at least 1 chars long",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, errs := api.Decode([]byte(tc.doc))
			require.Len(t, errs, 1, tc.reason)
			assert.Equal(t, tc.field, errs[0].Field, tc.reason)
			assert.Contains(t, errs[0].Error(), tc.detail, tc.reason)
		})
	}
}

// A reference page's placeholders ("replicas: integer", "cpu: string") are reported all at
// once, each at its own path: a quantity's own parser says neither which field nor where.
func TestDecodeReportsEveryBadValue(t *testing.T) {
	doc := `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: s}
` +
		`spec:
  replicas: integer
  server:
    distribution: {name: starter}
` +
		`    containerSpec: {resources: {requests: {cpu: string, memory: 1Gi}}}
    storage: {size: big}
`
	_, errs := api.Decode([]byte(doc))
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	assert.Equal(t, []string{
		`spec.replicas: Invalid value: "string": must be of type integer`,
		`spec.server.containerSpec.resources.requests[cpu]: Invalid value: "string": must be a quantity such as 500m, 2, 512Mi or 10Gi`,
		`spec.server.storage.size: Invalid value: "big": must be a quantity such as 500m, 2, 512Mi or 10Gi`,
	}, got)
}

// An empty value the schema refuses is reported together with every other problem of the
// object, each once, and two problems of one field both.
func TestDecodeReportsEmptyValuesWithTheOtherProblems(t *testing.T) {
	doc := header + `spec:
  distribution: {name: starter}
  providers:
    inference: [{provider: remote::vllm, endpoint: ""}]
  resources: {models: [llama3]}
  overrideConfig: {configMapName: mine}
`
	_, errs := api.Decode([]byte(doc))
	var got []string
	for _, e := range errs {
		got = append(got, e.Field+": "+e.ErrorBody())
	}
	assert.ElementsMatch(t, []string{
		`spec.providers.inference[0].endpoint: Invalid value: "": spec.providers.inference[0].endpoint in body should be at least 1 chars long`,
		"spec.overrideConfig: Forbidden: overrideConfig and providers are mutually exclusive: overrideConfig replaces the whole config.yaml, so remove providers or remove overrideConfig",
		"spec.overrideConfig: Forbidden: overrideConfig and resources are mutually exclusive: overrideConfig replaces the whole config.yaml, so remove resources or remove overrideConfig",
	}, got)
}

// A credential written where an object belongs is named by its type, never shown.
func TestAMisplacedCredentialIsNotShown(t *testing.T) {
	doc := header + `spec:
  distribution: {name: starter}
  telemetry: {headers: 'Authorization=Bearer S3NT1NEL'}
` +
		"  workload: {replicas: S3NT1NEL}\n"
	_, errs := api.Decode([]byte(doc))
	var typeErrors int
	for _, e := range errs {
		assert.NotContains(t, e.Error(), "S3NT1NEL")
		if strings.Contains(e.Error(), `Invalid value: "string": must be of type`) {
			typeErrors++
		}
	}
	assert.Equal(t, 2, typeErrors, "each misplaced credential is named by its type: %v", errs)
}

// TestUpstreamSampleRoundTrips decodes v1alpha1 objects in the shapes the operator's users write, converts them to
// v1alpha2 and back, and checks the YAML is unchanged.
func TestUpstreamSampleRoundTrips(t *testing.T) {
	for _, name := range []string{"v1alpha1-workload", "v1alpha1-network-and-ca"} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("testdata/valid/" + name + ".yaml")
			require.NoError(t, err)
			var spoke v1alpha1.LlamaStackDistribution
			require.NoError(t, yaml.UnmarshalStrict(data, &spoke))

			hub := &v1alpha2.LlamaStackDistribution{}
			require.NoError(t, spoke.DeepCopy().ConvertTo(hub))
			require.Empty(t, v1alpha2.Validate(hub), "a converted upstream sample is a valid v1alpha2 object")
			back := &v1alpha1.LlamaStackDistribution{TypeMeta: spoke.TypeMeta}
			require.NoError(t, back.ConvertFrom(hub))

			want, _ := yaml.Marshal(&spoke)
			got, _ := yaml.Marshal(back)
			assert.Equal(t, string(want), string(got))
			assert.Empty(t, back.Annotations, "no conversion annotation is left on the round-tripped object")
		})
	}
}

// TestEditInOtherVersionKeepsHubFields: a v1alpha2 object read and edited as v1alpha1 keeps
// its providers and gets the edit.
func TestEditInOtherVersionKeepsHubFields(t *testing.T) {
	hub, errs := api.Decode([]byte(header + `spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm}
  workload: {replicas: 2}`))
	require.Empty(t, errs)
	spoke := &v1alpha1.LlamaStackDistribution{}
	require.NoError(t, spoke.ConvertFrom(hub))
	require.Contains(t, spoke.Annotations, v1alpha1.V1alpha2FieldsAnnotation)

	spoke.Spec.Replicas = 3 // the edit, made through v1alpha1

	again := &v1alpha2.LlamaStackDistribution{}
	require.NoError(t, spoke.ConvertTo(again))
	assert.Equal(t, int32(3), *again.Spec.Workload.Replicas, "the v1alpha1 edit wins")
	assert.Equal(t, hub.Spec.Providers, again.Spec.Providers, "providers survive the v1alpha1 edit")
	assert.NotContains(t, again.Annotations, v1alpha1.V1alpha2FieldsAnnotation)
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}

// A namespace the API server would refuse is an error at render time too.
func TestValidateNamespace(t *testing.T) {
	obj, errs := api.Decode([]byte(`apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
` +
		"metadata: {name: s, namespace: team.ai}\nspec: {distribution: {name: starter}}"))
	require.Empty(t, errs)
	errs = v1alpha2.Validate(obj)
	require.Len(t, errs, 1)
	assert.Equal(t, "metadata.namespace", errs[0].Field)
}

// Rendering refuses the conversion annotations a conversion would not accept as they are:
// what a v1alpha1 reader of the applied object would see must be what the file says.
func TestDecodeRefusesForgedConversionAnnotations(t *testing.T) {
	for name, tc := range map[string]struct {
		reason, doc, want string
	}{
		"hidden v1alpha1 spec": {
			reason: "a v1alpha1 spec with another image than the v1alpha2 spec shows",
			doc: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: s
  annotations:
    llamastack.io/v1alpha1-fields: ` +
				`'{"spec":{"replicas":1,"server":{"distribution":{"image":"evil.example.com/x:1"},"containerSpec":{"name":"llama-stack"}}},"fingerprint":"x"}'` +
				`
spec: {distribution: {name: starter}}
`,
			want: "metadata.annotations[llamastack.io/v1alpha1-fields]: Invalid value: holds a v1alpha1 spec that says something else",
		},
		"v1alpha1 container name": {
			reason: "a container name a v1alpha1 create refuses",
			doc: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: s
  annotations:
    llamastack.io/v1alpha1-fields: ` +
				`'{"spec":{"replicas":1,"server":{"distribution":{"name":"starter"},"containerSpec":{"name":"Not A Label"}}},"fingerprint":"x"}'` +
				`
spec: {distribution: {name: starter}}
`,
			want: "spec.server.containerSpec.name: a lowercase RFC 1123 label",
		},
		"v1alpha2 fields on a v1alpha2 object": {
			reason: "only a v1alpha1 object carries the v1alpha2 fields",
			doc: `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: s
  annotations:
    llamastack.io/v1alpha2-fields: '{}'
` +
				"spec: {distribution: {name: starter}}\n",
			want: "metadata.annotations[llamastack.io/v1alpha2-fields]: Forbidden",
		},
		"v1alpha1 fields on a v1alpha1 object": {
			reason: "only a v1alpha2 object carries the v1alpha1 fields",
			doc: `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata:
  name: s
  annotations:
    llamastack.io/v1alpha1-fields: '{}'
` +
				"spec: {server: {distribution: {name: starter}}}\n",
			want: "metadata.annotations[llamastack.io/v1alpha1-fields]: Forbidden",
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, errs := api.Decode([]byte(tc.doc))
			require.NotEmpty(t, errs, tc.reason)
			assert.Contains(t, errs.ToAggregate().Error(), tc.want, tc.reason)
		})
	}
}

// What a v1alpha1 object's v1alpha2-fields annotation sets beyond the object's own fields is
// said, field by field (F11): a hand-written annotation would add a telemetry endpoint and
// control-plane scheduling that a reviewer of the v1alpha1 fields never sees. An object without
// the annotation, or whose annotation adds nothing, decodes without a word.
func TestDecodeSaysWhatTheV1alpha2FieldsAnnotationAdds(t *testing.T) {
	const plain = `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata:
  name: s
%s` +
		"spec: {server: {distribution: {name: starter}}}\n"
	forged := fmt.Sprintf(plain, "  annotations:\n    llamastack.io/v1alpha2-fields: '"+
		`{"spec":{"distribution":{"name":"starter"},"telemetry":{"endpoint":"http://otel.example:4318"},`+
		`"externalProviders":{"inference":[{"providerId":"x","image":"registry.example/x:1","module":"x","providerType":"remote::x"}]},`+
		`"workload":{"pod":{"tolerations":[{"key":"node-role.kubernetes.io/control-plane","operator":"Exists"}]}}},"fingerprint":"x"}'`+"\n")
	obj, warnings, errs := api.DecodeWithWarnings([]byte(forged))
	require.Empty(t, errs)
	require.NotNil(t, obj.Spec.Telemetry, "the conversion keeps what the annotation says")
	require.Len(t, warnings, 1)
	assert.Equal(t, "metadata.annotations[llamastack.io/v1alpha2-fields]", warnings[0].Field)
	assert.Contains(t, warnings[0].Message, "sets spec.externalProviders, spec.telemetry, spec.workload.pod, which the v1alpha1 fields of this object do not show")

	for reason, doc := range map[string]string{
		"no annotation": fmt.Sprintf(plain, ""),
		"an annotation that adds nothing": fmt.Sprintf(plain, "  annotations:\n    llamastack.io/v1alpha2-fields: '"+
			`{"spec":{"distribution":{"name":"starter"}},"fingerprint":"x"}'`+"\n"),
	} {
		_, warnings, errs := api.DecodeWithWarnings([]byte(doc))
		require.Empty(t, errs, reason)
		assert.Empty(t, warnings, reason)
	}
}

// A Secret reference written as an OGXServer writes one ({name, key}, without secretKeyRef) is
// told where its fields go, with the path as written.
func TestDecodeSuggestsTheSecretKeyRefAFieldBelongsIn(t *testing.T) {
	_, errs := api.Decode([]byte(header + `spec:
  distribution: {name: starter}
  providers:
    vectorIo:
      provider: pgvector
      endpoint: pg:5432/db
      secretRefs:
        user: {name: pg, key: user}
        password: {secretKeyRef: {name: pg, key: password}}`))
	var lines []string
	for _, e := range errs {
		lines = append(lines, e.Error())
	}
	assert.Contains(t, lines, `spec.providers.vectorIo[0].secretRefs.user.key: Unsupported value: unknown field "key" `+
		`(did you mean spec.providers.vectorIo[0].secretRefs.user.secretKeyRef.key?)`)
	assert.Contains(t, lines, `spec.providers.vectorIo[0].secretRefs.user.name: Unsupported value: unknown field "name" `+
		`(did you mean spec.providers.vectorIo[0].secretRefs.user.secretKeyRef.name?)`)
}
