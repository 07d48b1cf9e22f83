// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strings"
	"sync"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The controller reads the running server, once it has an available replica: its version
// (GET /v1/version: {"version": "1.3.0"}) and its providers' health (GET /v1/providers:
// {"data": [{"api", "provider_id", "provider_type", "config", "health": {"status": "OK" |
// "Error" | "Not Implemented", "message"}}]}), the shapes of the server's VersionInfo and
// ListProvidersResponse. Each request is bounded in time and size; an object is asked at
// most once per interval, less often while its server does not answer; the reconciler, not
// the conversion webhook, waits for the answer. The server's certificate is not verified
// (the controller sends nothing and reads only version and health), and no provider config
// reaches the status.

// liveServer is what a running server says of itself.
type liveServer struct {
	Version   string
	Providers []v1alpha2.ProviderInfo
	// Err is why the server did not answer as it does, or nil.
	Err error
}

// prober asks running servers, bounded and spaced out.
type prober struct {
	client   *http.Client
	interval time.Duration

	mu   sync.Mutex
	seen map[types.NamespacedName]probeState
}

type probeState struct {
	uid     types.UID // the object asked for; one recreated under the same name starts afresh
	last    liveServer
	next    time.Time
	backoff time.Duration
}

func newProber(timeout, interval time.Duration) *prober {
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	if interval <= 0 {
		interval = time.Minute
	}
	return &prober{
		client: &http.Client{Timeout: timeout, Transport: &http.Transport{
			TLSClientConfig:     &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // reads only version and health, sends nothing
			MaxIdleConnsPerHost: 1,
			IdleConnTimeout:     interval,
		}},
		interval: interval,
		seen:     map[types.NamespacedName]probeState{},
	}
}

// probe returns what the server at base said, asking it only when the object's interval
// (doubled after each failure, up to ten intervals) has passed; after reports when to ask next.
func (p *prober) probe(ctx context.Context, key types.NamespacedName, uid types.UID, base string, now time.Time) (live liveServer, after time.Duration) {
	p.mu.Lock()
	st, known := p.seen[key]
	p.mu.Unlock()
	if known && st.uid != uid {
		st = probeState{}
	} else if known && now.Before(st.next) {
		return st.last, st.next.Sub(now)
	}
	st.uid = uid
	live = p.ask(ctx, base)
	st.last = live
	wait := p.interval
	switch {
	case live.Err == nil:
		st.backoff = 0
	case st.backoff == 0:
		st.backoff = p.interval
	default:
		st.backoff = min(2*st.backoff, 10*p.interval)
		wait = st.backoff
	}
	st.next = now.Add(wait)
	p.mu.Lock()
	p.seen[key] = st
	p.mu.Unlock()
	return live, wait
}

// forget drops an object's state (the object is gone, or its server is not available).
func (p *prober) forget(key types.NamespacedName) {
	p.mu.Lock()
	delete(p.seen, key)
	p.mu.Unlock()
}

func (p *prober) ask(ctx context.Context, base string) liveServer {
	var version struct {
		Version string `json:"version"`
	}
	if err := p.get(ctx, base+"/v1/version", &version); err != nil {
		return liveServer{Err: err}
	}
	if version.Version == "" {
		return liveServer{Err: fmt.Errorf("GET /v1/version answered no version")}
	}
	var providers struct {
		Data []struct {
			API          string                        `json:"api"`
			ProviderID   string                        `json:"provider_id"`
			ProviderType string                        `json:"provider_type"`
			Health       v1alpha2.ProviderHealthStatus `json:"health"`
		} `json:"data"`
	}
	if err := p.get(ctx, base+"/v1/providers", &providers); err != nil {
		return liveServer{Version: version.Version, Err: err}
	}
	live := liveServer{Version: version.Version}
	for _, d := range providers.Data {
		live.Providers = append(live.Providers, v1alpha2.ProviderInfo{API: d.API, ProviderID: d.ProviderID, ProviderType: d.ProviderType,
			Config: apiextensionsv1.JSON{Raw: []byte("{}")}, // a provider's config stays out of the status
			Health: v1alpha2.ProviderHealthStatus{Status: d.Health.Status, Message: redact.Text(truncate(d.Health.Message, 256))}})
	}
	return live
}

// maxAnswer bounds what is read of an answer: a server with many providers answers a few KB.
const maxAnswer = 1 << 20

func (p *prober) get(ctx context.Context, url string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		var uerr *neturl.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // the wrapper repeats the URL
		}
		return fmt.Errorf("GET %s: %w", pathOf(url), err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", pathOf(url), resp.Status)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(into); err != nil {
		return fmt.Errorf("GET %s: not the server's answer: %w", pathOf(url), err)
	}
	return nil
}

func pathOf(url string) string {
	if i := strings.Index(url, "/v1/"); i >= 0 {
		return url[i:]
	}
	return url
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
