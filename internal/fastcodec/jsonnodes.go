// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// KubeObjectFromJSON is KubeObject of an object's JSON read with DecodeJSON, less the fields
// drop names (DropFields), read straight into nodes: no tree of maps in between, and no
// encoding/json, whose reflective decoder was as much work again as the nodes themselves.
// TestNodesMatchTheYAMLRoundTrip and FuzzNodesMatchTheYAMLRoundTrip hold it to the text round
// trip it replaces, TestKubeObjectFromJSONMatchesEncodingJSON and FuzzKubeObjectFromJSON to
// DecodeJSON's tree (encoding/json) made into nodes.
func KubeObjectFromJSON(data []byte, drop func(path []string, empty bool) bool) (*fn.KubeObject, error) {
	return KubeObjectFromJSONWithStrings(data, drop, "", nil)
}

// KubeObjectFromJSONWithStrings is KubeObjectFromJSON of an object whose field, a map of
// strings, is left out of data and given as values: they go into nodes as they are, where
// written into JSON and read back each byte would be escaped and unescaped again (a ConfigMap's
// config.yaml is kilobytes). The nodes are those the whole object's JSON gives: a byte of a
// value that is no UTF-8 is U+FFFD, as json.Marshal writes it (values with such a key take the
// JSON way). TestKubeObjectFromJSONWithStrings holds it to KubeObjectFromJSON.
func KubeObjectFromJSONWithStrings(data []byte, drop func(path []string, empty bool) bool, field string, values map[string]string) (*fn.KubeObject, error) {
	if !On(PathNodes) || !validKeys(values) {
		tree, err := DecodeJSON(data)
		if err != nil {
			return nil, err
		}
		if len(values) > 0 {
			if tree[field], err = jsonTree(values); err != nil {
				return nil, err
			}
		}
		DropFields(tree, drop)
		return KubeObject(tree)
	}
	r := nodeReader{jsonReader: jsonReader{data: data}, drop: drop}
	node, err := r.node(0, nil)
	if err != nil {
		return nil, err
	}
	r.space()
	if r.at < len(r.data) || node.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: an object's JSON", errJSON)
	}
	if len(values) > 0 && (drop == nil || !drop([]string{field}, false)) {
		insertField(node, field, stringMapNode(field, values, drop))
	}
	return kubeObjectOfNode(node)
}

// jsonTree is values as DecodeJSON reads them from their JSON.
func jsonTree(values map[string]string) (map[string]any, error) {
	data, err := json.Marshal(values)
	if err != nil {
		return nil, err
	}
	return DecodeJSON(data)
}

func validKeys(values map[string]string) bool {
	for k := range values {
		if !utf8.ValidString(k) {
			return false
		}
	}
	return true
}

// stringMapNode is the mapping nodeReader reads from the JSON of values, field's value.
func stringMapNode(field string, values map[string]string, drop func([]string, bool) bool) *yaml.Node {
	keys := make([]string, 0, len(values))
	for k := range values {
		if drop == nil || !drop([]string{field, k}, false) {
			keys = append(keys, k)
		}
	}
	sortNatural(keys)
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if len(keys) == 0 {
		n.Style = yaml.FlowStyle
		return n
	}
	n.Content = make([]*yaml.Node, 0, 2*len(keys))
	for _, k := range keys {
		n.Content = append(n.Content, stringScalar(k), stringScalar(AsJSONString(values[k])))
	}
	return n
}

// insertField puts key: value into a mapping of naturally ordered keys, in its place.
func insertField(mapping *yaml.Node, key string, value *yaml.Node) {
	at := len(mapping.Content)
	for i := 0; i+1 < len(mapping.Content); i += 2 {
		if naturalCompare(mapping.Content[i].Value, key) > 0 {
			at = i
			break
		}
	}
	mapping.Content = slices.Insert(mapping.Content, at, stringScalar(key), value)
	mapping.Style = 0 // no longer the {} of an empty mapping
}

// AsJSONString is s as json.Marshal writes it and a reader reads it back: each byte that is no
// UTF-8 replaced by U+FFFD.
func AsJSONString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string([]rune(s))
}

// DropFields removes from an object's tree the fields of its top two levels that drop names
// (called with each field's path and whether its value is an empty mapping), as
// KubeObjectFromJSON leaves them out of the nodes.
func DropFields(tree map[string]any, drop func(path []string, empty bool) bool) {
	dropFields(tree, nil, drop)
}

func dropFields(tree map[string]any, path []string, drop func([]string, bool) bool) {
	for k, v := range tree {
		at := append(slices.Clip(path), k)
		m, isMap := v.(map[string]any)
		if drop(at, isMap && len(m) == 0) {
			delete(tree, k)
		} else if isMap && len(at) < 2 {
			dropFields(m, at, drop)
		}
	}
}

// nodeReader reads JSON into the nodes toYAMLNode makes of the tree DecodeJSON reads.
type nodeReader struct {
	jsonReader
	drop func(path []string, empty bool) bool
}

// node reads a value; path is where it is while it is within the levels drop is asked about.
func (r *nodeReader) node(depth int, path []string) (*yaml.Node, error) {
	if depth > maxJSONDepth {
		return nil, errJSON
	}
	r.space()
	if r.at >= len(r.data) {
		return nil, errJSON
	}
	switch r.data[r.at] {
	case '{':
		return r.mapping(depth, path)
	case '[':
		return r.sequence(depth)
	case '"':
		s, err := r.text()
		if err != nil {
			return nil, err
		}
		return stringScalar(s), nil
	}
	v, err := r.scalar()
	if err != nil {
		return nil, err
	}
	return scalarNode(v)
}

func (r *nodeReader) mapping(depth int, path []string) (*yaml.Node, error) {
	r.at++ // {
	type pair struct {
		key   string
		value *yaml.Node
	}
	var pairs []pair
	r.space()
	if r.at < len(r.data) && r.data[r.at] == '}' {
		r.at++
	} else {
		for {
			r.space()
			if r.at >= len(r.data) || r.data[r.at] != '"' {
				return nil, errJSON
			}
			key, err := r.text()
			if err != nil {
				return nil, err
			}
			r.space()
			if r.at >= len(r.data) || r.data[r.at] != ':' {
				return nil, errJSON
			}
			r.at++
			var at []string
			if r.drop != nil && len(path) < 2 {
				at = append(slices.Clip(path), key)
			}
			value, err := r.node(depth+1, at)
			if err != nil {
				return nil, err
			}
			if at == nil || !r.drop(at, value.Kind == yaml.MappingNode && len(value.Content) == 0) {
				pairs = append(pairs, pair{key, value})
			}
			done, err := r.next('}')
			if err != nil {
				return nil, err
			}
			if done {
				break
			}
		}
	}
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if len(pairs) == 0 {
		n.Style = yaml.FlowStyle
		return n, nil
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return naturalCompare(a.key, b.key) })
	n.Content = make([]*yaml.Node, 0, 2*len(pairs))
	for i, p := range pairs {
		if i+1 < len(pairs) && pairs[i+1].key == p.key {
			continue // the last of a repeated key wins, as in a map
		}
		n.Content = append(n.Content, stringScalar(p.key), p.value)
	}
	return n, nil
}

func (r *nodeReader) sequence(depth int) (*yaml.Node, error) {
	r.at++ // [
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	r.space()
	if r.at < len(r.data) && r.data[r.at] == ']' {
		r.at++
		n.Style = yaml.FlowStyle
		return n, nil
	}
	for {
		item, err := r.node(depth+1, nil)
		if err != nil {
			return nil, err
		}
		n.Content = append(n.Content, item)
		done, err := r.next(']')
		if err != nil {
			return nil, err
		}
		if done {
			return n, nil
		}
	}
}
