// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"regexp"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The checks below are the Go side of the CRD's OpenAPI constraints. Their messages are
// worded as the API server words them, so `kustomize build` and `kubectl apply` report a
// bad field the same way (the envtest parity suite holds them to that).

// Patterns shared by the CRD markers and the Go checks.
const (
	idPattern           = `^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`
	dnsLabelPattern     = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
	dnsSubdomainPattern = `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	providerPattern     = `^((remote|inline)::)?[a-z0-9]([a-z0-9_-]*[a-z0-9])?(::[a-z0-9]([a-z0-9_-]*[a-z0-9])?)?$`
	secretKeyPattern    = `^[-._a-zA-Z0-9]+$`
	caKeyPattern        = `^[a-zA-Z0-9]([a-zA-Z0-9\-_.]*[a-zA-Z0-9])?$`
	absPathPattern      = `^/`
	configKeyPattern    = `^[a-z][a-z0-9_]*$`
	versionPattern      = `^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`
	hostPattern         = `^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	urlPattern          = `^https?://[^\s@]+$`
	headerPattern       = `^[A-Za-z0-9-]+$`
	modulePattern       = `^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(==[A-Za-z0-9.+!_-]+)?$`
	providerTypePattern = `^(remote|inline)::[a-z0-9][a-z0-9_.-]*$`
	providerPathPattern = `^/[^:]*$`
	backendNamePattern  = `^[A-Za-z0-9_-]{1,63}$`
	tableNamePattern    = `^[A-Za-z_][A-Za-z0-9_]{0,62}$`
	labelPattern        = `^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?(=([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?)?$`
)

// compiled holds the patterns, compiled on first use (not when every llsd command starts).
var compiled = sync.OnceValue(func() map[string]*regexp.Regexp {
	m := map[string]*regexp.Regexp{}
	for _, p := range []string{idPattern, dnsLabelPattern, dnsSubdomainPattern, providerPattern, secretKeyPattern, caKeyPattern, absPathPattern, configKeyPattern, versionPattern, labelPattern, hostPattern,
		urlPattern, headerPattern, modulePattern, providerTypePattern, providerPathPattern, backendNamePattern, tableNamePattern} {
		m[p] = regexp.MustCompile(p)
	}
	return m
})

// checks accumulates errors; each method is one OpenAPI keyword.
type checks struct{ errs field.ErrorList }

func (c *checks) add(err *field.Error) { c.errs = append(c.errs, err) }

func (c *checks) required(p *field.Path, value string) bool {
	if value == "" {
		c.add(field.Required(p, ""))
		return false
	}
	return true
}

// str checks an optional string: set strings must fit the length bounds and pattern.
func (c *checks) str(p *field.Path, value string, minLen, maxLen int, pattern string) {
	if value == "" && minLen > 0 && pattern == "" {
		return // unset: Go cannot tell an omitted field from an empty one
	}
	switch {
	case len(value) < minLen:
		c.add(field.Invalid(p, value, fmt.Sprintf("%s in body should be at least %d chars long", p, minLen)))
	case maxLen > 0 && len(value) > maxLen:
		c.add(field.TooLong(p, value, maxLen))
	case pattern != "" && !compiled()[pattern].MatchString(value):
		c.add(field.Invalid(p, value, fmt.Sprintf("%s in body should match '%s'", p, pattern)))
	}
}

// optStr is str for an omitempty field: the empty string means unset.
func (c *checks) optStr(p *field.Path, value string, maxLen int, pattern string) {
	if value != "" {
		c.str(p, value, 1, maxLen, pattern)
	}
}

func (c *checks) minimum(p *field.Path, value *int32, minimum int64) {
	if value != nil && int64(*value) < minimum {
		c.add(field.Invalid(p, *value, fmt.Sprintf("%s in body should be greater than or equal to %d", p, minimum)))
	}
}

func (c *checks) maximum(p *field.Path, value *int32, maximum int64) {
	if value != nil && int64(*value) > maximum {
		c.add(field.Invalid(p, *value, fmt.Sprintf("%s in body should be less than or equal to %d", p, maximum)))
	}
}

func (c *checks) items(p *field.Path, n, maxItems int) {
	// MinItems=1 is not checked: an empty list is omitted when encoded, so it never reaches
	// the API server from Go, and the decoder reports explicit empty lists itself.
	if maxItems > 0 && n > maxItems {
		c.add(field.TooMany(p, n, maxItems))
	}
}

func (c *checks) maxProperties(p *field.Path, n, maximum int) {
	if n > maximum {
		c.add(field.TooMany(p, n, maximum))
	}
}

// minProperties checks a map that is set (an empty map written as {} decodes as set).
func (c *checks) minProperties(p *field.Path, set bool, n, minimum int) {
	if set && n < minimum {
		c.add(field.Invalid(p, n, fmt.Sprintf("%s in body should have at least %d properties", p, minimum)))
	}
}

func (c *checks) enum(p *field.Path, value string, allowed ...string) {
	if value == "" {
		return
	}
	for _, a := range allowed {
		if value == a {
			return
		}
	}
	c.add(field.NotSupported(p, value, allowed))
}

func (c *checks) uniqueStrings(p *field.Path, values []string) {
	seen := map[string]bool{}
	for i, v := range values {
		if seen[v] {
			c.add(field.Duplicate(p.Index(i), v))
		}
		seen[v] = true
	}
}
