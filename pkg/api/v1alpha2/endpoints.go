// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Endpoint is an address the spec names, parsed once: a URL, or host[:port][/path] as
// pgvector's, redis's and Postgres backends' are written.
//
// +kubebuilder:object:generate=false
type Endpoint struct {
	// Field is the field that names it.
	Field string
	// Raw is the value as written.
	Raw string
	// URL is the parsed value, with scheme (the bare form's kind when written without one);
	// nil when it does not parse.
	URL *url.URL
}

// ParseEndpoint reads an address, giving one written without a scheme (host:port/db) the
// scheme bare ("redis", "postgresql", "tcp"; "" to read it as written).
//
//	ParseEndpoint("pg.db.svc:5433/vectors", "postgresql")   // postgresql://pg.db.svc:5433/vectors
func ParseEndpoint(raw, bare string) (*url.URL, error) {
	if bare != "" && !strings.Contains(raw, "://") {
		raw = bare + "://" + raw
	}
	return url.Parse(raw)
}

// Host is the endpoint's host name or address; "" when it does not parse.
func (e Endpoint) Host() string {
	if e.URL == nil {
		return ""
	}
	return e.URL.Hostname()
}

// Port is the port the endpoint names, else its scheme's (http 80, https 443), else 0.
func (e Endpoint) Port() int {
	if e.URL == nil {
		return 0
	}
	if p, err := strconv.Atoi(e.URL.Port()); err == nil {
		return p
	}
	return map[string]int{"http": 80, "https": 443}[e.URL.Scheme]
}

// PortOr is the port a URL names, or def when it names none; an error for a port that is no
// number between 1 and 65535.
func PortOr(u *url.URL, def int64) (int64, error) {
	p := u.Port()
	if p == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(p, 10, 64)
	if err != nil || n < 1 || n > 65535 {
		return 0, fmt.Errorf("port %q is not a number between 1 and 65535", p)
	}
	return n, nil
}

// Endpoints are the addresses the spec names, in spec order: providers' endpoints, the
// key-value store's, the named storage backends', telemetry's, MCP servers' and what the
// authentication provider calls.
func (s *LlamaStackDistributionSpec) Endpoints() []Endpoint {
	var out []Endpoint
	add := func(path *field.Path, raw string) { out = append(out, newEndpoint(path, raw)) }
	for _, list := range s.Providers.APIs() {
		for i, p := range list.Providers {
			path := field.NewPath("spec", "providers", string(list.Name)).Index(i)
			if p.Endpoint != "" {
				add(path.Child("endpoint"), p.Endpoint)
				continue
			}
			settings := p.SettingsMap()
			for _, key := range settingsURLKeys {
				if u := settingsURL(settings, key); u != "" {
					add(path.Child("settings").Key(key), u)
				}
			}
		}
	}
	if st := s.Storage; st != nil {
		if st.KV != nil && st.KV.Endpoint != "" {
			add(field.NewPath("spec", "storage", "kv", "endpoint"), st.KV.Endpoint)
		}
		for _, name := range slices.Sorted(maps.Keys(st.Backends)) {
			b := st.Backends[name]
			add(field.NewPath("spec", "storage", "backends", name, "host"), net.JoinHostPort(b.Host, strconv.Itoa(int(b.PortOrDefault()))))
		}
	}
	if t := s.Telemetry; t != nil {
		add(field.NewPath("spec", "telemetry", "endpoint"), t.Endpoint)
	}
	if r := s.Resources; r != nil {
		for i, m := range r.MCPServers {
			add(field.NewPath("spec", "resources", "mcpServers").Index(i).Child("url"), m.URL)
		}
	}
	return append(out, s.Authentication.endpoints()...)
}

// DefaultKubernetesAPIServer is the API server's URL from a pod, where the Kubernetes
// authentication provider asks when apiServerURL is unset.
const DefaultKubernetesAPIServer = "https://kubernetes.default.svc"

// DefaultGitHubAPI is GitHub's API, which the GitHub provider asks when apiBaseURL is unset.
const DefaultGitHubAPI = "https://api.github.com"

// endpoints are what the authentication provider calls: the issuer's keys or introspection
// endpoint, the API server, GitHub's API, the custom endpoint.
func (a *AuthenticationSpec) endpoints() []Endpoint {
	if a == nil {
		return nil
	}
	at := field.NewPath("spec", "authentication")
	switch {
	case a.OIDC != nil && a.OIDC.JWKSURI != "":
		return []Endpoint{newEndpoint(at.Child("oidc", "jwksURI"), a.OIDC.JWKSURI)}
	case a.OIDC != nil && a.OIDC.Introspection != nil:
		return []Endpoint{newEndpoint(at.Child("oidc", "introspection", "url"), a.OIDC.Introspection.URL)}
	case a.Kubernetes != nil:
		return []Endpoint{newEndpoint(at.Child("kubernetes", "apiServerURL"), cmp.Or(a.Kubernetes.APIServerURL, DefaultKubernetesAPIServer))}
	case a.GitHub != nil:
		return []Endpoint{newEndpoint(at.Child("github", "apiBaseURL"), cmp.Or(a.GitHub.APIBaseURL, DefaultGitHubAPI))}
	case a.Custom != nil:
		return []Endpoint{newEndpoint(at.Child("custom", "endpoint"), a.Custom.Endpoint)}
	}
	return nil
}

// newEndpoint parses raw, read as tcp://raw when it has no scheme.
func newEndpoint(path *field.Path, raw string) Endpoint {
	u, err := ParseEndpoint(raw, "tcp")
	if err != nil {
		u = nil
	}
	return Endpoint{Field: path.String(), Raw: raw, URL: u}
}

// settingsURLKeys are the settings that name where a provider connects when its endpoint is not
// set: a custom provider, or one converted from an OGXServer, writes base_url (or url) there.
var settingsURLKeys = []string{"base_url", "url"}

// settingsURL is the http(s) URL settings write at key, "" when they write none (or one the
// pod's variables fill in, unknown here).
func settingsURL(settings map[string]any, key string) string {
	u, _ := settings[key].(string)
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") || strings.Contains(u, "${") {
		return ""
	}
	return u
}

// SettingsMap is the provider's settings decoded: empty when it has none, or when they are no
// mapping (which validation refuses).
func (p ProviderSpec) SettingsMap() map[string]any {
	var settings map[string]any
	if p.Settings == nil || json.Unmarshal(p.Settings.Raw, &settings) != nil || settings == nil {
		return map[string]any{}
	}
	return settings
}
