// SPDX-License-Identifier: Apache-2.0

package registrytest

import (
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/crane"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/stretchr/testify/require"
)

// Registry is a running registry at Host (127.0.0.1:port, plain HTTP).
type Registry struct {
	Host   string
	server *httptest.Server

	mu       sync.Mutex
	requests map[string]int
	user     string
	password string
	// tampered are blobs served with other bytes than the ones stored, by digest.
	tampered map[string][]byte
}

// New starts a registry on 127.0.0.1, which clients speak plain HTTP to without being told.
// It stops when the test ends.
func New(t testing.TB) *Registry {
	r := start(t)
	r.server.Start()
	r.Host = strings.TrimPrefix(r.server.URL, "http://")
	return r
}

// NewNonLoopback starts a registry on the machine's first non-loopback IPv4 address, where
// clients try HTTPS unless told the host is insecure. It skips the test on a machine without
// one.
func NewNonLoopback(t testing.TB) *Registry {
	ip := nonLoopbackIPv4()
	if ip == "" {
		t.Skip("no non-loopback IPv4 address to serve a registry on")
	}
	l, err := net.Listen("tcp", ip+":0")
	require.NoError(t, err)
	r := start(t)
	r.server.Listener.Close()
	r.server.Listener = l
	r.server.Start()
	r.Host = l.Addr().String()
	return r
}

func nonLoopbackIPv4() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}

func start(t testing.TB) *Registry {
	r := &Registry{requests: map[string]int{}, tampered: map[string][]byte{}}
	inner := registry.New(registry.Logger(log.New(io.Discard, "", 0))) // a nil logger panics
	r.server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.requests[kind(req.URL.Path)]++
		user, password := r.user, r.password
		body, tamper := r.tampered[path.Base(req.URL.Path)]
		r.mu.Unlock()
		if tamper && kind(req.URL.Path) == "blobs" && req.Method == http.MethodGet {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			_, _ = w.Write(body)
			return
		}
		if user != "" {
			if u, p, ok := req.BasicAuth(); !ok || u != user || p != password {
				w.Header().Set("WWW-Authenticate", `Basic realm="registrytest"`)
				http.Error(w, `{"errors":[{"code":"UNAUTHORIZED","message":"authentication required"}]}`, http.StatusUnauthorized)
				return
			}
		}
		inner.ServeHTTP(w, req)
	}))
	t.Cleanup(r.server.Close)
	return r
}

// kind sorts a registry API path: "manifests", "blobs", "ping" or "other".
func kind(path string) string {
	switch {
	case strings.Contains(path, "/manifests/"):
		return "manifests"
	case strings.Contains(path, "/blobs/"):
		return "blobs"
	case path == "/v2/" || path == "/v2":
		return "ping"
	}
	return "other"
}

// Tamper makes the registry serve body for the blob digest instead of its bytes, as a
// registry that serves real manifests and forged layers would.
func (r *Registry) Tamper(digest string, body []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tampered[digest] = body
}

// RequireAuth makes every request need HTTP basic credentials.
func (r *Registry) RequireAuth(user, password string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.user, r.password = user, password
}

// Requests returns how many requests of a kind ("manifests", "blobs", "ping"), or of any
// kind (""), were served since the last Reset.
func (r *Registry) Requests(kind string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if kind != "" {
		return r.requests[kind]
	}
	n := 0
	for _, c := range r.requests {
		n += c
	}
	return n
}

// Reset zeroes the request counts.
func (r *Registry) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = map[string]int{}
}

// Close takes the registry down: requests then fail to connect.
func (r *Registry) Close() { r.server.Close() }

// Push writes img as Host/repo:tag and returns its reference pinned by digest
// (Host/repo:tag@sha256:...). The push is not counted.
func (r *Registry) Push(t testing.TB, repoTag string, img v1.Image) string {
	return push(t, r, repoTag, img, remote.Write)
}

// PushIndex writes a multi-platform index as Host/repo:tag, like Push.
func (r *Registry) PushIndex(t testing.TB, repoTag string, idx v1.ImageIndex) string {
	return push(t, r, repoTag, idx, remote.WriteIndex)
}

func push[T interface{ Digest() (v1.Hash, error) }](t testing.TB, r *Registry, repoTag string, obj T,
	write func(name.Reference, T, ...remote.Option) error) string {
	ref, err := name.ParseReference(r.Host+"/"+repoTag, name.Insecure) // the test registry speaks plain HTTP
	require.NoError(t, err)
	require.NoError(t, write(ref, obj, r.credentials()...))
	digest, err := obj.Digest()
	require.NoError(t, err)
	r.Reset()
	return ref.String() + "@" + digest.String()
}

func (r *Registry) credentials() []remote.Option {
	if r.user == "" {
		return nil
	}
	return []remote.Option{remote.WithAuth(&authn.Basic{Username: r.user, Password: r.password})}
}

// Image is an image with a random layer, then a layer holding files (path -> content), and
// the given config labels.
func Image(t testing.TB, labels map[string]string, files map[string]string) v1.Image {
	return ImageWithConfig(t, v1.Config{Labels: labels}, files)
}

// ImageWithConfig is Image with a whole image config (labels, env, ...).
func ImageWithConfig(t testing.TB, cfg v1.Config, files map[string]string) v1.Image {
	img, err := random.Image(512, 1)
	require.NoError(t, err)
	if len(files) > 0 {
		m := map[string][]byte{}
		for p, c := range files {
			m[p] = []byte(c)
		}
		layer, err := crane.Layer(m)
		require.NoError(t, err)
		img, err = mutate.AppendLayers(img, layer)
		require.NoError(t, err)
	}
	img, err = mutate.Config(img, cfg)
	require.NoError(t, err)
	return img
}

// Index is a multi-platform index of images by "os/arch".
func Index(t testing.TB, images map[string]v1.Image) v1.ImageIndex {
	adds := make([]mutate.IndexAddendum, 0, len(images))
	for platform, img := range images {
		goos, arch, _ := strings.Cut(platform, "/")
		adds = append(adds, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: goos, Architecture: arch}}})
	}
	return mutate.AppendManifests(empty.Index, adds...)
}

// Keychain hands the same basic credentials to every registry.
type Keychain struct{ User, Password string }

// Resolve implements authn.Keychain.
func (k Keychain) Resolve(authn.Resource) (authn.Authenticator, error) {
	return &authn.Basic{Username: k.User, Password: k.Password}, nil
}
