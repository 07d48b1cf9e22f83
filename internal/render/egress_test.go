// SPDX-License-Identifier: Apache-2.0

package render_test

import (
	"testing"

	"github.com/llamastack/llsd/internal/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	networkingv1 "k8s.io/api/networking/v1"
)

// With egress limited, the NetworkPolicy admits DNS, the namespaces of the in-cluster
// endpoints the spec names (providers', named storage backends') and literal addresses; the
// endpoints no rule can name are listed in a warning, the database of a connection string in
// a Secret among them.
func TestEgressNamesWhatItCannotAdmit(t *testing.T) {
	out, problems := renderSpec(t, "locked", `  distribution: {name: starter}
  providers:
    inference:
    - {id: vllm, provider: vllm, endpoint: "http://vllm.models.svc:8000/v1"}
    - {id: openai, provider: openai, endpoint: "https://api.openai.com/v1"}
  storage:
    sql: {type: postgres, connectionString: {secretKeyRef: {name: pg, key: url}}}
  networking:
    egress: {}
`, nil)
	assert.Equal(t, []string{"warning: spec.networking.egress: the NetworkPolicy lets the server reach in-cluster services, literal " +
		"addresses and cidrs, and no host name outside the cluster: api.openai.com (spec.providers.inference[1].endpoint), " +
		"the database of spec.storage.sql.connectionString (its address is in a Secret): add their networks to " +
		"networking.egress.cidrs (or write in-cluster services as <service>.<namespace>.svc)"}, problems)
	assert.Contains(t, egressNamespaces(t, out), "models")
}

// Named Postgres backends are endpoints like any other: an in-cluster host admits its namespace.
func TestEgressAdmitsNamedBackends(t *testing.T) {
	out, problems := renderSpec(t, "shared", `  distribution: {name: starter}
  storage:
    backends:
      kv_default: {type: kv_postgres, host: pg.db.svc, user: ogx}
      sql_default: {type: sql_postgres, host: pg.db.svc, port: 6432, user: ogx}
  networking:
    egress: {}
`, nil)
	require.Empty(t, problems)
	assert.Contains(t, egressNamespaces(t, out), "db")
}

// egressNamespaces are the namespaces the NetworkPolicy's egress rules admit by name.
func egressNamespaces(t *testing.T, out render.Output) []string {
	t.Helper()
	var names []string
	for _, o := range out.Objects {
		policy, ok := o.(*networkingv1.NetworkPolicy)
		if !ok {
			continue
		}
		for _, rule := range policy.Spec.Egress {
			for _, peer := range rule.To {
				if peer.NamespaceSelector != nil {
					if name := peer.NamespaceSelector.MatchLabels["kubernetes.io/metadata.name"]; name != "" {
						names = append(names, name)
					}
				}
			}
		}
		return names
	}
	t.Fatal("no NetworkPolicy")
	return nil
}
