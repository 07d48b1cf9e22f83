// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/realserver"
	"github.com/llamastack/llsd/pkg/api"
)

// notInDebian are the starter's providers whose SDK Debian does not package, as the real server
// named them when it stopped (the module it could not import): a server without them is one
// whose image installs what Debian has. The starter's default embedding and reranker models
// are served by two of them, so those defaults go with them.
var notInDebian = map[string]string{
	"remote::together":              "together",
	"inline::sentence-transformers": "torch",
	"inline::transformers":          "torch",
	"inline::auto":                  "markitdown",
	"inline::sqlite-vec":            "sqlite_vec",
	"inline::braintrust":            "autoevals",
}

// debianStarter is llsd's starter base config of a server version without the providers in
// notInDebian (an API left without providers is left out): the config an image that installs
// only what Debian packages would ship.
func debianStarter(t *testing.T, version string) string {
	data, err := distributions.FS.ReadFile("starter/" + version + ".yaml")
	require.NoError(t, err)
	var base map[string]any
	require.NoError(t, yaml.Unmarshal(data, &base))
	providers, _ := base["providers"].(map[string]any)
	for apiName, list := range providers {
		kept := []any{}
		for _, p := range list.([]any) {
			if _, missing := notInDebian[p.(map[string]any)["provider_type"].(string)]; !missing {
				kept = append(kept, p)
			}
		}
		if len(kept) > 0 {
			providers[apiName] = kept
			continue
		}
		delete(providers, apiName)
		apis, _ := base["apis"].([]any)
		base["apis"] = slices.DeleteFunc(apis, func(a any) bool { return a == apiName })
	}
	if stores, ok := base["vector_stores"].(map[string]any); ok {
		delete(stores, "default_embedding_model")
		delete(stores, "default_reranker_model")
	}
	out, err := yaml.Marshal(base)
	require.NoError(t, err)
	return string(out)
}

// renderOnDebianStarter renders an LLSD of the image whose config is debianStarter's, with more
// of the spec.
func renderOnDebianStarter(t *testing.T, version, spec string) *pipeline.Result {
	return renderOnDebianStarterWith(t, version, spec, nil)
}

// renderOnDebianStarterWith is renderOnDebianStarter with more ConfigMaps among the inputs.
func renderOnDebianStarterWith(t *testing.T, version, spec string, configMaps map[string]map[string]string) *pipeline.Result {
	doc := `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: debian, namespace: ai}
spec:
  distribution: {image: "registry.example/llsd/starter-debian:test", serverVersion: "` + version + `", baseConfig: {configMapName: base}}
` + spec
	obj, errs := api.Decode([]byte(doc))
	require.Empty(t, errs)
	inputs := map[string]map[string]string{"ai/base": {"config.yaml": debianStarter(t, version)}}
	maps.Copy(inputs, configMaps)
	res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test", ConfigMaps: inputs})
	require.Empty(t, errs)
	return res
}

// A test issuer: its key signs the tokens, its JWKS is what the server fetches.
type testIssuer struct {
	url string
	key *rsa.PrivateKey
}

func newTestIssuer(t *testing.T, l net.Listener) *testIssuer {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	require.NoError(t, err)
	iss := &testIssuer{url: "http://" + l.Addr().String(), key: key}
	keys := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: "test", Algorithm: "RS256", Use: "sig"}}}
	serve(t, l, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_ = json.NewEncoder(w).Encode(keys)
	}))
	return iss
}

// token is a token of the issuer for a user in teams.
func (iss *testIssuer) token(t *testing.T, subject string, teams ...string) string {
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: iss.key},
		(&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "test"))
	require.NoError(t, err)
	now := time.Now()
	token, err := jwt.Signed(signer).Claims(jwt.Claims{
		Issuer: iss.url, Subject: subject, Audience: jwt.Audience{"llsd-test"},
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(time.Hour)),
	}).Claims(map[string]any{"teams": teams}).Serialize()
	require.NoError(t, err)
	return token
}

// standInOpenAI is a stand-in of a remote OpenAI-compatible endpoint: it lists one model.
func standInOpenAI(t *testing.T, l net.Listener) string {
	serve(t, l, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/models") {
			_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"stand-in-model","object":"model","created":0,"owned_by":"test"}]}`))
			return
		}
		http.NotFound(w, r)
	}))
	return "http://" + l.Addr().String() + "/v1"
}

func serve(t *testing.T, l net.Listener, h http.Handler) {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(func() { _ = srv.Close() })
}

// On every supported version, the real server of a config llsd renders with authentication
// starts (its image installs what Debian packages), answers its health without a token, refuses
// a caller without one (401), answers one with a token the issuer signed and lists the model
// llsd registered, and keeps a reader from deleting it (the access rules as the server parses
// them). The issuer's keys and the model's endpoint are stand-ins of remote services, on
// 127.0.0.1 of the server's network namespace.
func TestTheRealServerEnforcesAuthentication(t *testing.T) {
	servers := newRealServers(t)
	for _, version := range slices.Sorted(maps.Keys(serverArchives)) {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			network := realserver.NewNetwork(t)
			issuer := newTestIssuer(t, network.Listen(t))
			endpoint := standInOpenAI(t, network.Listen(t))
			res := renderOnDebianStarter(t, version, `  providers:
    inference: {provider: openai, endpoint: "`+endpoint+`", apiKey: {secretKeyRef: {name: openai, key: key}}}
  resources: {models: [stand-in-model]}
  authentication:
    oidc: {issuer: "`+issuer.url+`", audience: llsd-test, jwksURI: "`+issuer.url+`/jwks", claimsMapping: {teams: teams}}
    accessPolicy:
      admins: {attribute: teams, value: admins}
      readers: {attribute: teams, value: auditors}
      owners: true
      sharedRead: true
`)
			_, dep := renderedServer(res)
			pod, err := realserver.PodOf(version, dep, api.ContainerName, configMapsOf(res))
			require.NoError(t, err)
			process := servers.get(t, version).Start(t, network, pod)
			outcome := process.Wait(startLimit)
			require.Equal(t, realserver.StageServing, outcome.Stage, "%s: %s\n%s", outcome.Where, outcome.Exception, outcome.Log)

			call := func(method, route, token, body string) (int, string) {
				return request(t, process, method, route, token, body)
			}
			status, _ := call(http.MethodGet, "/v1/health", "", "")
			assert.Equal(t, http.StatusOK, status, "the kubelet's probe carries no token")
			status, _ = call(http.MethodGet, "/v1/models", "", "")
			assert.Equal(t, http.StatusUnauthorized, status, "a caller without a token")
			reader, admin := issuer.token(t, "auditor", "auditors"), issuer.token(t, "boss", "admins")
			status, models := call(http.MethodGet, "/v1/models", reader, "")
			assert.Equal(t, http.StatusOK, status, models)
			model := registeredModel(models, "stand-in-model")
			assert.NotEmpty(t, model, "the model llsd registered is listed: %s", models)
			status, body := call(http.MethodGet, "/v1/providers", reader, "")
			assert.Equal(t, http.StatusOK, status, body)
			if version == "0.6" { // the last version that unregisters models over HTTP
				status, body = call(http.MethodDelete, "/v1/models/"+model, reader, "")
				assert.Equal(t, http.StatusForbidden, status, "a reader deletes no model: %s", body)
			}
			status, body = call(http.MethodPost, "/v1/conversations", admin, `{"metadata":{"topic":"test"}}`)
			require.Equal(t, http.StatusOK, status, body)
			var conversation struct{ ID string }
			require.NoError(t, json.Unmarshal([]byte(body), &conversation))
			status, body = call(http.MethodDelete, "/v1/conversations/"+conversation.ID, reader, "")
			if profile.Version(version).Compare("0.8") >= 0 {
				assert.Equal(t, http.StatusForbidden, status, "a reader deletes no admin's conversation: %s", body)
				status, body = call(http.MethodDelete, "/v1/conversations/"+conversation.ID, admin, "")
				assert.Equal(t, http.StatusOK, status, "an admin does: %s", body)
				return
			}
			// Before OGX 0.8 the server holds conversations to no access rule: the reader deleted
			// the admin's conversation, which llsd's render says.
			assert.Equal(t, http.StatusOK, status, body)
			assert.True(t, mentions(warningsOf(res), "conversations"), "a warning names the conversations: %v", warningsOf(res))
		})
	}
}

// registeredModel is the identifier of the listed model that serves name: the server lists
// models as OpenAI does (id) from OGX 0.8, and with their identifier before.
func registeredModel(list, name string) string {
	var models struct {
		Data []struct{ ID, Identifier string } `json:"data"`
	}
	if json.Unmarshal([]byte(list), &models) != nil {
		return ""
	}
	for _, m := range models.Data {
		for _, id := range []string{m.Identifier, m.ID} {
			if strings.HasSuffix(id, name) {
				return id
			}
		}
	}
	return ""
}

// request calls the server as a client with a bearer token ("" for none) and a JSON body.
func request(t *testing.T, p *realserver.Process, method, route, token, body string) (int, string) {
	req, err := http.NewRequest(method, p.URL()+route, strings.NewReader(body))
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	return do(t, p, req)
}

func warningsOf(res *pipeline.Result) []string {
	var out []string
	for _, w := range res.Warnings {
		out = append(out, w.String())
	}
	return out
}
