// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	yaml "go.yaml.in/yaml/v3"
)

// Limits that keep the work of reading an input linear in its size: every reader of KRM
// objects (kyaml's, which kustomize, kpt and llsd use) looks up each label and annotation of
// an object among all the others, in time quadratic in their number, and each object costs
// far more than its bytes. An object with more labels or annotations than MaxMetadataKeys, or
// more documents than MaxDocuments in one run, is refused before it is read.
const (
	MaxDocuments    = 20000
	MaxMetadataKeys = 256
	// MaxSpecMapKeys bounds each mapping in the spec of llsd's own kinds, which are decoded into
	// Go values (a duplicate-key check per key, quadratic in a mapping's size): far above what
	// any field takes (settings are 64 KiB at most), far below where decoding would take seconds.
	MaxSpecMapKeys = 4096
)

// ownKinds are the kinds llsd decodes whole; other objects pass through as nodes.
var ownKinds = map[string]bool{"LlamaStackDistribution": true, "RenderOptions": true}

// ErrTooMany is the error of CheckInput.
var ErrTooMany = errors.New("input over a limit")

// CheckInput counts the documents of an input (a stream of YAML documents, or a
// ResourceList, whose items count) on top of seen, and refuses it when the total is more
// than MaxDocuments or an object has more than MaxMetadataKeys labels or annotations. It reads
// the input once, into YAML nodes only (no decoding into maps, whose duplicate-key check is
// quadratic too). A syntax error is left to the reader, which reports it with its position.
func CheckInput(data []byte, seen int) (int, error) {
	docs, _ := readDocuments(data) // a syntax error is the reader's to report (see above)
	return checkDocuments(docs, seen)
}

// readDocuments reads a stream of YAML documents into nodes, as the KRM functions SDK does;
// at a syntax error it returns the documents before it and the error.
func readDocuments(data []byte) ([]*yaml.Node, error) {
	var docs []*yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		doc := &yaml.Node{}
		switch err := dec.Decode(doc); {
		case errors.Is(err, io.EOF):
			return docs, nil
		case err != nil:
			return docs, err
		}
		docs = append(docs, doc)
	}
}

// checkDocuments is CheckInput on documents already read.
func checkDocuments(docs []*yaml.Node, seen int) (int, error) {
	for _, doc := range docs {
		objects, results := documentObjects(doc)
		if path, n := largestMapping(results, "results"); n > MaxSpecMapKeys {
			return seen, fmt.Errorf("%w: the ResourceList has %d keys at %s, more than %d: a function's results carry a few, "+
				"and decoding each of them costs time in proportion to all the others", ErrTooMany, n, path, MaxSpecMapKeys)
		}
		var err error
		if seen, err = checkObjects(objects, seen); err != nil {
			return seen, err
		}
	}
	return seen, nil
}

// documentObjects are the objects of a document, a ResourceList's items and function config
// or the document itself, and a ResourceList's results.
func documentObjects(doc *yaml.Node) (objects []*yaml.Node, results *yaml.Node) {
	if len(doc.Content) == 0 {
		return nil, nil
	}
	root := doc.Content[0]
	if kind := mapValue(root, "kind"); kind == nil || kind.Value != "ResourceList" {
		return []*yaml.Node{root}, nil
	}
	if items := mapValue(root, "items"); items != nil {
		objects = slices.Clip(items.Content) // appended to below: never into the node's own array
	}
	if cfg := mapValue(root, "functionConfig"); cfg != nil {
		objects = append(objects, cfg)
	}
	return objects, mapValue(root, "results")
}

// checkObjects counts objects on top of seen and bounds each one's metadata and, for llsd's
// own kinds, its spec.
func checkObjects(objects []*yaml.Node, seen int) (int, error) {
	for _, o := range objects {
		if seen++; seen > MaxDocuments {
			return seen, fmt.Errorf("%w: more than %d documents in one render: split the input into several renders", ErrTooMany, MaxDocuments)
		}
		if kind := mapValue(o, "kind"); kind != nil && ownKinds[kind.Value] {
			if path, n := largestMapping(mapValue(o, "spec"), "spec"); n > MaxSpecMapKeys {
				return seen, fmt.Errorf("%w: a %s (document %d) has %d keys at %s, more than %d: no field takes that many, "+
					"and reading each of them costs time in proportion to all the others", ErrTooMany, kind.Value, seen, n, path, MaxSpecMapKeys)
			}
		}
		metadata := mapValue(o, "metadata")
		for _, name := range []string{"labels", "annotations"} {
			if m := mapValue(metadata, name); m != nil && len(m.Content)/2 > MaxMetadataKeys {
				return seen, fmt.Errorf("%w: an object (document %d) has %d %s, more than %d: Kubernetes objects carry a few, "+
					"and reading each of them costs time in proportion to all the others", ErrTooMany, seen, len(m.Content)/2, name, MaxMetadataKeys)
			}
		}
	}
	return seen, nil
}

// largestMapping finds the first mapping below n (at path) with more than MaxSpecMapKeys keys,
// or returns the size of the largest one. Aliases are not followed: the reader refuses them
// in objects it decodes.
func largestMapping(n *yaml.Node, path string) (string, int) {
	if n == nil {
		return path, 0
	}
	largest, at := 0, path
	if n.Kind == yaml.MappingNode {
		largest = len(n.Content) / 2
		if largest > MaxSpecMapKeys {
			return path, largest
		}
	}
	for i, c := range n.Content {
		child := path
		switch n.Kind {
		case yaml.MappingNode:
			if i%2 == 0 {
				continue
			}
			child = path + "." + n.Content[i-1].Value
		case yaml.SequenceNode:
			child = fmt.Sprintf("%s[%d]", path, i)
		}
		if p, size := largestMapping(c, child); size > largest {
			largest, at = size, p
			if size > MaxSpecMapKeys {
				break
			}
		}
	}
	return at, largest
}

// mapValue is the value of key in a mapping node, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
