// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
)

// The kinds llsd reads for each provider config key (from the server's field list) are the
// JSON types the server's own JSON Schema gives that key of that provider's config class, for
// every provider of every server version that the schema names a class of, and so are its URL
// keys (pydantic HttpUrl: format uri of at most 2083 characters) and the strings of its
// enums. Where the field
// list says "any" (a union of classes), llsd takes any value and checks nothing.
func TestSettingsKindsAreTheSchemas(t *testing.T) {
	for _, p := range profile.All() {
		t.Run(string(p.Version), func(t *testing.T) {
			doc, err := servercheck.SchemaDocument(p.Upstream.Server)
			require.NoError(t, err)
			defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
			compared := 0
			for _, api := range p.APIs() {
				for _, providerType := range p.ProviderTypes(api) {
					class, ok := defs[api+"__"+strings.ReplaceAll(providerType, "::", "__")+"__Config"].(map[string]any)
					if !ok {
						continue // a provider whose config class the schema names otherwise
					}
					properties, _ := class["properties"].(map[string]any)
					fields, _ := p.Fields(api, providerType)
					for _, f := range fields {
						property, ok := properties[f.Name]
						if !ok {
							continue
						}
						assert.Equal(t, isHTTPURL(property), f.URL, "%s %s %s is an http or https URL", p, providerType, f.Name)
						assert.Equal(t, schemaEnum(property, defs), f.Enum, "%s %s %s takes only these strings", p, providerType, f.Name)
						if len(f.Kinds) == 0 {
							continue // llsd takes any value there (the field list says "any"): nothing to compare
						}
						want := schemaKinds(property, defs)
						got := slices.Sorted(slices.Values(f.Kinds))
						assert.Equal(t, want, got, "%s %s %s", p, providerType, f.Name)
						compared++
					}
				}
			}
			require.Greater(t, compared, 100)
		})
	}
}

// schemaKinds are the JSON types a schema takes, sorted; nil when it takes any.
func schemaKinds(schema any, defs map[string]any) []string {
	s, _ := schema.(map[string]any)
	var kinds []string
	add := func(k ...string) {
		for _, k := range k {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	switch t := s["type"].(type) {
	case string:
		add(t)
	case []any:
		for _, x := range t {
			add(x.(string))
		}
	}
	values := asList(s["enum"])
	if c, has := s["const"]; has {
		values = append(values, c)
	}
	for _, v := range values {
		switch v.(type) {
		case string:
			add("string")
		case nil:
			add("null")
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		add(schemaKinds(defs[strings.TrimPrefix(ref, "#/$defs/")], defs)...)
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		for _, alt := range asList(s[key]) {
			k := schemaKinds(alt, defs)
			if k == nil {
				return nil
			}
			add(k...)
		}
	}
	if len(kinds) == 0 {
		return nil
	}
	slices.Sort(kinds)
	return kinds
}

// isHTTPURL reports a schema of pydantic's HttpUrl, alone or beside null: a string of format
// uri with HttpUrl's maximum length (AnyUrl has none).
func isHTTPURL(schema any) bool {
	s, _ := schema.(map[string]any)
	if s["format"] == "uri" && fmt.Sprint(s["maxLength"]) == "2083" {
		return true
	}
	return slices.ContainsFunc(asList(s["anyOf"]), isHTTPURL)
}

// schemaEnum are the strings a schema takes when it takes only those, beside null: its enum,
// or its alternatives' and references'.
func schemaEnum(schema any, defs map[string]any) []string {
	s, _ := schema.(map[string]any)
	var values []string
	for _, v := range asList(s["enum"]) {
		if str, ok := v.(string); ok {
			values = append(values, str)
		}
	}
	if ref, ok := s["$ref"].(string); ok {
		values = append(values, schemaEnum(defs[strings.TrimPrefix(ref, "#/$defs/")], defs)...)
	}
	for _, alt := range asList(s["anyOf"]) {
		values = append(values, schemaEnum(alt, defs)...)
	}
	return values
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// A string where the key takes a number or boolean and no string is written as the server's
// pydantic reads it; anything else is left as written.
func TestAsRead(t *testing.T) {
	for _, tc := range []struct {
		reason string
		kinds  []string
		in     any
		want   any
	}{
		{reason: "an integer written as a string", kinds: []string{"integer"}, in: " 8192 ", want: int64(8192)},
		{reason: "a decimal", kinds: []string{"number", "null"}, in: "0.5", want: 0.5},
		{reason: "a boolean pydantic reads from yes", kinds: []string{"boolean"}, in: "Yes", want: true},
		{reason: "a boolean pydantic reads from 0", kinds: []string{"boolean"}, in: "0", want: false},
		{reason: "a key that also takes a string keeps it", kinds: []string{"string", "integer"}, in: "8192", want: "8192"},
		{reason: "a variable's value is not known here", kinds: []string{"integer"}, in: "${env.MAX_TOKENS:=4096}", want: "${env.MAX_TOKENS:=4096}"},
		{reason: "a string that reads as no number is the kind check's", kinds: []string{"integer"}, in: "many", want: "many"},
		{reason: "a number stays a number", kinds: []string{"integer"}, in: int64(3), want: int64(3)},
		{reason: "any value: nothing to read", kinds: nil, in: "8192", want: "8192"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, asRead(tc.kinds, tc.in))
		})
	}
}
