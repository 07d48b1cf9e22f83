// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"golang.org/x/net/netutil"
	"sigs.k8s.io/controller-runtime/pkg/certwatcher"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
)

// The webhook's bounds: whatever clients send, the controller's memory stays under the
// install's limit and a slow or idle client releases what it holds. The API server sends one
// object per conversion, over a few kept-alive connections, and waits 30 seconds.
const (
	// MaxConcurrentConversions are decoded and converted at a time; each holds up to
	// MaxConversionRequest of body and a few copies of the object. Others wait for a slot.
	MaxConcurrentConversions = 2
	// maxConnections are served at a time; more wait to be accepted.
	maxConnections = 128
	// conversionWait is the longest a request waits for a slot before it is answered 503.
	conversionWait = 10 * time.Second
)

// serverTimeouts bound what a connection may hold: the TLS handshake and headers, the whole
// request, the answer, and an idle kept-alive connection.
type serverTimeouts struct {
	readHeader, read, write, idle time.Duration
}

var defaultTimeouts = serverTimeouts{readHeader: 10 * time.Second, read: 30 * time.Second, write: 30 * time.Second, idle: 60 * time.Second}

// boundedServer is the conversion webhook's server: controller-runtime's default one serves
// HTTP/2 (many streams per connection), without a limit on connections or a timeout on
// reading a request's body. It serves HTTP/1.1 only.
type boundedServer struct {
	host     string
	port     int
	certDir  string
	timeouts serverTimeouts
	mux      *http.ServeMux

	mu      sync.Mutex
	started bool
}

var _ webhook.Server = &boundedServer{}

func newBoundedServer(host string, port int, certDir string) *boundedServer {
	if port == 0 {
		port = webhook.DefaultPort
	}
	return &boundedServer{host: host, port: port, certDir: certDir, timeouts: defaultTimeouts, mux: http.NewServeMux()}
}

func (s *boundedServer) NeedLeaderElection() bool             { return false }
func (s *boundedServer) WebhookMux() *http.ServeMux           { return s.mux }
func (s *boundedServer) Register(path string, h http.Handler) { s.mux.Handle(path, h) }

func (s *boundedServer) addr() string { return net.JoinHostPort(s.host, strconv.Itoa(s.port)) }

// Start serves until ctx ends, with the certificate in certDir (reloaded when it changes).
func (s *boundedServer) Start(ctx context.Context) error {
	watcher, err := certwatcher.New(filepath.Join(s.certDir, "tls.crt"), filepath.Join(s.certDir, "tls.key"))
	if err != nil {
		return err
	}
	go func() { _ = watcher.Start(ctx) }()
	listener, err := net.Listen("tcp", s.addr())
	if err != nil {
		return err
	}
	cfg := &tls.Config{GetCertificate: watcher.GetCertificate, NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12}
	srv := &http.Server{
		Handler:           s.mux,
		ReadHeaderTimeout: s.timeouts.readHeader,
		ReadTimeout:       s.timeouts.read,
		WriteTimeout:      s.timeouts.write,
		IdleTimeout:       s.timeouts.idle,
		MaxHeaderBytes:    64 << 10,
		TLSNextProto:      map[string]func(*http.Server, *tls.Conn, http.Handler){}, // no HTTP/2
	}
	done := make(chan struct{})
	go func() { //nolint:gosec // ctx is done when this runs: shutting down needs a context of its own
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = srv.Shutdown(shutdown)
		close(done)
	}()
	s.mu.Lock()
	s.started = true
	s.mu.Unlock()
	if err := srv.Serve(tls.NewListener(netutil.LimitListener(listener, maxConnections), cfg)); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	<-done
	return nil
}

// StartedChecker is healthy once the server accepts TLS connections.
func (s *boundedServer) StartedChecker() healthz.Checker {
	return func(*http.Request) error {
		s.mu.Lock()
		started := s.started
		s.mu.Unlock()
		if !started {
			return errors.New("webhook server has not been started yet")
		}
		conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", s.addr(), &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // a reachability check of our own port
		if err != nil {
			return fmt.Errorf("webhook server is not reachable: %w", err)
		}
		return conn.Close()
	}
}

// limitConcurrency lets at most n requests through next at a time; a request that waits
// longer than wait for its turn (or whose client gives up) is answered 503.
func limitConcurrency(next http.Handler, n int, wait time.Duration) http.Handler {
	slots := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		select {
		case slots <- struct{}{}:
		case <-timer.C:
			http.Error(w, "too many conversions at once: retry", http.StatusServiceUnavailable)
			return
		case <-r.Context().Done():
			return
		}
		defer func() { <-slots }()
		next.ServeHTTP(w, r)
	})
}
