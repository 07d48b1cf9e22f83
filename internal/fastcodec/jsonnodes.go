// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"fmt"
	"slices"

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
	if !On(PathNodes) {
		tree, err := DecodeJSON(data)
		if err != nil {
			return nil, err
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
	return kubeObjectOfNode(node)
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
