// SPDX-License-Identifier: Apache-2.0

package configyaml

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	yaml2 "go.yaml.in/yaml/v2"
	yaml "go.yaml.in/yaml/v3"
)

// Unmarshal parses YAML with YAML 1.1 rules (yes/no/on/off are booleans, as in PyYAML)
// into a plain tree.
func Unmarshal(data []byte) (any, error) {
	var raw any
	if err := yaml2.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	return normalize(raw, "")
}

// UnmarshalMap parses a YAML document that must be a mapping.
func UnmarshalMap(data []byte) (map[string]any, error) {
	tree, err := Unmarshal(data)
	if err != nil {
		return nil, err
	}
	m, ok := tree.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the document is not a mapping")
	}
	return m, nil
}

// normalize turns yaml.v2's map[interface{}]interface{} and int into the plain tree.
func normalize(v any, path string) (any, error) {
	switch t := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(t))
		for k, val := range t {
			key, ok := k.(string)
			if !ok {
				return nil, fmt.Errorf("%s: key %v is not a string", pathOrRoot(path), k)
			}
			n, err := normalize(val, path+"."+key)
			if err != nil {
				return nil, err
			}
			out[key] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, val := range t {
			n, err := normalize(val, fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case int:
		return int64(t), nil
	case uint64:
		if t > math.MaxInt64 {
			return float64(t), nil
		}
		return int64(t), nil
	case string, int64, float64, bool, nil:
		return t, nil
	}
	return nil, fmt.Errorf("%s: unsupported value %T", pathOrRoot(path), v)
}

func pathOrRoot(path string) string {
	if path == "" {
		return "(root)"
	}
	return strings.TrimPrefix(path, ".")
}

// Marshal writes a plain tree as YAML that PyYAML reads back as the same tree. Keys are
// sorted, so the same tree always gives the same bytes.
func Marshal(tree any) ([]byte, error) {
	if m, ok := tree.(map[string]any); ok {
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

// PyYAML's implicit resolvers (yaml/resolver.py, YAML 1.1). A plain scalar matching one of
// them is not read as a string. The bool rule adds y and n, which PyYAML reads as strings
// but other YAML 1.1 readers (go-yaml v2, hence Unmarshal) as booleans.
var yaml11NonString = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^(?:y|Y|n|N|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`),
		regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`),
		regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`),
		regexp.MustCompile(`^(?:<<)$`),
		regexp.MustCompile(`^(?:~|null|Null|NULL|)$`),
		regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`),
		regexp.MustCompile(`^(?:=)$`),
	}
})

// ResolvesToNonString reports whether PyYAML would read s, written plain, as something
// other than a string.
func ResolvesToNonString(s string) bool {
	// Fast path: a value that starts with a letter can only be a bool or null word, and
	// those have at most five letters ("false").
	if len(s) > 5 && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') {
		return false
	}
	for _, re := range yaml11NonString() {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// DeepCopy copies a plain tree, so a base config can be changed without touching the cache.
func DeepCopy(v any) any { return MapStrings(v, func(s string) string { return s }) }
