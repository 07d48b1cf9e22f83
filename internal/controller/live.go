// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

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

// liveServer is what a running server says of itself, bounded.
type liveServer struct {
	Version   string
	Providers []v1alpha2.ProviderInfo
	// Omitted counts the providers the server listed beyond maxProviders.
	Omitted int
	// Err is why the server did not answer as it does, or nil.
	Err error
	// ProvidersWithheld: the server answers GET /v1/providers to authenticated callers only
	// (401 or 403), and llsd-controller sends no credential.
	ProvidersWithheld bool
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
		},
			// A redirect is an answer, not an address to follow: the server never redirects
			// these paths, and following one would let whoever answers point the controller
			// at any host and port (and read the outcome in the object's status).
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
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

// The bounds of what the status keeps of an answer: a server has a few dozen providers, and
// what it says of each is short. A hostile answer (a million empty providers, megabytes of
// text) is read as a stream and summarised within these bounds, so that neither the
// controller's memory nor the status it writes grows with it.
const (
	maxAnswer         = 1 << 20 // bytes read of one answer
	maxProviders      = 64      // providers kept in the status (the count of the rest is kept)
	maxVersion        = 64
	maxIdentifier     = 128 // api, provider_id, provider_type
	maxHealthStatus   = 32
	maxHealthMessage  = 256
	maxAnswerElements = 1 << 16 // providers read of one answer, counted or kept
)

func (p *prober) ask(ctx context.Context, base string) liveServer {
	var version struct {
		Version string `json:"version"`
	}
	if err := p.get(ctx, base+"/v1/version", func(d *json.Decoder) error { return d.Decode(&version) }); err != nil {
		return liveServer{Err: err}
	}
	if version.Version == "" {
		return liveServer{Err: fmt.Errorf("GET /v1/version answered no version")}
	}
	live := liveServer{Version: bounded(version.Version, maxVersion)}
	if err := p.get(ctx, base+"/v1/providers", live.readProviders); err != nil {
		var refused *refusedError
		if errors.As(err, &refused) && (refused.code == http.StatusUnauthorized || refused.code == http.StatusForbidden) {
			return liveServer{Version: live.Version, ProvidersWithheld: true}
		}
		return liveServer{Version: live.Version, Err: err} // nothing of an answer that is not the server's is kept
	}
	return live
}

// refusedError is an answer other than 200, told by its path and code alone: the reason phrase
// and the body are the answerer's words.
type refusedError struct {
	path string
	code int
}

func (e *refusedError) Error() string { return fmt.Sprintf("GET %s: answered HTTP %d", e.path, e.code) }

// providerAnswer is one provider of GET /v1/providers, as far as the status reads it (a
// provider's config stays out).
type providerAnswer struct {
	API          string                        `json:"api"`
	ProviderID   string                        `json:"provider_id"`
	ProviderType string                        `json:"provider_type"`
	Health       v1alpha2.ProviderHealthStatus `json:"health"`
}

// readProviders reads {"data": [provider, ...]} one provider at a time, keeping the first
// maxProviders (bounded) and counting the others in Omitted.
func (l *liveServer) readProviders(d *json.Decoder) error {
	if err := expectDelim(d, '{'); err != nil {
		return err
	}
	for d.More() {
		key, err := d.Token()
		if err != nil {
			return err
		}
		if key != "data" {
			var skip json.RawMessage
			if err := d.Decode(&skip); err != nil {
				return err
			}
			continue
		}
		if err := l.readProviderList(d); err != nil {
			return err
		}
	}
	return nil
}

func (l *liveServer) readProviderList(d *json.Decoder) error {
	if err := expectDelim(d, '['); err != nil {
		return err
	}
	for read := 0; d.More(); read++ {
		if read == maxAnswerElements {
			return fmt.Errorf("more than %d providers", maxAnswerElements)
		}
		var a providerAnswer
		if err := d.Decode(&a); err != nil {
			return err
		}
		if len(l.Providers) == maxProviders {
			l.Omitted++
			continue
		}
		l.Providers = append(l.Providers, v1alpha2.ProviderInfo{API: bounded(a.API, maxIdentifier), ProviderID: bounded(a.ProviderID, maxIdentifier),
			ProviderType: bounded(a.ProviderType, maxIdentifier),
			Config:       apiextensionsv1.JSON{Raw: []byte("{}")}, // a provider's config stays out of the status
			Health: v1alpha2.ProviderHealthStatus{Status: bounded(a.Health.Status, maxHealthStatus),
				Message: bounded(redact.Text(a.Health.Message), maxHealthMessage)}})
	}
	_, err := d.Token() // ]
	return err
}

func expectDelim(d *json.Decoder, want json.Delim) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("expected %v, found %v", want, tok)
	}
	return nil
}

func (p *prober) get(ctx context.Context, url string, read func(*json.Decoder) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := p.client.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %s", pathOf(url), networkFailure(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &refusedError{path: pathOf(url), code: resp.StatusCode}
	}
	if err := read(json.NewDecoder(io.LimitReader(resp.Body, maxAnswer))); err != nil {
		return fmt.Errorf("GET %s: not the server's answer", pathOf(url))
	}
	return nil
}

// networkFailure says in general words why a request failed: the status a tenant reads must not
// become a scanner's report (addresses, ports, the text of whatever answered).
func networkFailure(err error) string {
	var dns *net.DNSError
	var opErr *net.OpError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || os.IsTimeout(err):
		return "no answer in time"
	case errors.As(err, &dns):
		return "the Service's name does not resolve"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "no connection"
	case strings.Contains(err.Error(), "tls:") || strings.Contains(err.Error(), "x509"):
		return "the TLS handshake failed"
	}
	return "the request failed"
}

func pathOf(url string) string {
	if i := strings.Index(url, "/v1/"); i >= 0 {
		return url[i:]
	}
	return url
}

// bounded keeps at most n bytes of s (on a rune boundary), without control characters.
func bounded(s string, n int) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}
