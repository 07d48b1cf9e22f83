// SPDX-License-Identifier: Apache-2.0

package api

import (
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
)

// DecodeNode is DecodeObject for a document already parsed, as the KRM function holds each
// item (kyaml's node): it is read from the node, not written out and parsed again.
//
// The values are those `kubectl apply` reads from the same text (sigs.k8s.io/yaml, YAML 1.1:
// an unquoted yes is true, 0777 is 511), not yaml.v3's own (YAML 1.2). A document the node
// cannot settle that way (a key written twice, an alias, an explicit tag, a merge key, a key
// that is no string, a float JSON cannot hold) is read as text, asText's, as DecodeObject
// reads it: the same values and the same errors, with their lines.
func DecodeNode(node *yaml.Node, asText func() []byte) (*Decoded, field.ErrorList) {
	if doc, ok := nodeDocument(node); ok {
		return decodeDocument(doc)
	}
	return DecodeObject(asText())
}

// nodeDocument is the document a node holds, in the values json.Unmarshal would give for its
// JSON form (float64 numbers), or false when nodeValue cannot tell.
func nodeDocument(node *yaml.Node) (map[string]any, bool) {
	if node.Kind == yaml.DocumentNode && len(node.Content) == 1 {
		node = node.Content[0]
	}
	if node.Kind != yaml.MappingNode {
		return nil, false
	}
	v, ok := nodeValue(node)
	if !ok {
		return nil, false
	}
	doc, _ := v.(map[string]any)
	return doc, doc != nil
}

// nodeValue is a node's value as JSON values, or false when it must be read as text. An alias
// is read as text too: each use of one is a copy, which the text path bounds (a few anchors
// can otherwise make a document of billions of values).
func nodeValue(n *yaml.Node) (any, bool) {
	switch n.Kind {
	case yaml.MappingNode:
		return mappingValue(n)
	case yaml.SequenceNode:
		if n.Style&yaml.TaggedStyle != 0 {
			return nil, false
		}
		list := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			if emptyInFlow(n, item) {
				return nil, false
			}
			v, ok := nodeValue(item)
			if !ok {
				return nil, false
			}
			list = append(list, v)
		}
		return list, true
	case yaml.ScalarNode:
		return scalarValue(n)
	}
	return nil, false
}

func mappingValue(n *yaml.Node) (any, bool) {
	if n.Style&yaml.TaggedStyle != 0 || len(n.Content)%2 != 0 {
		return nil, false
	}
	m := make(map[string]any, len(n.Content)/2)
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key, ok := scalarValue(k)
		name, isString := key.(string)
		if !ok || !isString || k.Kind != yaml.ScalarNode || k.Tag == "!!merge" {
			return nil, false // a key that is no string, or a merge key: the text path says what it is
		}
		if _, twice := m[name]; twice {
			return nil, false // the text path reports it, with its line
		}
		if emptyInFlow(n, v) {
			return nil, false
		}
		value, ok := nodeValue(v)
		if !ok {
			return nil, false
		}
		m[name] = value
	}
	return m, true
}

// emptyInFlow reports an empty value in a flow mapping or list ({a}, [a, ]): kyaml writes it
// out as a quoted empty string, so the text path, which reads what kyaml writes, has a string
// where the node has a null.
func emptyInFlow(parent, child *yaml.Node) bool {
	return parent.Style&yaml.FlowStyle != 0 && child.Kind == yaml.ScalarNode && child.Value == "" && child.Style == 0
}

// scalarValue is a scalar as YAML 1.1 resolves it, in JSON's values: a quoted or block scalar
// is a string; a plain one may be null, a bool, an int or a float. (The rules are those of
// go.yaml.in/yaml/v2, which sigs.k8s.io/yaml reads with; TestDecodeNodeReadsAsKubectlDoes and
// FuzzDecodeNode hold this reading to it.)
func scalarValue(n *yaml.Node) (any, bool) {
	if n.Style&yaml.TaggedStyle != 0 || !resolvedTags[n.Tag] {
		return nil, false // a tag of the author's ("!", "!!binary"): the text path reads it
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return n.Value, true
	}
	return plainValue(n.Value)
}

// resolvedTags are the tags yaml.v3 gives a scalar written without one.
var resolvedTags = map[string]bool{"": true, "!!str": true, "!!int": true, "!!float": true, "!!bool": true, "!!null": true, "!!timestamp": true}

// plainWords are the plain scalars YAML 1.1 reads as null or a bool.
var plainWords = map[string]any{
	"": nil, "~": nil, "null": nil, "Null": nil, "NULL": nil,
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true,
	"on": true, "On": true, "ON": true,
	"n": false, "N": false, "no": false, "No": false, "NO": false, "false": false, "False": false, "FALSE": false,
	"off": false, "Off": false, "OFF": false,
}

// decimalFloat is a float as YAML 1.1 writes one in digits: 1.5, .5, 1e3, -2.
var decimalFloat = lazyre.New(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

func plainValue(s string) (any, bool) {
	if v, ok := plainWords[s]; ok {
		return v, true
	}
	if s == "<<" || strings.EqualFold(strings.TrimLeft(s, "+-"), ".inf") || strings.EqualFold(s, ".nan") {
		return nil, false // a merge key, or a float JSON cannot hold: the text path says so
	}
	switch {
	case s[0] == '.':
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, true
		}
	case s[0] == '+' || s[0] == '-' || (s[0] >= '0' && s[0] <= '9'):
		return numberValue(s)
	}
	return s, true
}

// numberValue reads a plain scalar that starts like a number: a timestamp stays a string (as
// YAML 1.1 gives it to an untyped value), an int may be octal (0777), hexadecimal, binary or
// written with underscores, and what is no number is a string.
func numberValue(s string) (any, bool) {
	if looksLikeTimestamp(s) {
		return s, true
	}
	digits := strings.ReplaceAll(s, "_", "")
	if i, err := strconv.ParseInt(digits, 0, 64); err == nil {
		return float64(i), true
	}
	if u, err := strconv.ParseUint(digits, 0, 64); err == nil {
		return float64(u), true
	}
	if decimalFloat().MatchString(digits) {
		if f, err := strconv.ParseFloat(digits, 64); err == nil {
			return f, true
		}
	}
	if b, ok := strings.CutPrefix(digits, "-0b"); ok {
		if i, err := strconv.ParseInt("-"+b, 2, 64); err == nil {
			return float64(i), true
		}
	}
	return s, true
}

// looksLikeTimestamp reports a plain scalar YAML 1.1 would take for a timestamp (four digits
// and a dash first): those reach an untyped value as the string written, but are not worth
// telling apart from a number here.
func looksLikeTimestamp(s string) bool {
	return len(s) > 4 && s[4] == '-' && strings.IndexFunc(s[:4], func(r rune) bool { return r < '0' || r > '9' }) < 0
}
