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
	if !mayHaveAliases(data) {
		return data, nil
	}
	docs, err := readDocuments(data)
	if err != nil {
		return data, nil //nolint:nilerr // a syntax error is the reader's to report, with its position
	}
	switch expanded, err := expandAliases(docs); {
	case err != nil:
		return nil, err
	case !expanded:
		return data, nil
	}
	return encodeDocuments(docs)
}

// mayHaveAliases is false for data without an anchor (&) or without an alias (*): most inputs,
// which need no walk of their nodes.
func mayHaveAliases(data []byte) bool {
	return bytes.Contains(data, []byte("&")) && bytes.Contains(data, []byte("*"))
}

// expandAliases expands, in place, the aliases of documents within their bounds
// (checkExpansion), and reports whether there was one.
func expandAliases(docs []*yaml.Node) (bool, error) {
	if !hasAlias(docs...) {
		return false, nil
	}
	if err := checkExpansion(docs); err != nil {
		return false, err
	}
	for _, doc := range docs {
		if err := yaml.NewRNode(doc).DeAnchor(); err != nil { // in place: doc's aliases are copies now
			return false, err
		}
	}
	return true, nil
}

// encodeDocuments writes documents as a stream, leaving out empty ones (they hold no object).
func encodeDocuments(docs []*yaml.Node) ([]byte, error) {
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	for _, doc := range docs {
		if len(doc.Content) == 0 {
			continue
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

// objectsOf are the objects of documents and the results of ResourceLists, each measured on
// its own.
func objectsOf(docs []*yaml.Node) []*yaml.Node {
	var all []*yaml.Node
	for _, doc := range docs {
		objects, results := documentObjects(doc)
		all = append(all, objects...)
		if results != nil {
			all = append(all, results)
		}
	}
	return all
}

func hasAlias(nodes ...*yaml.Node) bool {
	for _, n := range nodes {
		if n.Kind == yaml.AliasNode || hasAlias(n.Content...) {
			return true
		}
	}
	return false
}
