// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"bytes"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/llamastack/llsd/internal/memo"
)

// entryWriter writes an item of the ResourceList as the SDK's encoder does (kyaml: indent 2,
// sequences compact under their key), for the node trees llsd builds: block mappings and
// sequences, {} and [] when empty, scalars without comments, anchors or explicit tags. It
// writes the structure and the common scalars itself and asks yaml.v3 once for any other
// scalar's text. yaml.v3's emitter queues every event of a document (hundreds of bytes
// each) and was most of the time and the memory of a large render. An item it does not
// know how to write (a user's object with comments, say) is left to yaml.v3:
// FuzzNodesMatchTheYAMLRoundTrip here and internal/krm's TestWriteResourceListIsToYAML hold it to yaml.v3.
type entryWriter struct{ buf *bytes.Buffer }

// WriteEntry writes node to buf as an entry of a block sequence whose dashes are at column 0;
// false when the node is not one the writer knows (nothing usable is written then).
func WriteEntry(buf *bytes.Buffer, node *yaml.Node) bool {
	return On(PathWriter) && entryWriter{buf}.entry(node)
}

// WriteDocument writes node to buf as a document of a YAML stream (a mapping at column 0), or
// false, as WriteEntry.
func WriteDocument(buf *bytes.Buffer, node *yaml.Node) bool {
	return On(PathWriter) && entryWriter{buf}.document(node)
}

func (w entryWriter) entry(node *yaml.Node) bool {
	if node.Kind != yaml.MappingNode || len(node.Content) == 0 || !plainNode(node) {
		return false
	}
	w.buf.Grow(sizeHint(node)) // one allocation for most entries instead of one per doubling
	w.buf.WriteString("- ")
	return w.mapping(node, 2, true)
}

func (w entryWriter) document(node *yaml.Node) bool {
	if node.Kind != yaml.MappingNode || len(node.Content) == 0 || !plainNode(node) {
		return false
	}
	return w.mapping(node, 0, false)
}

// plainNode: no comment, anchor, explicit tag or flow style (but an empty {} or []).
// sizeHint is about what a node's YAML takes: its scalars, the indentation of a literal's lines
// (a ConfigMap's config.yaml sits at column 6) and, for each node, room for the punctuation
// around it.
func sizeHint(n *yaml.Node) int {
	size := len(n.Value) + 8 + 8*strings.Count(n.Value, "\n")
	for _, c := range n.Content {
		size += sizeHint(c)
	}
	return size
}

func plainNode(n *yaml.Node) bool {
	if n.HeadComment != "" || n.LineComment != "" || n.FootComment != "" || n.Anchor != "" || n.Style&yaml.TaggedStyle != 0 {
		return false
	}
	return n.Style&yaml.FlowStyle == 0 || (n.Kind != yaml.ScalarNode && len(n.Content) == 0)
}

// mapping writes a non-empty block mapping with keys at column indent; inline: the first key
// follows "- " on the line already started.
func (w entryWriter) mapping(n *yaml.Node, indent int, inline bool) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || !plainNode(k) || !plainNode(v) || k.Style != 0 || len(k.Value) > 128 {
			return false
		}
		key, ok := scalarText(k)
		if !ok || strings.Contains(key, "\n") {
			return false
		}
		if i > 0 || !inline {
			w.spaces(indent)
		}
		w.buf.WriteString(key)
		w.buf.WriteByte(':')
		if !w.value(v, indent) {
			return false
		}
	}
	return true
}

// value writes a mapping value after "key:" for a mapping whose keys are at column indent.
func (w entryWriter) value(v *yaml.Node, indent int) bool {
	switch v.Kind {
	case yaml.MappingNode:
		if len(v.Content) == 0 {
			w.buf.WriteString(" {}\n")
			return true
		}
		w.buf.WriteByte('\n')
		return w.mapping(v, indent+2, false)
	case yaml.SequenceNode:
		if len(v.Content) == 0 {
			w.buf.WriteString(" []\n")
			return true
		}
		w.buf.WriteByte('\n')
		return w.sequence(v, indent)
	case yaml.ScalarNode:
		w.buf.WriteByte(' ')
		if v.Style&yaml.LiteralStyle != 0 {
			return w.literal(v.Value, indent+2)
		}
		text, ok := scalarText(v)
		if !ok {
			return false
		}
		w.buf.WriteString(text)
		w.buf.WriteByte('\n')
		return true
	}
	return false
}

// sequence writes a non-empty block sequence with its dashes at column indent (compact).
func (w entryWriter) sequence(s *yaml.Node, indent int) bool {
	for _, item := range s.Content {
		if !plainNode(item) {
			return false
		}
		w.spaces(indent)
		w.buf.WriteString("- ")
		switch {
		case item.Kind == yaml.MappingNode && len(item.Content) > 0:
			if !w.mapping(item, indent+2, true) {
				return false
			}
		case item.Kind == yaml.MappingNode:
			w.buf.WriteString("{}\n")
		case item.Kind == yaml.SequenceNode && len(item.Content) == 0:
			w.buf.WriteString("[]\n")
		case item.Kind == yaml.ScalarNode && item.Style&yaml.LiteralStyle == 0:
			text, ok := scalarText(item)
			if !ok {
				return false
			}
			w.buf.WriteString(text)
			w.buf.WriteByte('\n')
		default:
			return false
		}
	}
	return true
}

// literal writes a literal block scalar whose lines go at column indent, as yaml.v3 does for
// text of printable ASCII lines without trailing spaces: "|" (a last line break kept) or
// "|-" (none), then each non-empty line indented. Other text is not written.
func (w entryWriter) literal(s string, indent int) bool {
	if !simpleBlock(s) || s[0] == '\n' || strings.HasSuffix(s, "\n\n") {
		return false
	}
	if strings.HasSuffix(s, "\n") {
		w.buf.WriteString("|\n")
	} else {
		w.buf.WriteString("|-\n")
	}
	for line := range strings.Lines(s) {
		if line != "\n" {
			w.spaces(indent)
		}
		w.buf.WriteString(line)
	}
	if !strings.HasSuffix(s, "\n") {
		w.buf.WriteByte('\n')
	}
	return true
}

func (w entryWriter) spaces(n int) {
	for range n {
		w.buf.WriteByte(' ')
	}
}

// knownText is the text of the scalars whose rendering by yaml.v3 is certain: plain strings
// (BlockPlain), the implicit numbers, booleans and null toYAMLNode makes, and
// quoted one-line printable ASCII.
func knownText(n *yaml.Node) (string, bool) {
	switch {
	case n.Style == 0 && n.Tag == "!!str" && BlockPlain(n.Value):
		return n.Value, true
	case n.Style == 0 && (n.Tag == "!!int" && isDecimal(n.Value) || n.Tag == "!!bool" && (n.Value == "true" || n.Value == "false") ||
		n.Tag == "!!null" && n.Value == "null"):
		return n.Value, true
	case n.Style == yaml.DoubleQuotedStyle && printableASCII(n.Value) && !strings.ContainsAny(n.Value, `"\`):
		return `"` + n.Value + `"`, true
	case n.Style == yaml.SingleQuotedStyle && printableASCII(n.Value):
		return "'" + strings.ReplaceAll(n.Value, "'", "''") + "'", true
	}
	return "", false
}

// isDecimal: an optional minus and digits without a leading zero (0 itself excepted).
func isDecimal(s string) bool {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || len(digits) > 1 && digits[0] == '0' {
		return false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false
		}
	}
	return true
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

type scalarKey struct {
	tag, value string
	style      yaml.Style
}

// scalarTexts caches yaml.v3's text of the scalars entryWriter does not write itself.
var scalarTexts = memo.Bounded[scalarKey, string]{Max: cachedStrings}

// scalarText is how yaml.v3 writes a one-line scalar as a mapping value (or a block scalar,
// then with line breaks).
func scalarText(n *yaml.Node) (string, bool) {
	if text, ok := knownText(n); ok {
		return text, true
	}
	k := scalarKey{n.Tag, n.Value, n.Style}
	if t, ok := scalarTexts.Load(k); ok {
		return t, true
	}
	var buf bytes.Buffer
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "k"},
		{Kind: yaml.ScalarNode, Tag: n.Tag, Style: n.Style, Value: n.Value}}}
	if err := yaml.NewEncoder(&buf).Encode(doc); err != nil {
		return "", false
	}
	text, ok := strings.CutPrefix(buf.String(), "k: ")
	if !ok || strings.Count(text, "\n") != 1 {
		return "", false
	}
	text = strings.TrimSuffix(text, "\n")
	if len(n.Value) <= 4<<10 {
		scalarTexts.Store(k, text)
	}
	return text, true
}
