// SPDX-License-Identifier: Apache-2.0

package migrate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/pipeline"
)

// choices reads a fuzzer's bytes as a sequence of choices.
type choices []byte

func (c *choices) pick(n int) int {
	if len(*c) == 0 {
		return 0
	}
	b := (*c)[0]
	*c = (*c)[1:]
	return int(b) % n
}

// ogxServerOf builds an OGXServer from choices among the fields both APIs can say: typed and
// custom providers, models, legacy and named storage, disabled APIs, monitoring, NetworkPolicy rules,
// Praxis mode, replicas, workers, requests and a PVC.
func ogxServerOf(c choices) string {
	var b strings.Builder
	b.WriteString(`apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: fuzz, namespace: ai}
spec:
  distribution: {name: starter}
`)
	providers := []string{
		"vllm: [{endpoint: 'http://vllm:8000/v1', apiToken: {name: vllm, key: token}, maxTokens: 1024}]",
		"openai: [{apiKey: {name: openai, key: key}}]",
		"custom: [{id: ollama, type: 'remote::ollama', settings: {base_url: 'http://ollama:11434/v1'}}]",
		"vllm: [{id: a, endpoint: 'http://a:8000/v1'}, {id: b, endpoint: 'http://b:8000/v1', network: {tls: {verify: false}}}]",
	}
	p := c.pick(len(providers) + 1)
	if p > 0 {
		fmt.Fprintf(&b, "  providers: {inference: {remote: {%s}}}\n", providers[p-1])
		if c.pick(2) == 1 {
			b.WriteString("  resources: {models: [{name: m1, modelType: llm}]}\n")
		}
	}
	switch c.pick(5) {
	case 1:
		b.WriteString("  storage: {sql: {type: postgres, connectionString: {name: pg, key: url}}}\n")
	case 2:
		b.WriteString("  storage: {kv: {type: redis, endpoint: 'redis.cache.svc:6379'}, sql: {type: postgres, connectionString: {name: pg, key: url}}}\n")
	case 3:
		b.WriteString("  storage: {backends: {kv_default: {type: kv_postgres, host: pg.db.svc, user: ogx, password: {name: pg, key: password}, poolSize: 3}, " +
			"sql_default: {type: sql_postgres, host: pg.db.svc, port: '5433', user: ogx, password: {name: pg, key: password}, poolPrePing: false}}}\n")
	case 4:
		b.WriteString("  storage:\n    backends: {kv_default: {type: kv_postgres, host: pg.db.svc, user: ogx, tableName: kv}, " +
			"sql_default: {type: sql_postgres, host: pg.db.svc, user: ogx}, archive: {type: sql_postgres, host: archive.db.svc, user: ogx}}\n" +
			"    stores: {metadata: {backend: kv_default, namespace: registry}, inference: {backend: sql_default, tableName: inference_store, numWriters: 2}, " +
			"conversations: {backend: archive, tableName: conversations}, responses: {backend: archive}, prompts: {backend: sql_default, tableName: prompts}, " +
			"connectors: {backend: sql_default, tableName: connectors}, vectorStores: {backend: archive, tableName: vector_stores}}\n")
	}
	if c.pick(2) == 1 {
		b.WriteString("  disabledAPIs: [batches]\n")
	}
	switch c.pick(3) {
	case 1:
		b.WriteString("  monitoring: {enabled: false}\n")
	case 2:
		b.WriteString("  monitoring: {metricsPort: 9090}\n")
	}
	network := c.pick(3)
	switch network {
	case 1:
		b.WriteString("  network: {policy: {enabled: false}}\n")
	case 2:
		b.WriteString("  network: {port: 8080, policy: {ingress: [{from: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: apps}}}, {namespaceSelector: {matchExpressions: [{key: team, operator: Exists}]}}]}]}}\n")
	}
	// Praxis mode; not beside a rule admitting every namespace with a label, which a server that
	// believes the gateway's headers refuses
	if network != 2 {
		switch c.pick(3) {
		case 1:
			b.WriteString("  praxisMode: {}\n")
		case 2:
			b.WriteString("  praxisMode: {praxisSelector: {namespace: gateways, podSelector: {matchLabels: {app: praxis}}}}\n")
		}
	}
	b.WriteString("  workload:\n")
	fmt.Fprintf(&b, "    replicas: %d\n", 1+c.pick(1))
	if c.pick(2) == 1 {
		b.WriteString("    workers: 2\n")
	}
	if c.pick(2) == 1 {
		b.WriteString("    resources: {requests: {cpu: 500m, memory: 2Gi}}\n")
	}
	if c.pick(2) == 1 {
		b.WriteString("    storage: {size: 5Gi}\n")
	}
	return b.String()
}

// An OGXServer migrated to an LLSD and back renders the same config and pod as it did, whatever
// the combination of the fields both APIs can say.
func FuzzOGXServerRoundTrip(f *testing.F) {
	for _, seed := range [][]byte{{}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 0, 2, 0, 2, 2, 0, 1, 0, 1}, {3, 1, 0, 1, 1, 1, 0, 0, 1}, {4, 0, 1, 1, 2, 2, 1, 1, 1}, {1, 1, 3, 0, 0, 0, 0, 0, 0}, {2, 0, 4, 1, 1, 0, 0, 0, 0}, {1, 1, 3, 0, 1, 0, 1, 0, 0, 0}, {1, 1, 0, 1, 0, 1, 2, 0, 0, 0}} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc := ogxServerOf(choices(data))
		items, err := fn.ParseKubeObjects([]byte(doc))
		require.NoError(t, err)
		opts := pipeline.Options{RendererVersion: "test"}
		before, results := renderAll(items, opts)
		require.False(t, hasErrors(results), "%s\n%v", doc, results)
		asLLSD, results := migrate.Items(items, opts)
		require.False(t, hasErrors(results), "%s\n%v", doc, results)
		back, results := migrate.Items(asLLSD, opts)
		require.False(t, hasErrors(results), "%s\n%v", doc, results)
		assert.Empty(t, lossy(results, "ai/fuzz"), "nothing an OGXServer says is lost on the way: %s", doc)
		after, results := renderAll(back, opts)
		require.False(t, hasErrors(results), "%s\n%v", doc, results)
		b, a := before["ai/fuzz"], after["ai/fuzz"]
		assert.Equal(t, normalizeConfig(b), normalizeConfig(a), "the config: %s", doc)
		assert.Equal(t, normalizePod(b, false), normalizePod(a, false), "the pod: %s", doc)
	})
}
