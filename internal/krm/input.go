// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"fmt"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// ReadResourceList reads a KRM function's input once: into YAML nodes, as the SDK's
// fn.ParseResourceList does, with their aliases (*name) expanded within bounds as kustomize
// expands them (ExpandAliases), bounded by CheckInput's limits before anything looks up a
// label or decodes a map, and then made into the ResourceList fn.ParseResourceList returns.
// An input the SDK would read another way (not one ResourceList of items and a function
// config, or one that carries results, which the SDK decodes into Go values) is bounded the
// same and then left to fn.ParseResourceList, for its result and its errors.
func ReadResourceList(input []byte) (*fn.ResourceList, error) {
	docs, syntaxErr := readDocuments(input)
	expanded := false
	if syntaxErr == nil && mayHaveAliases(input) {
		var err error
		if expanded, err = expandAliases(docs); err != nil {
			return nil, fmt.Errorf("reading the ResourceList: %w", err)
		}
	}
	if _, err := checkDocuments(docs, 0); err != nil {
		return nil, fmt.Errorf("reading the ResourceList: %w", err)
	}
	if rl, ok := plainResourceList(docs); ok && syntaxErr == nil {
		return rl, nil
	}
	if expanded { // the SDK reads text: the text of the expanded documents
		var err error
		if input, err = encodeDocuments(docs); err != nil {
			return nil, err
		}
	}
	return fn.ParseResourceList(input)
}

// plainResourceList makes the ResourceList of one document that holds a ResourceList with
// items (a sequence of mappings) and a function config (a mapping), each optional, and no
// results: the objects take the nodes as they are, as fn.ParseResourceList's do.
func plainResourceList(docs []*yaml.Node) (*fn.ResourceList, bool) {
	if len(docs) != 1 || len(docs[0].Content) != 1 {
		return nil, false
	}
	root := docs[0].Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, false
	}
	seen := map[string]bool{}
	for i := 0; i < len(root.Content); i += 2 {
		key := root.Content[i]
		if key.Kind != yaml.ScalarNode || seen[key.Value] {
			return nil, false // a key the SDK would look up otherwise
		}
		seen[key.Value] = true
	}
	kind, items, cfg := mapValue(root, "kind"), mapValue(root, "items"), mapValue(root, "functionConfig")
	switch {
	case kind == nil || kind.Kind != yaml.ScalarNode || kind.Tag != yaml.NodeTagString || kind.Value != "ResourceList",
		seen["results"],
		items != nil && items.Kind != yaml.SequenceNode,
		cfg != nil && cfg.Kind != yaml.MappingNode:
		return nil, false
	}
	rl := &fn.ResourceList{FunctionConfig: fn.NewEmptyKubeObject()}
	if cfg != nil {
		rl.FunctionConfig = fn.MoveToKubeObject(yaml.NewRNode(cfg))
	}
	if items != nil {
		for _, item := range items.Content {
			if item.Kind != yaml.MappingNode {
				return nil, false
			}
			rl.Items = append(rl.Items, fn.MoveToKubeObject(yaml.NewRNode(item)))
		}
	}
	return rl, true
}
