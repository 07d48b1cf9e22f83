// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"bytes"
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/llamastack/llsd/internal/fastcodec"
	"github.com/llamastack/llsd/internal/lazyre"
)

// resultsText writes the results section of a ResourceList ("results:" and its entries) as
// fn.ResourceList.ToYAML writes it, or reports false for results only the SDK's way writes the
// same (a field's current or proposed value, tags: values of any type). The SDK turns each
// result into JSON, a map and nodes, and sorts their keys (kyaml's yaml.FieldOrder first, then
// by name); a render's thousands of warnings made that an eighth of its time. Here each result
// becomes the same nodes directly. TestWriteResourceListIsToYAML and FuzzResultsText hold it to
// ToYAML.
func resultsText(results fn.Results) ([]byte, bool) {
	var buf bytes.Buffer
	buf.WriteString("results:\n")
	for _, r := range results {
		node, ok := resultNode(r)
		if !ok {
			return nil, false
		}
		text, err := encodeEntry(node)
		if err != nil {
			return nil, false
		}
		buf.Write(text)
	}
	return buf.Bytes(), true
}

// resultNode is a result as the SDK's nodes of it: the fields JSON would hold (omitempty).
func resultNode(r *fn.Result) (*yaml.Node, bool) {
	if r == nil || len(r.Tags) > 0 || (r.Field != nil && (r.Field.CurrentValue != nil || r.Field.ProposedValue != nil)) {
		return nil, false
	}
	m := &mapping{}
	m.str("message", r.Message)
	m.str("severity", string(r.Severity))
	if ref := r.ResourceRef; ref != nil {
		n := &mapping{}
		n.str("apiVersion", ref.APIVersion)
		n.str("kind", ref.Kind)
		n.str("name", ref.Name)
		n.str("namespace", ref.Namespace)
		m.add("resourceRef", n.node())
	}
	if f := r.Field; f != nil {
		n := &mapping{}
		n.str("path", f.Path)
		m.add("field", n.node())
	}
	if f := r.File; f != nil {
		n := &mapping{}
		n.str("path", f.Path)
		if f.Index != 0 {
			n.add("index", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(f.Index)})
		}
		m.add("file", n.node())
	}
	return m.node(), true
}

// mapping collects the pairs of a mapping node, to be ordered as the SDK orders them.
type mapping []keyValue

type keyValue struct {
	key   string
	value *yaml.Node
}

// str adds a string value unless it is empty (omitempty), as a !!str scalar that writes as
// yaml.v3 writes a Go string (the SDK encodes a map of them); a byte that is no UTF-8 becomes
// U+FFFD, as the SDK's JSON round trip makes it.
func (m *mapping) str(key, value string) {
	if value == "" {
		return
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: fastcodec.AsJSONString(value)}
	if quotedAsGoString(n.Value) {
		n.Style = yaml.DoubleQuotedStyle
	}
	m.add(key, n)
}

// quotedAsGoString reports a string yaml.v3 double-quotes as a Go value but would write plain
// as a node: YAML 1.1's bools (yes, off) and sexagesimal floats (1:20), which a YAML 1.1 reader
// would not read back as strings.
func quotedAsGoString(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "n", "N", "no", "No", "NO", "off", "Off", "OFF":
		return true
	}
	return strings.IndexByte(s, ':') > 0 && sexagesimal().MatchString(s)
}

// sexagesimal is a YAML 1.1 base-60 float.
var sexagesimal = lazyre.New(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

func (m *mapping) add(key string, value *yaml.Node) {
	*m = append(*m, keyValue{key, value})
}

// node is the mapping with its keys in the SDK's order: those kyaml's FieldOrder knows first, in
// its order, then the others by name. An empty mapping is written {}, as yaml.v3 writes an
// empty map.
func (m mapping) node() *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if len(m) == 0 {
		n.Style = yaml.FlowStyle
		return n
	}
	slices.SortStableFunc(m, func(a, b keyValue) int { return fieldOrder(a.key, b.key) })
	for _, p := range m {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p.key}, p.value)
	}
	return n
}

// fieldOrder is the SDK's order of two keys of a mapping.
func fieldOrder(a, b string) int {
	ai, aKnown := yaml.FieldOrder[a]
	bi, bKnown := yaml.FieldOrder[b]
	switch {
	case aKnown && bKnown:
		return cmp.Compare(ai, bi)
	case aKnown:
		return -1
	case bKnown:
		return 1
	}
	return strings.Compare(a, b)
}

// resultsFast reports whether the results are written by resultsText: with the writer path of
// internal/fastcodec on (make bench turns it off to measure what it buys).
func resultsFast() bool { return fastcodec.On(fastcodec.PathWriter) }
