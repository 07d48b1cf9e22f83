// SPDX-License-Identifier: Apache-2.0

package config

import (
	"strings"

	"github.com/llamastack/llsd/internal/lazyre"
)

// secretQuery matches the values of query parameters that look like credentials
// (?api_key=..., &token=..., ;password=...).
var secretQuery = lazyre.New(`(?i)([?&;][^=&;#]*(?:key|token|secret|passw|pwd|auth|signature|sig|credential)[^=&;#]*=)[^&;#]*`)

// redact hides what an endpoint may hold of a secret before it appears in an error: all of
// its user part, up to the last @ (also when it does not parse as a URL's user info: a / in
// a password ends the host part of a URL), and the values of credential-looking query
// parameters. user:pw@host -> xxxxx@host.
func redact(endpoint string) string {
	scheme, rest, hasScheme := strings.Cut(endpoint, "://")
	if !hasScheme {
		scheme, rest = "", endpoint
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = "xxxxx@" + rest[i+1:]
	}
	rest = secretQuery().ReplaceAllString(rest, "${1}xxxxx")
	if hasScheme {
		return scheme + "://" + rest
	}
	return rest
}

// hasCredentials reports whether an endpoint holds something redact hides: user info, or a
// credential in its query. Endpoints are written into a ConfigMap in clear.
func hasCredentials(endpoint string) bool {
	return redact(endpoint) != endpoint
}
