// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/pkg/api"
)

// A number or boolean written unquoted where a string goes says to quote it, with the value as
// YAML read it; YAML drops a version's .0, so both readings are offered; a credential-named
// field's value is not shown.
func TestUnquotedValuesAreSaid(t *testing.T) {
	for _, tc := range []struct{ reason, field, want string }{
		{"a version YAML reads as a number", `distribution: {name: starter, serverVersion: 0.7}`,
			`spec.distribution.serverVersion: Invalid value: "number": must be of type string, and YAML reads an unquoted 0.7 as a number or boolean: write it in quotes, "0.7"`},
		{"1.0, which YAML reads as 1", `distribution: {name: starter, serverVersion: 1.0}`,
			`spec.distribution.serverVersion: Invalid value: "number": must be of type string, and YAML reads an unquoted number as a number (1.0 as 1): write it in quotes as you mean it, "1" or "1.0"`},
		{"a credential-named field", "distribution: {name: starter}\n  workload: {pod: {annotations: {token: 12345}}}",
			`spec.workload.pod.annotations[token]: Invalid value: "number": must be of type string, and YAML reads the value unquoted as a number or boolean: write it in quotes`},
	} {
		_, errs := api.Decode([]byte("apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s}\nspec:\n  " + tc.field + "\n"))
		assert.Contains(t, errs.ToAggregate().Error(), tc.want, tc.reason)
		assert.NotContains(t, errs.ToAggregate().Error(), "12345", tc.reason)
	}
}
