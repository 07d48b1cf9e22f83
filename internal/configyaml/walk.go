// SPDX-License-Identifier: Apache-2.0

package configyaml

import (
	"fmt"
	"slices"
	"strings"
)

// Path is where a value sits in a tree: map keys (string) and list indices (int).
type Path []any

// String writes a path as the server's messages do: providers.inference[0].config.
func (p Path) String() string {
	var b strings.Builder
	for _, step := range p {
		if i, ok := step.(int); ok {
			fmt.Fprintf(&b, "[%d]", i)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(step.(string))
	}
	return b.String()
}

// WalkStrings calls visit for every string of a plain tree with its path, map keys in
// sorted order. visit must not keep path: it is reused.
func WalkStrings(tree any, visit func(path Path, s string)) {
	walkStrings(tree, make(Path, 0, 8), true, visit)
}

// EachString calls visit for every string of a plain tree, in WalkStrings' order, without
// their paths: a path step is an interface value, which a string key is boxed into (an
// allocation per key of the tree, most of a walk that needs no path).
func EachString(tree any, visit func(s string)) {
	walkStrings(tree, nil, false, func(_ Path, s string) { visit(s) })
}

// AnyString reports whether match holds for some string of a plain tree.
func AnyString(tree any, match func(string) bool) bool {
	found := false
	EachString(tree, func(s string) { found = found || match(s) })
	return found
}

func walkStrings(v any, path Path, withPath bool, visit func(Path, string)) {
	switch t := v.(type) {
	case map[string]any:
		var buf [16]string // a config's maps are small: sorting their keys here allocates nothing
		keys := buf[:0]
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			child := path
			if withPath {
				child = append(child, k)
			}
			walkStrings(t[k], child, withPath, visit)
		}
	case []any:
		for i, x := range t {
			child := path
			if withPath {
				child = append(child, i)
			}
			walkStrings(x, child, withPath, visit)
		}
	case string:
		visit(path, t)
	}
}

// MapStrings returns a copy of a plain tree with every string replaced by f of it.
func MapStrings(v any, f func(string) string) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = MapStrings(x, f)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = MapStrings(x, f)
		}
		return out
	case string:
		return f(t)
	}
	return v
}
