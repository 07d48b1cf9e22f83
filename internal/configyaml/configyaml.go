// SPDX-License-Identifier: Apache-2.0

package configyaml

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"strings"

	"github.com/llamastack/llsd/internal/fastcodec"
	yaml2 "go.yaml.in/yaml/v2"
	yaml3 "go.yaml.in/yaml/v3"
)

// MaxExpandedBytes and MaxExpandedNodes bound what a document may grow to when its aliases are
// expanded: a few hundred kilobytes of nested aliases would otherwise expand to gigabytes (a
// "billion laughs"), and millions of one-letter nodes cost every step after the parse time and
// memory (seconds and hundreds of MB at 8 MiB). A config lives in a ConfigMap, which holds 1 MiB,
// and llsd writes a base config into one: a config that expands past that is none the server is
// given. Configs people write have a few hundred nodes (the largest upstream one, 811).
const (
	MaxExpandedBytes = 1 << 20
	MaxExpandedNodes = 100_000
)

// Unmarshal parses YAML with YAML 1.1 rules (yes/no/on/off are booleans, as in PyYAML)
// into a plain tree. A document whose aliases expand past MaxExpandedBytes is an error.
func Unmarshal(data []byte) (any, error) {
	if err := checkAliases(data); err != nil {
		return nil, err
	}
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
func Marshal(tree any) ([]byte, error) { return fastcodec.TreeYAML(tree) }

// Prepare renders, ahead, the strings of tree that Marshal will ask yaml.v3 about (a base
// config's templates and prompts): run in the background, it takes that time off the first
// Marshal of a config made from tree.
func Prepare(tree any) {
	EachString(tree, fastcodec.PrepareString)
}

// DeepCopy copies a plain tree, so a base config can be changed without touching the cache.
// Its maps and lists are new; its scalars are shared, as values of an interface are never
// changed in place (a map is cloned whole, then its maps and lists copied: cheaper than
// building it key by key, which took 5% of rendering 1,000 LLSDs).
func DeepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := maps.Clone(t)
		if out == nil {
			out = map[string]any{} // as a parsed {} is
		}
		for k, x := range t {
			switch x.(type) {
			case map[string]any, []any:
				out[k] = DeepCopy(x)
			}
		}
		return out
	case []any:
		out := append([]any{}, t...) // never nil, as a parsed [] is not
		for i, x := range t {
			out[i] = DeepCopy(x)
		}
		return out
	}
	return v
}

// checkAliases measures what data expands to, from its nodes (aliases unexpanded, each node's
// size counted once), before anything expands it. Without an anchor (&) there is no alias.
func checkAliases(data []byte) error {
	if !bytes.Contains(data, []byte("&")) {
		return nil
	}
	var doc yaml3.Node
	if yaml3.Unmarshal(data, &doc) != nil {
		return nil //nolint:nilerr // a syntax error: the decoder reports it with its position
	}
	if (&AliasMeasure{}).Over(&doc) {
		return fmt.Errorf("its aliases (*name) expand it to more than %d MiB or %d nodes, more than a ConfigMap holds: write the config without them",
			MaxExpandedBytes>>20, MaxExpandedNodes)
	}
	return nil
}

// AliasMeasure measures what nodes expand to when their aliases (*name) are expanded, without
// expanding them: each node once, however many aliases name it, and no further than past
// MaxExpandedBytes or MaxExpandedNodes.
type AliasMeasure struct{ known map[*yaml3.Node]expansion }

// Size is what n expands to: the bytes of its scalars (one more each) and its nodes, each
// past its bound at most by the last node measured.
func (m *AliasMeasure) Size(n *yaml3.Node) (bytes, nodes int) {
	if m.known == nil {
		m.known = map[*yaml3.Node]expansion{}
	}
	e := expandedSize(n, m.known)
	return e.bytes, e.nodes
}

// Over reports whether n expands past MaxExpandedBytes or MaxExpandedNodes.
func (m *AliasMeasure) Over(n *yaml3.Node) bool {
	bytes, nodes := m.Size(n)
	return expansion{bytes, nodes}.over()
}

// expansion is what a node expands to: the bytes of its scalars (one more each) and its nodes.
type expansion struct{ bytes, nodes int }

func (e expansion) over() bool { return e.bytes > MaxExpandedBytes || e.nodes > MaxExpandedNodes }

// expandedSize is what n expands to, each node measured once (known keeps the measures), and
// no further than past a bound.
func expandedSize(n *yaml3.Node, known map[*yaml3.Node]expansion) expansion {
	if e, ok := known[n]; ok {
		return e
	}
	known[n] = expansion{bytes: MaxExpandedBytes + 1} // an alias of a node inside itself never ends
	e := expansion{bytes: len(n.Value) + 1, nodes: 1}
	if n.Kind == yaml3.AliasNode && n.Alias != nil {
		e = expandedSize(n.Alias, known)
	}
	for _, c := range n.Content {
		ce := expandedSize(c, known)
		if e.bytes, e.nodes = e.bytes+ce.bytes, e.nodes+ce.nodes; e.over() {
			break
		}
	}
	known[n] = e
	return e
}
