// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// startBoundedServer serves handler at /convert on a free port with a fresh certificate and
// the given timeouts; it returns the address and the client TLS config.
func startBoundedServer(t *testing.T, timeouts serverTimeouts, handler http.Handler) (string, *tls.Config) {
	t.Helper()
	certs, err := generateCerts([]string{"localhost", "localhost.svc", "localhost.svc.cluster.local"}, time.Now())
	require.NoError(t, err)
	dir := t.TempDir()
	for name, data := range certs {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o600))
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	s := newBoundedServer("127.0.0.1", port, dir)
	s.timeouts = timeouts
	s.Register("/convert", handler)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})
	require.Eventually(t, func() bool { return s.StartedChecker()(nil) == nil }, 10*time.Second, 10*time.Millisecond)
	roots := x509.NewCertPool()
	require.True(t, roots.AppendCertsFromPEM(certs["ca.crt"]))
	return fmt.Sprintf("127.0.0.1:%d", port), &tls.Config{RootCAs: roots, ServerName: "localhost"}
}

func ok() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(io.Discard, r.Body) })
}

// A client that never finishes its headers, or goes idle, is disconnected: it holds no
// connection slot for longer than the timeouts.
func TestBoundedServerDropsSlowClients(t *testing.T) {
	short := serverTimeouts{readHeader: 200 * time.Millisecond, read: time.Second, write: time.Second, idle: 200 * time.Millisecond}
	addr, cfg := startBoundedServer(t, short, ok())
	for _, tc := range []struct{ reason, send string }{
		{reason: "headers that never end", send: "POST /convert HTTP/1.1\r\nHost: x\r\n"},
		{reason: "nothing after the handshake", send: ""},
		{reason: "idle after a request", send: "GET /convert HTTP/1.1\r\nHost: x\r\n\r\n"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			conn, err := tls.Dial("tcp", addr, cfg)
			require.NoError(t, err, tc.reason)
			_, err = conn.Write([]byte(tc.send))
			require.NoError(t, err, tc.reason)
			// The server ends the connection; the deadline only keeps a failing test from hanging.
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second)))
			_, err = io.Copy(io.Discard, conn)
			assert.NoError(t, err, "%s: the server did not close the connection", tc.reason)
			conn.Close()
		})
	}
}

// The server speaks HTTP/1.1 only: HTTP/2 would multiplex many requests on one connection.
func TestBoundedServerRefusesHTTP2(t *testing.T) {
	addr, cfg := startBoundedServer(t, defaultTimeouts, ok())
	h2 := cfg.Clone()
	h2.NextProtos = []string{"h2"}
	conn, err := tls.Dial("tcp", addr, h2)
	if err == nil {
		assert.NotEqual(t, "h2", conn.ConnectionState().NegotiatedProtocol)
		conn.Close()
	}
}

// At most n requests are in the handler at once; one that cannot get a slot within the wait
// is answered 503, and the slots are free again afterwards.
func TestLimitConcurrency(t *testing.T) {
	release := make(chan struct{})
	entered := make(chan struct{}, 10)
	blocking := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		entered <- struct{}{}
		<-release
	})
	addr, cfg := startBoundedServer(t, defaultTimeouts, limitConcurrency(blocking, 2, 100*time.Millisecond))
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: cfg}}
	codes := make(chan int, 2)
	for range 2 {
		go func() {
			resp, err := client.Post("https://"+addr+"/convert", "application/json", strings.NewReader("{}"))
			if err != nil {
				codes <- 0
				return
			}
			resp.Body.Close()
			codes <- resp.StatusCode
		}()
	}
	<-entered
	<-entered
	resp, err := client.Post("https://"+addr+"/convert", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "a third request while two hold the slots")
	close(release)
	assert.Equal(t, http.StatusOK, <-codes)
	assert.Equal(t, http.StatusOK, <-codes)
	resp, err = client.Post("https://"+addr+"/convert", "application/json", strings.NewReader("{}"))
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the slots are free again")
}

// A client that trickles its body gives its conversion slot back after bodyReadTime instead
// of holding it for the whole request timeout.
func TestSlowBodyLosesItsSlot(t *testing.T) {
	saved := bodyReadTime
	t.Cleanup(func() { bodyReadTime = saved }) // after the server stopped: cleanups run last first
	bodyReadTime = 200 * time.Millisecond
	addr, cfg := startBoundedServer(t, defaultTimeouts, conversionHandler(Scheme(), logr.Discard()))
	conn, err := tls.Dial("tcp", addr, cfg)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.Write([]byte("POST /convert HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"))
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second)))
	status, err := bufio.NewReader(conn).ReadString('\n')
	require.NoError(t, err, "the server answers a trickled body")
	assert.Contains(t, status, "400")
}
