// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// TreeYAML writes a plain tree as YAML that PyYAML reads back as the same tree (configyaml.Marshal).
// Keys are sorted, so the same tree always gives the same bytes.
func TreeYAML(tree any) ([]byte, error) {
	if m, ok := tree.(map[string]any); ok && On(PathTree) {
		if out, err := emit(m); err == nil {
			return out, nil
		}
	}
	return marshalNodes(tree)
}

// marshalNodes writes a tree through yaml.v3's encoder: what emit reproduces faster.
func marshalNodes(tree any) ([]byte, error) {
	node, err := toNode(tree)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func toNode(v any) (*yaml.Node, error) {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range keys {
			val, err := toNode(t[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			n.Content = append(n.Content, stringNode(k), val)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i, item := range t {
			val, err := toNode(item)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			n.Content = append(n.Content, val)
		}
		return n, nil
	case string:
		return stringNode(t), nil
	case int64:
		return scalar("!!int", strconv.FormatInt(t, 10)), nil
	case int:
		return scalar("!!int", strconv.Itoa(t)), nil
	case float64:
		return scalar("!!float", formatFloat(t)), nil
	case bool:
		return scalar("!!bool", strconv.FormatBool(t)), nil
	case nil:
		return scalar("!!null", "null"), nil
	}
	return nil, fmt.Errorf("unsupported value %T", v)
}

func scalar(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// stringNode quotes the strings YAML 1.1 would not read as strings; yaml.v3 alone only
// knows YAML 1.2's rules.
func stringNode(s string) *yaml.Node {
	n := scalar("!!str", s)
	if ResolvesToNonString(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// formatFloat writes a float so that YAML 1.1 reads a float: PyYAML needs a dot in the
// mantissa and a sign in the exponent (1e5 is a string to it, 1.0e+05 a float).
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	mantissa, exponent, hasExp := strings.Cut(s, "e")
	if !strings.Contains(mantissa, ".") {
		mantissa += ".0"
	}
	if hasExp {
		return mantissa + "e" + exponent
	}
	return mantissa
}
