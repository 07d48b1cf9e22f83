// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The server settings some versions have: the server's TLS ciphers and HSTS (OGX 1.2 on),
// CORS (llama-stack 0.6 to OGX 0.8) and tenancy (OGX 1.2 on). On a version without one, the
// field is refused with what replaces it.

// serverSettingFixes say what to do instead of a setting the version has not.
var serverSettingFixes = map[string]string{
	"tls_config":   `set ⟦spec.distribution.serverVersion⟧: "1.2" or later, or remove it (the server then offers Python's default ciphers)`,
	"hsts_max_age": `set ⟦spec.distribution.serverVersion⟧: "1.2" or later, or remove it and have the Ingress send Strict-Transport-Security`,
	"tenancy":      `set ⟦spec.distribution.serverVersion⟧: "1.2" or later, or remove it`,
	"cors": "OGX 1.0 removed it: have the Ingress answer cross-origin requests (ingress-nginx: nginx.ingress.kubernetes.io/enable-cors " +
		"and nginx.ingress.kubernetes.io/cors-allow-origin in networking.expose.annotations), or remove it",
}

// applyServerSettings writes networking.tls's ciphers and hstsMaxAge, networking.cors and
// authentication.tenancy into server.
func (g *generator) applyServerSettings() {
	tlsPath := field.NewPath("spec", "networking", "tls")
	if n := g.spec.Networking; n != nil && n.TLS != nil {
		if len(n.TLS.Ciphers) > 0 {
			g.setServer("tls_config", tlsPath.Child("ciphers"), map[string]any{"ciphers": toAny(n.TLS.Ciphers)})
		}
		if n.TLS.HSTSMaxAge != nil {
			g.setServer("hsts_max_age", tlsPath.Child("hstsMaxAge"), int64(*n.TLS.HSTSMaxAge))
		}
	}
	if n := g.spec.Networking; n != nil && n.CORS != nil {
		g.setServer("cors", field.NewPath("spec", "networking", "cors"), corsConfig(n.CORS))
	}
	if a := g.spec.Authentication; a != nil && a.Tenancy != nil {
		tenancy := map[string]any{"mode": a.Tenancy.Mode}
		if a.Tenancy.DefaultTenantID != "" {
			tenancy["default_tenant_id"] = a.Tenancy.DefaultTenantID
		}
		if g.setServer("tenancy", authenticationPath.Child("tenancy"), tenancy) && a.Tenancy.Mode == "multi" {
			g.storeVectorStoreMetadata() // OGX-T3: multi-tenant vector stores keep their metadata in SQL
		}
	}
}

// setServer writes server.<key> when the version takes it, and reports whether it did.
func (g *generator) setServer(key string, path *field.Path, value any) bool {
	if !slices.Contains(g.prof.ServerKeys(), key) {
		g.errs = append(g.errs, field.Forbidden(path, fmt.Sprintf("%s has no server.%s (%s have it): %s",
			g.prof, key, profile.ServerKeyVersions(key), serverSettingFixes[key])))
		return false
	}
	ensureMap(g.cfg, "server")[key] = value
	return true
}

func corsConfig(c *v1alpha2.CORSSpec) map[string]any {
	out := map[string]any{}
	for key, list := range map[string][]string{"allow_origins": c.AllowOrigins, "allow_methods": c.AllowMethods,
		"allow_headers": c.AllowHeaders, "expose_headers": c.ExposeHeaders} {
		if len(list) > 0 {
			out[key] = toAny(list)
		}
	}
	if c.AllowOriginRegex != "" {
		out["allow_origin_regex"] = c.AllowOriginRegex
	}
	if c.AllowCredentials {
		out["allow_credentials"] = true
	}
	if c.MaxAge != nil {
		out["max_age"] = int64(*c.MaxAge)
	}
	return out
}
