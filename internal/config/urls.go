// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// checkURL refuses a string at a provider's URL key (f.URL: pydantic HttpUrl) that is no http
// or https URL with a host: the provider does not start with it. A value with a ${env.}
// reference is taken, its value not known here.
//
//	endpoint: vllm:8000/v1          # base_url: write http://vllm:8000/v1
//	settings: {base_url: ftp://h/}  # http or https only
func (g *generator) checkURL(providerType string, f profile.Field, v any, path *field.Path) {
	s, ok := v.(string)
	if !ok || !f.URL || substitutes(s) {
		return
	}
	if fix := httpURLFix(s); fix != "" {
		g.errs = append(g.errs, field.Invalid(path, redact.URL(s), fmt.Sprintf(
			"%s's %s in %s is an http or https URL with a host, which this is not, and the server would not start: %s",
			providerType, f.Name, g.prof, fix)))
	}
}

// hostAndPath is a host name or address, with a port and a path or not: what an endpoint
// written without its scheme looks like (vllm.models.svc:8000/v1); a word in capitals, a
// placeholder, does not.
var hostAndPath = lazyre.New(`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:[0-9]+)?(/\S*)?$`)

// httpURLFix says how to make s an http or https URL with a host; "" when it is one.
func httpURLFix(s string) string {
	if p := PlaceholderIn(s); p != "" {
		return "the URL " + placeholderFix(p)
	}
	scheme, _, hasScheme := strings.Cut(s, "://")
	if !hasScheme && hostAndPath().MatchString(s) {
		return "write http://" + redact.URL(s) + " (or https://)"
	}
	if !hasScheme {
		return "write the server's URL: http://<host>:<port>/..." // a placeholder, or a name no host has
	}
	if scheme = strings.ToLower(scheme); scheme != "http" && scheme != "https" {
		return fmt.Sprintf("write http:// or https:// instead of %s://", scheme)
	}
	if u, err := v1alpha2.ParseEndpoint(s, ""); err != nil || u.Hostname() == "" {
		return "name the host: http://<host>:<port>/..."
	}
	return ""
}
