// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/types"
)

// standIn answers as the server does (GET /v1/version, GET /v1/providers), with the given
// providers' health; it counts the requests.
func standIn(t *testing.T, providers string) (*httptest.Server, *atomic.Int32) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		switch r.URL.Path {
		case "/v1/version":
			_, _ = w.Write([]byte(`{"version": "1.3.0"}`))
		case "/v1/providers":
			_, _ = w.Write([]byte(`{"data": [` + providers + `]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

func TestAskingTheServer(t *testing.T) {
	healthy := `{"api": "inference", "provider_id": "vllm", "provider_type": "remote::vllm", "config": {"api_token": "********"}, "health": {"status": "OK"}}`
	for _, tc := range []struct {
		reason  string
		handler http.HandlerFunc
		version string
		err     string
	}{
		{reason: "the server's answers", handler: nil, version: "1.3.0", err: ""},
		{reason: "an answer that is not the server's", handler: func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("<html>proxy</html>")) },
			version: "", err: "GET /v1/version: not the server's answer"},
		{reason: "an error status", handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) },
			version: "", err: "GET /v1/version: answered HTTP 503"},
		{reason: "a server that does not answer in time", handler: func(_ http.ResponseWriter, r *http.Request) { <-r.Context().Done() },
			version: "", err: "GET /v1/version: "},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			srv, _ := standIn(t, healthy)
			if tc.handler != nil {
				srv.Config.Handler = tc.handler
			}
			p := newProber(200*time.Millisecond, time.Minute)
			live, _ := p.probe(context.Background(), types.NamespacedName{Name: "x"}, "uid-1", srv.URL, time.Now())
			assert.Equal(t, tc.version, live.Version)
			if tc.err == "" {
				require.NoError(t, live.Err)
				require.Len(t, live.Providers, 1)
				assert.Equal(t, "OK", live.Providers[0].Health.Status)
				assert.JSONEq(t, `{}`, string(live.Providers[0].Config.Raw), "no provider config reaches the status")
				return
			}
			assert.ErrorContains(t, live.Err, tc.err)
		})
	}
	srv, _ := standIn(t, healthy)
	srv.Close()
	live, _ := newProber(time.Second, time.Minute).probe(context.Background(), types.NamespacedName{Name: "x"}, "uid-1", srv.URL, time.Now())
	assert.ErrorContains(t, live.Err, "GET /v1/version: the connection was refused", "a server that is down")
	assert.NotContains(t, live.Err.Error(), srv.URL, "the condition names the path, not the URL twice")
}

// An object's server is asked at most once per interval, and less often while it does not
// answer (the interval doubling, up to ten intervals).
func TestAskingIsSpacedOut(t *testing.T) {
	srv, requests := standIn(t, "")
	p := newProber(time.Second, time.Minute)
	key, now := types.NamespacedName{Name: "x"}, time.Now()
	_, after := p.probe(context.Background(), key, "uid-1", srv.URL, now)
	assert.Equal(t, time.Minute, after)
	_, after = p.probe(context.Background(), key, "uid-1", srv.URL, now.Add(30*time.Second))
	assert.Equal(t, int32(2), requests.Load(), "one visit (two requests) within the interval")
	assert.Equal(t, 30*time.Second, after)

	srv.Close()
	var backoffs []time.Duration
	for i, at := 0, now.Add(time.Minute); i < 6; i++ {
		_, after = p.probe(context.Background(), key, "uid-1", srv.URL, at)
		backoffs = append(backoffs, after)
		at = at.Add(after)
	}
	assert.Equal(t, []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 10 * time.Minute, 10 * time.Minute}, backoffs)
}

// An object deleted and created again under the same name (a GitOps tool that replaces it) is
// asked at once: it never shows what its predecessor's server said, nor waits out its backoff.
func TestARecreatedObjectIsAskedAfresh(t *testing.T) {
	srv, requests := standIn(t, "")
	p := newProber(time.Second, time.Minute)
	key, now := types.NamespacedName{Name: "x"}, time.Now()
	_, _ = p.probe(context.Background(), key, "uid-1", srv.URL, now)
	live, after := p.probe(context.Background(), key, "uid-2", srv.URL, now.Add(time.Second))
	assert.Equal(t, int32(4), requests.Load(), "the new object's server is asked within the old one's interval")
	assert.NoError(t, live.Err)
	assert.Equal(t, time.Minute, after, "a full interval from the new answer")
}

// F3: a hostile /v1/providers answer (a million bytes of empty providers, or megabytes of text
// in one) becomes a bounded summary: at most maxProviders entries, each field short, the rest
// counted; reading it costs a bounded amount of memory, whatever its size.
func TestAHostileAnswerIsSummarisedWithinBounds(t *testing.T) {
	many := strings.Repeat("{},", 350_000)
	long := strings.Repeat("A", 900_000)
	for _, tc := range []struct {
		reason    string
		providers string
		kept      int
		omitted   int
		err       bool
	}{
		{reason: "a million bytes of empty providers: more than llsd reads, so not the server's answer", providers: many + "{}", kept: 0, err: true},
		{reason: "a hundred providers: the first 64 kept, the rest counted", providers: strings.Repeat(`{"api": "inference", "health": {"status": "OK"}},`, 99) + "{}",
			kept: maxProviders, omitted: 100 - maxProviders},
		{reason: "one provider with a huge message and identifiers", providers: `{"api": "` + long[:40_000] + `", "provider_id": "` + long[:40_000] +
			`", "provider_type": "x", "health": {"status": "` + long[:40_000] + `", "message": "` + long[:800_000] + `"}}`, kept: 1},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			srv, _ := standIn(t, tc.providers)
			p := newProber(5*time.Second, time.Minute)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			live, _ := p.probe(context.Background(), types.NamespacedName{Name: "x"}, "uid-1", srv.URL, time.Now())
			runtime.ReadMemStats(&after)
			if tc.err {
				assert.EqualError(t, live.Err, "GET /v1/providers: not the server's answer")
			} else {
				require.NoError(t, live.Err)
			}
			assert.Len(t, live.Providers, tc.kept)
			assert.Equal(t, tc.omitted, live.Omitted)
			for _, pr := range live.Providers {
				assert.LessOrEqual(t, len(pr.API), maxIdentifier+3)
				assert.LessOrEqual(t, len(pr.ProviderID), maxIdentifier+3)
				assert.LessOrEqual(t, len(pr.Health.Status), maxHealthStatus+3)
				assert.LessOrEqual(t, len(pr.Health.Message), maxHealthMessage+3)
			}
			status, err := json.Marshal(live.Providers)
			require.NoError(t, err)
			assert.Less(t, len(status), 64<<10, "the status written stays small")
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(64<<20), "reading the answer allocates a bounded amount")
		})
	}
}

// F12: a health message is redacted before it is cut, so no prefix of a credential reaches the
// status; control characters are replaced.
func TestHealthMessagesAreRedactedBeforeTheyAreCut(t *testing.T) {
	message := strings.Repeat("x", maxHealthMessage-30) + " postgresql://app:S3NT1NELS3NT1NEL@db:5432/x \\u001b[31m"
	srv, _ := standIn(t, `{"api": "vector_io", "provider_id": "pg", "provider_type": "remote::pgvector", "health": {"status": "Error", "message": "`+message+`"}}`)
	live, _ := newProber(time.Second, time.Minute).probe(context.Background(), types.NamespacedName{Name: "x"}, "uid-1", srv.URL, time.Now())
	require.NoError(t, live.Err)
	require.Len(t, live.Providers, 1)
	got := live.Providers[0].Health.Message
	assert.NotContains(t, got, "S3NT")
	assert.NotContains(t, got, "\x1b")
}

// F4: the prober follows no redirect (a 3xx is an answer), and says in general words why a
// request failed: no address, port or text of whatever answered reaches the status.
func TestTheProberIsNoScanner(t *testing.T) {
	target, requests := standIn(t, "")
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusFound)
	}))
	t.Cleanup(redirecting.Close)
	p := newProber(time.Second, time.Minute)
	live, _ := p.probe(context.Background(), types.NamespacedName{Name: "x"}, "uid-1", redirecting.URL, time.Now())
	assert.EqualError(t, live.Err, "GET /v1/version: answered HTTP 302")
	assert.Zero(t, requests.Load(), "the redirect was not followed")

	chatty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusTeapot)
		_, _ = w.Write([]byte("SSH-2.0-OpenSSH_9.6 internal-admin 10.1.2.3"))
	}))
	t.Cleanup(chatty.Close)
	live, _ = p.probe(context.Background(), types.NamespacedName{Name: "y"}, "uid-1", chatty.URL, time.Now())
	assert.EqualError(t, live.Err, "GET /v1/version: answered HTTP 418")

	closed := httptest.NewServer(http.NotFoundHandler())
	addr := closed.Listener.Addr().String()
	closed.Close()
	live, _ = p.probe(context.Background(), types.NamespacedName{Name: "z"}, "uid-1", "http://"+addr, time.Now())
	assert.EqualError(t, live.Err, "GET /v1/version: the connection was refused")
	_, port, _ := net.SplitHostPort(addr)
	assert.NotContains(t, live.Err.Error(), port)
}

// A server that authenticates its callers answers its version to anyone and its providers to
// them only: it answers, and its providers' health is unknown, not unhealthy (#42).
func TestAServerWithAuthenticationAnswers(t *testing.T) {
	for _, code := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/v1/version" {
				_, _ = w.Write([]byte(`{"version": "1.3.0"}`))
				return
			}
			w.WriteHeader(code)
		}))
		live, _ := newProber(time.Second, time.Minute).probe(context.Background(), types.NamespacedName{Name: "x"}, "uid-1", srv.URL, time.Now())
		srv.Close()
		require.NoError(t, live.Err, "HTTP %d", code)
		assert.Equal(t, "1.3.0", live.Version)
		assert.True(t, live.ProvidersWithheld, "HTTP %d", code)
	}
}
