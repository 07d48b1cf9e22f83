// SPDX-License-Identifier: Apache-2.0

package main

import (
	"cmp"
	"slices"
	"strings"

	"github.com/llamastack/llsd/internal/profile"
)

// schemaNode is what the field facts read of a JSON Schema node.
type schemaNode struct {
	Type             any                   `json:"type"`
	Format           string                `json:"format"`
	MaxLength        *int                  `json:"maxLength"`
	Enum             []any                 `json:"enum"`
	Const            any                   `json:"const"`
	Ref              string                `json:"$ref"`
	AnyOf            []schemaNode          `json:"anyOf"`
	OneOf            []schemaNode          `json:"oneOf"`
	Properties       map[string]schemaNode `json:"properties"`
	Required         []string              `json:"required"`
	Minimum          *float64              `json:"minimum"`
	ExclusiveMinimum *float64              `json:"exclusiveMinimum"`
	Maximum          *float64              `json:"maximum"`
}

// maxNesting is how deep config classes are followed (network.tls.verify is 3).
const maxNesting = 3

// nestedFields are the fields of the one config class a key takes (a $ref, alone or beside
// null), with their kinds, URL flag, enum, bounds and own nested fields; nil for a key of
// another type, a union of classes, a store reference, or deeper than maxNesting.
func nestedFields(node schemaNode, defs map[string]schemaNode, depth int) []profile.Field {
	if depth > maxNesting {
		return nil
	}
	class, ok := oneClass(node, defs)
	if !ok || len(class.Properties) == 0 {
		return nil
	}
	var fields []profile.Field
	for _, name := range sortedKeys(class.Properties) {
		p := class.Properties[name]
		f := profile.Field{Name: name, Required: slices.Contains(class.Required, name), Kinds: nodeKinds(p, defs), URL: isHTTPURL(p)}
		f.Enum = nodeEnum(p, defs)
		addBounds(&f, p)
		f.Fields = nestedFields(p, defs, depth+1)
		fields = append(fields, f)
	}
	return fields
}

// addBounds sets f's bounds from a number's schema, alone or beside null (pydantic's ge, gt
// and le).
func addBounds(f *profile.Field, node schemaNode) {
	for _, b := range append([]schemaNode{node}, node.AnyOf...) {
		f.Minimum = cmp.Or(f.Minimum, b.Minimum)
		f.ExclusiveMinimum = cmp.Or(f.ExclusiveMinimum, b.ExclusiveMinimum)
		f.Maximum = cmp.Or(f.Maximum, b.Maximum)
	}
}

// oneClass is the config class a node takes, when it takes exactly one (and maybe null); store
// references are the store checks', not these.
func oneClass(node schemaNode, defs map[string]schemaNode) (schemaNode, bool) {
	var refs []string
	if node.Ref != "" {
		refs = append(refs, node.Ref)
	}
	for _, alt := range node.AnyOf {
		switch {
		case alt.Ref != "":
			refs = append(refs, alt.Ref)
		case alt.Type != "null":
			return schemaNode{}, false
		}
	}
	if len(refs) != 1 {
		return schemaNode{}, false
	}
	name := strings.TrimPrefix(refs[0], "#/$defs/")
	if strings.HasSuffix(name, "StoreReference") || strings.HasSuffix(name, "PersistenceConfig") {
		return schemaNode{}, false
	}
	class, ok := defs[name]
	return class, ok
}

// nodeKinds are the YAML kinds a schema node takes, sorted; nil when it takes any.
func nodeKinds(node schemaNode, defs map[string]schemaNode) []string {
	var kinds []string
	add := func(k ...string) {
		for _, k := range k {
			if k == "" {
				continue
			}
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	switch t := node.Type.(type) {
	case string:
		add(t)
	case []any:
		for _, x := range t {
			s, _ := x.(string)
			add(s)
		}
	}
	for _, v := range append(slices.Clone(node.Enum), node.Const) {
		if _, ok := v.(string); ok {
			add("string")
		}
	}
	if node.Ref != "" {
		ref := nodeKinds(defs[strings.TrimPrefix(node.Ref, "#/$defs/")], defs)
		if ref == nil {
			return nil
		}
		add(ref...)
	}
	for _, alt := range append(slices.Clone(node.AnyOf), node.OneOf...) {
		k := nodeKinds(alt, defs)
		if k == nil {
			return nil
		}
		add(k...)
	}
	if len(kinds) == 0 {
		if len(node.Properties) > 0 {
			return []string{"object"}
		}
		return nil
	}
	slices.Sort(kinds)
	return kinds
}

// nodeEnum are the only strings a node takes, beside null.
func nodeEnum(node schemaNode, defs map[string]schemaNode) []string {
	var values []string
	for _, v := range node.Enum {
		if s, ok := v.(string); ok {
			values = append(values, s)
		}
	}
	if node.Ref != "" {
		values = append(values, nodeEnum(defs[strings.TrimPrefix(node.Ref, "#/$defs/")], defs)...)
	}
	for _, alt := range node.AnyOf {
		values = append(values, nodeEnum(alt, defs)...)
	}
	return values
}

// isHTTPURL: pydantic's HttpUrl is a string of format uri of at most 2083 characters.
func isHTTPURL(node schemaNode) bool {
	if node.Format == "uri" && node.MaxLength != nil && *node.MaxLength == 2083 {
		return true
	}
	return slices.ContainsFunc(node.AnyOf, isHTTPURL)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
