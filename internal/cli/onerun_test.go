// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A mistake in each layer — a value of the wrong type, an unknown field, an unknown
// distribution, an unknown provider — is reported in one run, by render and validate alike:
// the values decoding refuses are left out and the rest is rendered for the errors of its
// other fields. What a refused value hides (checks of that value) is not reported.
func TestEveryLayerInOneRun(t *testing.T) {
	file := writeFile(t, t.TempDir(), "stack.yaml", `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: startr}
  providers:
    inference: {provider: vlm, endpont: "http://vllm:8000/v1"}
  workload:
    replicas: three
`)
	want := []string{
		`spec.workload.replicas: Invalid value: "string": must be of type integer`,
		`spec.providers.inference[0].endpont: Unsupported value: unknown field "endpont" (did you mean endpoint?)`,
		`spec.distribution.name: Invalid value: "startr": unknown distribution (did you mean starter?)`,
		`spec.providers.inference[0].provider: Invalid value: "vlm": no server version llsd supports has "vlm" among its inference providers (did you mean vllm?)`,
	}
	reportsEachOnce(t, file, want)
}

// An OGXServer alike: praxisMode of the wrong type hides neither the misspelt field nor the
// unknown distribution.
func TestEveryLayerInOneRunOfAnOGXServer(t *testing.T) {
	file := writeFile(t, t.TempDir(), "server.yaml", `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  praxisMode: true
  distribution: {name: startr}
  providers:
    inference:
      remote:
        vllm: [{id: v, endpoint: "http://vllm:8000/v1", maxTokns: 4096}]
`)
	code, _, stderr := run(t, "validate", file)
	assert.Equal(t, 1, code)
	for _, w := range []string{
		`spec.praxisMode: Invalid value: "bool": must be of type object`,
		`spec.providers.inference.remote.vllm[0].maxTokns: Unsupported value: unknown field "maxTokns" (did you mean maxTokens?)`,
		`spec.distribution.name: Invalid value: "startr": unknown distribution (did you mean starter?)`,
	} {
		assert.Contains(t, stderr, w)
	}

	// its own rules' layer too: an unknown field and an enum value of a list refused hide
	// neither the unknown distribution (#56)
	file = writeFile(t, t.TempDir(), "server.yaml", `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: startr}
  bogus: 1
  disabledAPIs: [telemetryx]
`)
	code, _, stderr = run(t, "validate", file)
	assert.Equal(t, 1, code)
	for _, w := range []string{`spec.bogus: Unsupported value: unknown field "bogus"`, `spec.disabledAPIs[0]: Unsupported value: "telemetryx"`,
		`spec.distribution.name: Invalid value: "startr": unknown distribution (did you mean starter?)`} {
		assert.Contains(t, stderr, w)
	}
}

// A v1alpha1 object alike, in its own paths: replicas of the wrong type hides neither the
// misspelt field nor the unknown distribution; and what only follows from a refused value (a
// distribution without a name, once its name of the wrong type is left out) is not said.
func TestEveryLayerInOneRunOfAV1alpha1Object(t *testing.T) {
	file := writeFile(t, t.TempDir(), "stack.yaml", `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  replicas: three
  server:
    distribution: {name: startr}
    containerSpec: {resourcs: {}}
---
apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: other, namespace: ai}
spec:
  server:
    distribution: {name: [starter]}
`)
	want := []string{
		`chat: spec.replicas: Invalid value: "string": must be of type integer`,
		`chat: spec.server.containerSpec.resourcs: Unsupported value: unknown field "resourcs" (did you mean resources?)`,
		`chat: spec.server.distribution.name: Invalid value: "startr": unknown distribution (did you mean starter?)`,
		`other: spec.server.distribution.name: Invalid value: "array": must be of type string`,
	}
	reportsEachOnce(t, file, want)
}

// reportsEachOnce runs llsd validate and render on file: each fails with every problem of
// want, and no other problem about a spec field.
func reportsEachOnce(t *testing.T, file string, want []string) {
	t.Helper()
	for _, command := range []string{"validate", "render"} {
		code, _, stderr := run(t, command, file)
		assert.Equal(t, 1, code)
		for _, w := range want {
			assert.Contains(t, stderr, w, "llsd %s", command)
		}
		assert.Equal(t, len(want), strings.Count(stderr, ": spec."), "llsd %s: each problem once, none that follows from another:\n%s", command, stderr)
	}
}

// A config that cannot be generated does not hide what the spec alone says is wrong: an
// OGXServer that disables an API others need, and runs two replicas on a volume that attaches
// to one node, hears of both in one run, in its own words.
func TestAGenerationErrorHidesNoSpecError(t *testing.T) {
	file := writeFile(t, t.TempDir(), "server.yaml", `apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  disabledAPIs: [vector_io]
  workload: {replicas: 2, storage: {size: 5Gi}}
`)
	code, _, stderr := run(t, "validate", file)
	assert.Equal(t, 1, code)
	for _, w := range []string{
		`spec.disabledAPIs[0]: Invalid value: "vector_io": responses needs vector_io, so the server would not start`,
		`spec.workload.replicas: Invalid value: 2: spec.workload.storage is a ReadWriteOnce volume, which attaches to one node`,
	} {
		assert.Contains(t, stderr, w)
	}
	assert.NotContains(t, stderr, "accessModes", "an OGXServer's volume has no access modes")
}
