// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"bytes"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/llamastack/llsd/internal/configyaml"
)

// Bounds on what the aliases (*name) of an input may expand it to: an object no more than
// a ConfigMap holds (configyaml.MaxExpandedBytes and MaxExpandedNodes), and the whole input
// no more than the largest input llsd reads without aliases (64 MiB).
const (
	MaxExpandedInputBytes = 64 << 20
	MaxExpandedInputNodes = 10_000_000
)

// ExpandAliases returns a stream of YAML documents (a ResourceList, or the objects of a file)
// with the aliases of each object expanded, as kustomize expands them before it calls a
// function: kpt passes them as they are written, and the KRM functions SDK (v1.1.1) panics on
// an alias where it looks a field up (metadata: {name: &n x, namespace: *n}). Each object's
// expansion is measured before anything expands it and refused past the bounds above (a few
// kilobytes of nested aliases expand to gigabytes). An input without an alias, or one that is
// no YAML (its reader says why), is returned as it is.
func ExpandAliases(data []byte) ([]byte, error) {
	if !bytes.Contains(data, []byte("&")) || !bytes.Contains(data, []byte("*")) {
		return data, nil // no anchor, or no alias of one: nothing to read twice for
	}
	docs, err := readDocuments(data)
	if err != nil || !hasAlias(docs...) {
		return data, nil //nolint:nilerr // a syntax error is the reader's to report, with its position
	}
	if err := checkExpansion(docs); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	for _, doc := range docs {
		if len(doc.Content) == 0 {
			continue // an empty document holds no object
		}
		if err := yaml.NewRNode(doc).DeAnchor(); err != nil { // in place: doc's aliases are copies now
			return nil, err
		}
		if err := enc.Encode(doc); err != nil {
			return nil, err
		}
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// checkExpansion refuses documents whose objects expand past their bounds.
func checkExpansion(docs []*yaml.Node) error {
	var measure configyaml.AliasMeasure
	totalBytes, totalNodes := 0, 0
	for i, o := range objectsOf(docs) {
		b, n := measure.Size(o)
		if measure.Over(o) {
			return fmt.Errorf("%w: object %d: its aliases (*name) expand it to more than %d MiB or %d nodes, more than an object holds: write it without them",
				ErrTooMany, i+1, configyaml.MaxExpandedBytes>>20, configyaml.MaxExpandedNodes)
		}
		if totalBytes, totalNodes = totalBytes+b, totalNodes+n; totalBytes > MaxExpandedInputBytes || totalNodes > MaxExpandedInputNodes {
			return fmt.Errorf("%w: the aliases (*name) of the input expand it past %d MiB or %d nodes: write it without them, or split it",
				ErrTooMany, MaxExpandedInputBytes>>20, MaxExpandedInputNodes)
		}
	}
	return nil
}

// objectsOf are the objects of documents: a ResourceList's items and function config, or
// the document itself.
func objectsOf(docs []*yaml.Node) []*yaml.Node {
	var objects []*yaml.Node
	for _, doc := range docs {
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		if kind := mapValue(root, "kind"); kind == nil || kind.Value != "ResourceList" {
			objects = append(objects, root)
			continue
		}
		if items := mapValue(root, "items"); items != nil {
			objects = append(objects, items.Content...)
		}
		if cfg := mapValue(root, "functionConfig"); cfg != nil {
			objects = append(objects, cfg)
		}
		if results := mapValue(root, "results"); results != nil {
			objects = append(objects, results)
		}
	}
	return objects
}

func hasAlias(nodes ...*yaml.Node) bool {
	for _, n := range nodes {
		if n.Kind == yaml.AliasNode || hasAlias(n.Content...) {
			return true
		}
	}
	return false
}
