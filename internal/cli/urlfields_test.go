// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// urlLike names the spec's fields that hold a URL or a host: a credential written into one
// would be stored in clear (a ConfigMap, a Deployment), as a backend's host once stored
// pg.db.svc/?password=... (round four's F8).
var urlLike = regexp.MustCompile(`(?i)(endpoint|url|uri|host|hostname|issuer)$`)

// Every field of the spec that holds a URL or a host refuses a credential written into it, in
// each place a URL carries one (user info, a query or fragment parameter), and no front end
// shows it. The fields are found from the type, so a URL field the API gains fails here until
// a base below sets it and the render refuses what it must.
func TestEveryURLFieldRefusesACredential(t *testing.T) {
	bases := []string{`
  distribution: {name: starter, serverVersion: "1.3"}
  providers:
    inference: [{id: vllm, provider: vllm, endpoint: "http://vllm:8000/v1"}]
    vectorIo: [{id: pgvector, provider: pgvector, endpoint: "postgresql://pg.db.svc:5432/vectors",
      secretRefs: {user: {secretKeyRef: {name: v, key: u}}, password: {secretKeyRef: {name: v, key: p}}}}]
  resources:
    mcpServers: [{id: tools, url: "http://mcp.tools.svc:8000/sse"}]
  storage:
    backends:
      kv_default: {type: kv_postgres, host: pg.db.svc, user: ogx}
      sql_default: {type: sql_postgres, host: pg.db.svc, user: ogx}
  telemetry: {endpoint: "http://otel:4318"}
  networking: {expose: {hostname: llama.example.com}}
`, `
  distribution: {name: starter}
  storage: {kv: {type: redis, endpoint: "redis.cache.svc:6379"}}
`, `
  distribution: {name: starter}
  authentication:
    oidc:
      issuer: https://idp.example.com/realms/ai
      introspection: {url: "https://idp.example.com/introspect", clientID: llama, clientSecret: {secretKeyRef: {name: idp, key: secret}}}
`, `
  distribution: {name: starter}
  authentication:
    oidc: {issuer: "https://idp.example.com/realms/ai", jwksURI: "https://idp.example.com/certs"}
`, `
  distribution: {name: starter}
  authentication: {kubernetes: {apiServerURL: "https://api.cluster.example.com:6443"}}
`, `
  distribution: {name: starter}
  authentication: {github: {apiBaseURL: "https://github.example.com/api/v3"}}
`, `
  distribution: {name: starter}
  authentication: {custom: {endpoint: "http://authz.auth.svc:8080/validate"}}
`}
	docs := make([]map[string]any, len(bases))
	for i, spec := range bases {
		doc := "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s, namespace: ai}\nspec:" + spec
		require.NoError(t, yaml.Unmarshal([]byte(doc), &docs[i]))
		code, _, stderr := run(t, "validate", writeFile(t, t.TempDir(), "stack.yaml", doc))
		require.Equal(t, 0, code, "base %d renders: %s", i, stderr)
	}
	fields := urlFields(reflect.TypeOf(v1alpha2.LlamaStackDistributionSpec{}), []string{"spec"})
	require.GreaterOrEqual(t, len(fields), 5, "the URL fields: %v", fields)
	for _, steps := range fields {
		name := strings.Join(steps, ".")
		t.Run(name, func(t *testing.T) {
			i := slicesIndexFunc(docs, func(doc map[string]any) bool { return len(find(doc, steps, "")) > 0 })
			require.GreaterOrEqual(t, i, 0, "no base sets %s: add one that does", name)
			for at, value := range find(docs[i], steps, "") {
				for _, hostile := range withCredential(value) {
					doc := deepCopy(docs[i])
					set(doc, at, hostile)
					out, err := yaml.Marshal(doc)
					require.NoError(t, err)
					file := writeFile(t, t.TempDir(), "stack.yaml", string(out))
					for _, command := range []string{"render", "validate"} {
						code, stdout, stderr := run(t, command, file)
						assert.Equal(t, 1, code, "llsd %s accepted %s: %s", command, hostile, stderr)
						assert.NotContains(t, stdout+stderr, sentinel, "llsd %s showed the credential of %s", command, at)
						assert.Contains(t, stderr, printedPath(at), "llsd %s names the field", command)
					}
				}
			}
		})
	}
}

// withCredential are value with the sentinel where a URL carries a credential.
func withCredential(value string) []string {
	out := []string{value + "/?password=" + sentinel, value + "#token=" + sentinel, value + "?sslpassword=" + sentinel}
	if scheme, rest, ok := strings.Cut(value, "://"); ok {
		out = append(out, scheme+"://u:"+sentinel+"@"+rest)
	} else {
		out = append(out, "u:"+sentinel+"@"+value)
	}
	return out
}

// urlFields are the paths, by JSON names, of the string fields of t that urlLike names; "*"
// stands for every entry of a list or a map. Free-form maps (settings) are not followed: their
// credential rule is a key's name.
func urlFields(t reflect.Type, prefix []string) [][]string {
	switch t.Kind() {
	case reflect.Pointer:
		return urlFields(t.Elem(), prefix)
	case reflect.Slice, reflect.Map:
		return urlFields(t.Elem(), append(prefix[:len(prefix):len(prefix)], "*"))
	case reflect.String:
		if urlLike.MatchString(prefix[len(prefix)-1]) {
			return [][]string{prefix}
		}
	case reflect.Struct:
		// Fields of one type (spec.providers' lists) are one field, "*": the same code reads them.
		sameType := map[reflect.Type]int{}
		for i := range t.NumField() {
			if k := t.Field(i).Type.Kind(); k == reflect.Slice || k == reflect.Pointer || k == reflect.Struct {
				sameType[t.Field(i).Type]++
			} else {
				sameType[t.Field(i).Type] = 1
			}
		}
		var out [][]string
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			f := t.Field(i)
			switch {
			case name == "" || name == "-" || sameType[f.Type] == 0:
				continue
			case sameType[f.Type] > 1:
				name, sameType[f.Type] = "*", 0
			}
			out = append(out, urlFields(f.Type, append(prefix[:len(prefix):len(prefix)], name))...)
		}
		return out
	}
	return nil
}

// find maps the concrete paths (steps joined by "/") of doc that steps match to their string
// values.
func find(doc any, steps []string, at string) map[string]string {
	out := map[string]string{}
	if len(steps) == 0 {
		if s, ok := doc.(string); ok {
			out[strings.TrimPrefix(at, "/")] = s
		}
		return out
	}
	visit := func(key string, v any) {
		for k, s := range find(v, steps[1:], at+"/"+key) {
			out[k] = s
		}
	}
	switch d := doc.(type) {
	case map[string]any:
		for k, v := range d {
			if steps[0] == "*" || steps[0] == k {
				visit(k, v)
			}
		}
	case []any:
		for i, v := range d {
			if steps[0] == "*" {
				visit(strconv.Itoa(i), v)
			}
		}
	}
	return out
}

// set writes value at the concrete path at of doc.
func set(doc map[string]any, at, value string) {
	var node any = doc
	steps := strings.Split(at, "/")
	for i, step := range steps {
		last := i == len(steps)-1
		switch d := node.(type) {
		case map[string]any:
			if last {
				d[step] = value
			}
			node = d[step]
		case []any:
			n, _ := strconv.Atoi(step)
			if last {
				d[n] = value
			}
			node = d[n]
		}
	}
}

// printedPath is a concrete path as llsd's messages print it: spec.providers.inference[0].endpoint.
func printedPath(at string) string {
	var b strings.Builder
	for i, step := range strings.Split(at, "/") {
		switch _, err := strconv.Atoi(step); {
		case err == nil:
			fmt.Fprintf(&b, "[%s]", step)
		case i == 0:
			b.WriteString(step)
		default:
			b.WriteString("." + step)
		}
	}
	return b.String()
}

func deepCopy(doc map[string]any) map[string]any {
	out, _ := yaml.Marshal(doc)
	var c map[string]any
	_ = yaml.Unmarshal(out, &c)
	return c
}

func slicesIndexFunc[T any](s []T, f func(T) bool) int {
	for i, v := range s {
		if f(v) {
			return i
		}
	}
	return -1
}
