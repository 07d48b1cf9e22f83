// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/krm"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
)

// The errors and warnings about an OGXServer name its own fields, in the paths and in the
// fixes: an OGXServer's author cannot set a field only a LlamaStackDistribution has.
func TestOGXServerMessagesNameItsOwnFields(t *testing.T) {
	for _, tc := range []struct{ reason, spec string }{
		{reason: "replicas with state per pod and a ReadWriteOnce volume",
			spec: "distribution: {name: starter}\n    workload: {replicas: 2, storage: {size: 5Gi}}"},
		{reason: "a setting of a later server on a named backend",
			spec: "distribution: {name: starter}\n    storage: {backends: {kv_default: {type: kv_postgres, host: pg, user: u}, sql_default: {type: sql_postgres, host: pg, user: u, sslMode: require}}}"},
		{reason: "an image whose tag names no version",
			spec: "distribution: {image: 'registry.example.com/ogx/custom:latest'}"},
		{reason: "monitoring of a server that serves no metrics",
			spec: "distribution: {image: 'docker.io/ogxai/distribution-starter:1.1.0'}"},
		{reason: "exposed, authenticating nobody: the advice is an OGXServer's (round five)",
			spec: "distribution: {name: starter}\n    network: {externalAccess: {enabled: true, hostname: chat.example.com, tls: {secretName: chat-tls}}}"},
		{reason: "a hostname without enabled exposes nothing, and says so (round five)",
			spec: "distribution: {name: starter}\n    network: {externalAccess: {hostname: chat.example.com}}"},
		{reason: "a model of no provider, a replica count over the autoscaler's",
			spec: `distribution: {name: starter}
    resources: {models: [{name: m, provider: nope}]}
    workload: {replicas: 5, autoscaling: {minReplicas: 2, maxReplicas: 3, targetCPUUtilizationPercentage: 80}}`},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			input := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: ogx.io/v1beta1
  kind: OGXServer
  metadata: {name: chat, namespace: ai}
  spec:
    ` + tc.spec + "\n"
			out, _ := fn.Run(krm.Processor{Version: "test"}, []byte(input))
			rl, err := fn.ParseResourceList(out)
			require.NoError(t, err)
			require.NotEmpty(t, rl.Results, "the case says something")
			for _, r := range rl.Results {
				text := r.Message
				if r.Field != nil {
					text += " " + r.Field.Path
				}
				for _, path := range specPaths.FindAllString(text, -1) {
					assert.True(t, isOGXServerField(path), "%q names %s, which an OGXServer does not have", r.Message, path)
				}
			}
		})
	}
}

var specPaths = regexp.MustCompile(`\bspec(\.[A-Za-z]+(\[[^\]]*\])*)+`)

// isOGXServerField reports whether a path (spec.a.b[0].c) is a field of an OGXServer.
func isOGXServerField(path string) bool {
	t := reflect.TypeFor[ogx.OGXServer]()
	for _, name := range strings.Split(regexp.MustCompile(`\[[^\]]*\]`).ReplaceAllString(path, ""), ".") {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			if t.Kind() == reflect.Map {
				return true // keys of the user's own
			}
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return true // a value's own content (settings, raw JSON)
		}
		field, ok := jsonField(t, name)
		if !ok {
			return false
		}
		t = field.Type
	}
	return true
}

func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name {
			return f, true
		}
		if f.Anonymous && tag == "" {
			if inner, ok := jsonField(f.Type, name); ok {
				return inner, true
			}
		}
	}
	return reflect.StructField{}, false
}

// A fix an OGXServer's author reads is written in its fields (#56): a distribution's provider
// that needs an endpoint is added where an OGXServer lists its providers, not as an LLSD's
// {id, provider, endpoint}.
func TestOGXServerFixesAreInItsFields(t *testing.T) {
	input := `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: ogx.io/v1beta1
  kind: OGXServer
  metadata: {name: chat, namespace: ai}
  spec: {distribution: {name: remote-vllm}}
`
	out, _ := fn.Run(krm.Processor{Version: "test"}, []byte(input))
	rl, err := fn.ParseResourceList(out)
	require.NoError(t, err)
	require.NotEmpty(t, rl.Results)
	assert.Contains(t, rl.Results[0].Message, "add spec.providers.inference.remote.vllm: [{endpoint: ...}]")
	assert.NotContains(t, rl.Results[0].Message, "{id: vllm, provider: vllm")
}
