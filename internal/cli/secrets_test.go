// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/cli"
)

// sentinel stands for a credential a user wrote where it does not belong.
const sentinel = "S3NT1NEL"

// digitsSentinel stands for a credential of digits only, which the server reads as a number.
const digitsSentinel = "73521946"

// hostileSpecs put a credential (the sentinel) wherever a user could write one in clear. Each
// is refused, and no front end (llsd render, llsd validate, the KRM function) shows it in its
// output, results or messages.
var hostileSpecs = map[string]string{
	"telemetry endpoint with user info": `telemetry: {endpoint: "http://user:` + sentinel + `@otel:4318"}`,
	"telemetry endpoint with a token":   `telemetry: {endpoint: "http://otel:4318/?api_key=` + sentinel + `"}`,
	"endpoint with user info":           `providers: {inference: {provider: vllm, endpoint: "http://u:` + sentinel + `@vllm:8000/v1"}}`,
	"endpoint with a token fragment":    `providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1#access_token=` + sentinel + `"}}`,
	"endpoint with an encoded key name": `providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1?api%5Fkey=` + sentinel + `"}}`,
	"settings base_url with user info": `providers: {inference: {provider: ollama, endpoint: "http://ollama:11434/v1",
      settings: {base_url: "http://u:` + sentinel + `@ollama:11434/v1"}}}`,
	"settings header": `providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1",
      settings: {network: {headers: {Authorization: "Bearer ` + sentinel + `"}}}}}`,
	"settings proxy with user info": `providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1",
      settings: {network: {proxy: {url: "http://u:` + sentinel + `@proxy:3128"}}}}}`,
	"settings TLS private key": `providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1",
      settings: {network: {tls: {client_key: "-----BEGIN PRIVATE KEY-----` + sentinel + `"}}}}}`,
	"settings nested password": `providers: {vectorIo: {provider: pgvector, endpoint: "postgresql://pg:5432/v",
      settings: {extra: [{password: "` + sentinel + `"}]}}}`,
	"external provider api_key": `externalProviders: {inference: [{providerId: ext, image: "registry.example.com/ext:1",
      module: ext, providerType: "remote::ext", settings: {api_key: "` + sentinel + `"}}]}`,
	"redis endpoint with a password":          `storage: {kv: {type: redis, endpoint: "redis://:` + sentinel + `@redis:6379"}}`,
	"redis password where the port goes":      `storage: {kv: {type: redis, endpoint: "redis:` + sentinel + `"}}`,
	"redis URL, password where the port goes": `storage: {kv: {type: redis, endpoint: "redis://redis:` + sentinel + `"}}`,
	"settings URL with a jwt parameter": `providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1",
      settings: {base_url: "http://vllm:8000/v1?jwt=` + sentinel + `"}}}`,
	"endpoint with a short password parameter": `providers: {inference: {provider: vllm, endpoint: "http://vllm:8000/v1?pw=` + sentinel + `"}}`,
	"env URL with user info":                   `workload: {overrides: {env: [{name: OLLAMA_URL, value: "http://u:` + sentinel + `@ollama:11434"}]}}`,
	"named backend host with user info": `storage: {backends: {kv_default: {type: kv_postgres, host: "ogx:` + sentinel + `@pg.db.svc", user: ogx},
      sql_default: {type: sql_postgres, host: pg.db.svc, user: ogx}}}`,
	"env token of digits the server misreads": `workload: {overrides: {env: [{name: VLLM_URL, value: "http://vllm:8000/v1"},
      {name: VLLM_API_TOKEN, value: "` + digitsSentinel + `"}]}}`,
	"v1alpha2 fields annotation": ``, // see hostileDocument
}

func hostileDocument(name, spec string) string {
	meta := "metadata: {name: s, namespace: ai}\n"
	if name == "v1alpha2 fields annotation" {
		meta = `metadata:
  name: s
  namespace: ai
  annotations:
    llamastack.io/v1alpha2-fields: '{"spec":{"distribution":{"name":"starter"},` +
			"\"telemetry\":{\"endpoint\":\"http://u:" + sentinel + "@otel:4318\"}},\"fingerprint\":\"x\"}'\n"
		return `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
` + meta + "spec: {server: {distribution: {name: starter}}}\n"
	}
	return `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
` + meta +
		`spec:
  distribution: {name: starter}
  ` + spec + "\n"
}

func TestNoFrontEndShowsACredential(t *testing.T) {
	for name, spec := range hostileSpecs {
		t.Run(name, func(t *testing.T) {
			doc := hostileDocument(name, spec)
			file := writeFile(t, t.TempDir(), "stack.yaml", doc)
			for _, command := range []string{"render", "validate"} {
				code, out, stderr := run(t, command, file)
				assert.Equal(t, 1, code, "%s: llsd %s accepted it:\n%s", name, command, stderr)
				assert.NotContains(t, out+stderr, sentinel, "llsd %s showed the credential", command)
				assert.NotContains(t, out+stderr, digitsSentinel, "llsd %s showed the credential", command)
				assert.NotEmpty(t, stderr, "llsd %s said nothing", command)
			}

			rl, err := fn.ParseResourceList([]byte(`apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- ` +
				strings.ReplaceAll(strings.TrimSpace(doc), "\n", "\n  ") + "\n"))
			require.NoError(t, err)
			input, err := rl.ToYAML()
			require.NoError(t, err)
			var stdout, stderr bytes.Buffer
			code := cli.Main(nil, bytes.NewReader(input), &stdout, &stderr)
			assert.Equal(t, 1, code, "the KRM function accepted it")
			// The items come back as the user wrote them (the KRM contract on error); the
			// results and stderr are llsd's own words.
			out, err := fn.ParseResourceList(stdout.Bytes())
			require.NoError(t, err)
			require.NotEmpty(t, out.Results)
			for _, r := range out.Results {
				assert.NotContains(t, r.Message, sentinel, "a KRM result showed the credential")
				assert.NotContains(t, r.Message, digitsSentinel, "a KRM result showed the credential")
			}
			assert.NotContains(t, stderr.String(), sentinel, "the KRM function showed the credential")
			assert.NotContains(t, stderr.String(), digitsSentinel, "the KRM function showed the credential")
		})
	}
}

// Wherever a user writes a URL, a password in its user info is refused or never output: llsd
// render and llsd validate show it in no message, and a render that succeeds does not carry it
// (it would sit in a ConfigMap or a Deployment in clear).
func FuzzFrontEndsNeverShowACredential(f *testing.F) {
	for i, seed := range []string{"http://u:%s@vllm:8000/v1", "redis://:%s@redis:6379", "http://otel:4318/?token=%s",
		"http://h:1/v1#access_token=%s", "postgresql://app:%s@pg/db"} {
		f.Add(uint8(i), seed)
	}
	places := []string{
		`providers: {inference: {provider: vllm, endpoint: %q}}`,
		`providers: {inference: {provider: ollama, endpoint: "http://o:11434/v1", settings: {base_url: %q}}}`,
		`providers: {inference: {provider: vllm, endpoint: "http://v:8000/v1", settings: {network: {proxy: {url: %q}}}}}`,
		`providers: {vectorIo: {provider: pgvector, endpoint: %q}}`,
		`storage: {kv: {type: redis, endpoint: %q}}`,
		`telemetry: {endpoint: %q}`,
		`workload: {overrides: {env: [{name: OLLAMA_URL, value: %q}]}}`,
		`externalProviders: {inference: [{providerId: ext, image: "r.example.com/e:1", module: ext, providerType: "remote::ext", settings: {url: %q}}]}`,
	}
	f.Fuzz(func(t *testing.T, place uint8, url string) {
		if strings.Count(url, "%s") != 1 {
			return
		}
		value := strings.Replace(url, "%s", sentinel, 1)
		if !strings.Contains(value, sentinel) || !isCredentialPosition(value) {
			return
		}
		doc := hostileDocument("", fmt.Sprintf(places[int(place)%len(places)], value))
		file := writeFile(t, t.TempDir(), "stack.yaml", doc)
		for _, command := range []string{"render", "validate"} {
			_, out, stderr := run(t, command, file)
			assert.NotContains(t, out+stderr, sentinel, "llsd %s of:\n%s", command, doc)
		}
	})
}

// isCredentialPosition reports whether the sentinel sits where a URL keeps a credential: its
// user info, or the value of a token-like query or fragment parameter.
func isCredentialPosition(url string) bool {
	scheme, rest, ok := strings.Cut(url, "://")
	if !ok || strings.ContainsAny(scheme, " \"\n\\") || strings.ContainsAny(rest, " \"\n\\'`") {
		return false
	}
	if at, in := strings.LastIndex(rest, "@"), strings.Index(rest, sentinel); in >= 0 && at > in && !strings.ContainsAny(rest[:at], "/?#") {
		return true
	}
	for _, p := range []string{"?token=", "&token=", "#access_token=", "?api_key=", "&api_key="} {
		if strings.Contains(rest, p+sentinel) {
			return true
		}
	}
	return false
}
