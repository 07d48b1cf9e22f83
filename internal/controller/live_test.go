// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"context"
	"net/http"
	"net/http/httptest"
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
			version: "", err: "GET /v1/version: 503 Service Unavailable"},
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
	assert.ErrorContains(t, live.Err, "connection refused", "a server that is down")
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
