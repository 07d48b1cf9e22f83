// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A value that reads a variable the pod sets itself to a plain value is the author's own, in a
// named backend as in settings; it is refused only when a Secret decides the variable (also
// through the kubelet's $(VAR)), or nothing sets it (#56: host: ${env.PGH} with PGH a literal
// was refused as if it read a Secret).
func TestValuesMayReadThePodsPlainVariables(t *testing.T) {
	stack := func(env string) string {
		return `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: s, namespace: ai}
spec:
  distribution: {name: starter}
  storage:
    backends:
      kv_default: {type: kv_postgres, host: "${env.PGH}", user: ogx, password: {secretKeyRef: {name: pg, key: password}}}
      sql_default: {type: sql_postgres, host: "${env.PGH}", user: ogx, password: {secretKeyRef: {name: pg, key: password}}}
  workload: {overrides: {env: ` + env + `}}
`
	}
	for _, tc := range []struct{ reason, env, err string }{
		{reason: "a literal of the pod", env: `[{name: PGH, value: pg.db.svc}]`},
		{reason: "a literal made of another literal", env: `[{name: DB_NS, value: db}, {name: PGH, value: "pg.$(DB_NS).svc"}]`},
		{reason: "nothing sets it", env: `[{name: OTHER, value: x}]`, err: `spec.storage.backends.kv_default.host: Invalid value: "${env.PGH}"`},
		{reason: "a Secret decides it", env: `[{name: PGH, valueFrom: {secretKeyRef: {name: db, key: host}}}]`, err: `Invalid value: "${env.PGH}"`},
		{reason: "literals that share what they expand", env: `[{name: NS, value: db}, {name: SVC, value: "pg.$(NS)"}, {name: DOMAIN, value: "$(NS).svc"}, {name: PGH, value: "$(SVC).$(DOMAIN)"}]`},
		{reason: "a variable that names itself: refused, not an endless recursion", env: `[{name: PGH, value: "$(PGH)"}]`,
			err: `Invalid value: "${env.PGH}"`},
		{reason: "a cycle of variables: refused", env: `[{name: A, value: "$(PGH)"}, {name: PGH, value: "$(A)"}]`,
			err: `Invalid value: "${env.PGH}"`},
		{reason: "a literal that expands a Secret's variable", env: `[{name: H, valueFrom: {secretKeyRef: {name: db, key: host}}}, {name: PGH, value: "$(H)"}]`,
			err: `Invalid value: "${env.PGH}"`},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			res, errs := generateDoc(t, stack(tc.env))
			if tc.err != "" {
				assert.Contains(t, errs.ToAggregate().Error(), tc.err)
				return
			}
			require.Empty(t, errs)
			assert.Contains(t, string(res.Config), "host: ${env.PGH}")
		})
	}
}
