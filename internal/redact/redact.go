// SPDX-License-Identifier: Apache-2.0

// Package redact hides what an endpoint, a message or an error may hold of a credential
// before it is shown: user info of a URL, values of credential-looking query or fragment
// parameters, and values of fields whose name says they hold a credential. Every error,
// warning and log line llsd writes about a user's value goes through it.
package redact

import (
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
)

// Mask replaces what is hidden.
const Mask = "xxxxx"

// credentialName matches a parameter or field name that says it holds a credential: also the
// short ones URLs carry (pass, jwt, bearer; pw as a word of its own).
var credentialName = lazyre.New(`(?i)(key|token|secret|pass|pwd|auth|signature|sig|credential|cookie|session|jwt|bearer|(^|[^a-z])pw([^a-z]|$))`)

// IsCredentialName reports whether a parameter, header or field name says it holds a credential.
func IsCredentialName(name string) bool { return credentialName().MatchString(Decoded(name)) }

// credentialKey matches a config key that holds a credential, at any depth and in the
// spellings of config keys and HTTP headers (api_key, X-Api-Key, Authorization, client_key):
// narrower than credentialName, as a config key's name is all that decides.
var credentialKey = lazyre.New(`(?i)(^|[_-])(password|passwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?key|credentials?|authorization|cookie)($|[_-])`)

// IsCredentialKey reports whether a config key holds a credential by its name (password,
// api_key, X-Api-Key, ...).
func IsCredentialKey(key string) bool { return key != "" && credentialKey().MatchString(key) }

// URL hides what an endpoint may hold of a secret: all of its user part, up to the last @
// (also when it does not parse as a URL's user info: a / in a password ends the host part of
// a URL), and the values of credential-looking query and fragment parameters, whatever
// their names' percent-encoding. user:pw@host -> xxxxx@host.
func URL(endpoint string) string {
	shown, _ := hideURL(endpoint)
	return shown
}

// Hidden are the parts of an endpoint that URL hides: its user part and the values of its
// credential-looking parameters.
func Hidden(endpoint string) []string {
	_, hidden := hideURL(endpoint)
	return hidden
}

func hideURL(endpoint string) (shown string, hidden []string) {
	scheme, rest, hasScheme := strings.Cut(endpoint, "://")
	if !hasScheme {
		scheme, rest = "", endpoint
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		hidden = append(hidden, rest[:i])
		rest = Mask + "@" + rest[i+1:]
	}
	if i := strings.IndexAny(rest, "?#;&"); i >= 0 {
		params, values := parameters(rest[i:])
		rest, hidden = rest[:i]+params, append(hidden, values...)
	}
	if hasScheme {
		return scheme + "://" + rest, hidden
	}
	return rest, hidden
}

// parameters hides the values of credential-looking parameters in a query and fragment
// ("?a=1&api_key=x#access_token=y"), and returns them.
func parameters(s string) (string, []string) {
	var out strings.Builder
	var hidden []string
	for s != "" {
		end := strings.IndexAny(s[1:], "?#&;") + 1
		if end == 0 {
			end = len(s)
		}
		part := s[:end]
		if name, value, ok := strings.Cut(part[1:], "="); ok && IsCredentialName(name) {
			part = part[:1] + name + "=" + Mask
			hidden = append(hidden, value)
		}
		out.WriteString(part)
		s = s[end:]
	}
	return out.String(), hidden
}

// HasCredentials reports whether an endpoint holds something URL hides.
func HasCredentials(endpoint string) bool { return URL(endpoint) != endpoint }

// urlInText is a URL inside a message: a scheme, then anything up to a space or a quote.
var urlInText = lazyre.New(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'` + "`" + `]+`)

// Text hides the credentials of every URL in a message. Punctuation that ends a URL (the
// colon before a message's fix, a full stop) belongs to the message and stays.
func Text(message string) string {
	if !strings.Contains(message, "://") { // no URL: most messages
		return message
	}
	return urlInText().ReplaceAllStringFunc(message, func(u string) string {
		trimmed := strings.TrimRight(u, ":,.;)")
		return URL(trimmed) + u[len(trimmed):]
	})
}

// Errors returns errs with what they would show of credentials hidden: a value of a field
// whose name says it holds a credential entirely, the credentials of a URL value, and those
// of every URL in the details.
func Errors(errs field.ErrorList) field.ErrorList {
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		out = append(out, Error(e))
	}
	return out
}

// Error is one error of Errors.
func Error(e *field.Error) *field.Error {
	c := *e
	c.Detail = Text(c.Detail)
	if s, ok := c.BadValue.(string); ok {
		switch {
		case IsCredentialName(lastName(c.Field)):
			c.BadValue = field.OmitValueType{}
		default:
			c.BadValue = URL(Text(s))
		}
	}
	return &c
}

// lastName is the last field name or key of a field path: spec.x.settings[api_key] -> api_key.
func lastName(path string) string {
	if strings.HasSuffix(path, "]") {
		if i := strings.LastIndex(path, "["); i >= 0 {
			if _, err := strconv.Atoi(path[i+1 : len(path)-1]); err != nil {
				return path[i+1 : len(path)-1]
			}
			path = path[:i]
		}
	}
	return path[strings.LastIndexAny(path, ".[")+1:]
}

// Decoded is s with every percent-encoding undone, as often as it nests, also where the rest
// is no valid encoding: a parameter api%5Fkey is api_key to the server that reads it, and
// an endpoint path %24%7Benv.X%7D becomes ${env.X} in a config key.
func Decoded(s string) string {
	for range 8 {
		d := percentByte().ReplaceAllStringFunc(s, func(hex string) string {
			b, _ := strconv.ParseUint(hex[1:], 16, 8)
			return string([]byte{byte(b)})
		})
		if d == s {
			break
		}
		s = d
	}
	return s
}

var percentByte = lazyre.New(`%[0-9A-Fa-f]{2}`)
