// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/llamastack/llsd/internal/memo"
	yaml "go.yaml.in/yaml/v3"
)

// The emitter below writes a plain tree exactly as yaml.v3's encoder (indent 2) writes the
// nodes of toNode, about ten times faster: a config is most of what llsd outputs, and a
// render of a thousand LlamaStackDistributions writes a thousand of them. It writes the
// structure itself (block mappings and sequences, {} and [] when empty) and the scalars
// whose yaml.v3 rendering is certain (plain words, the quoted YAML 1.1 look-alikes); for any
// other string it asks yaml.v3 once and keeps the answer. TestEmitterMatchesYAMLv3 and
// FuzzEmitterMatchesYAMLv3 hold it to yaml.v3 byte for byte.

// errUnusual is a tree the emitter leaves to yaml.v3: a key that is not a simple word, a
// sequence directly inside a sequence, or a multi-line string anywhere but as a mapping value.
var errUnusual = errors.New("fastcodec: not a tree the emitter writes")

// emit writes tree (a map) as yaml.v3 would, or returns errUnusual.
func emit(tree map[string]any) ([]byte, error) {
	e := emitter{buf: bytes.NewBuffer(make([]byte, 0, 16<<10))}
	if len(tree) == 0 {
		e.buf.WriteString("{}\n")
		return e.buf.Bytes(), nil
	}
	if err := e.mapping(tree, 0, false); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

type emitter struct {
	buf *bytes.Buffer
}

// mapping writes a non-empty block mapping whose keys are at column indent; inline: its
// first key follows a sequence's "- " on the same line.
func (e *emitter) mapping(m map[string]any, indent int, inline bool) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if !simpleKey(k) {
			return errUnusual
		}
		if i > 0 || !inline {
			e.spaces(indent)
		}
		e.buf.WriteString(k)
		e.buf.WriteByte(':')
		if err := e.value(m[k], indent); err != nil {
			return err
		}
	}
	return nil
}

// value writes a mapping value after "key:", at a mapping whose keys are at column indent.
func (e *emitter) value(v any, indent int) error {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			e.buf.WriteString(" {}\n")
			return nil
		}
		e.buf.WriteByte('\n')
		return e.mapping(t, indent+2, false)
	case []any:
		if len(t) == 0 {
			e.buf.WriteString(" []\n")
			return nil
		}
		e.buf.WriteByte('\n')
		return e.sequence(t, indent+2)
	case string:
		e.buf.WriteByte(' ')
		if strings.Contains(t, "\n") {
			return e.block(t, indent)
		}
		e.buf.WriteString(quoted(t))
		e.buf.WriteByte('\n')
		return nil
	}
	e.buf.WriteByte(' ')
	return e.scalarLine(v)
}

// sequence writes a non-empty block sequence whose dashes are at column indent.
func (e *emitter) sequence(s []any, indent int) error {
	for _, item := range s {
		e.spaces(indent)
		e.buf.WriteString("- ")
		switch t := item.(type) {
		case map[string]any:
			if len(t) == 0 {
				e.buf.WriteString("{}\n")
				continue
			}
			if err := e.mapping(t, indent+2, true); err != nil {
				return err
			}
		case []any:
			if len(t) > 0 {
				return errUnusual
			}
			e.buf.WriteString("[]\n")
		case string:
			if strings.Contains(t, "\n") {
				return errUnusual
			}
			e.buf.WriteString(quoted(t))
			e.buf.WriteByte('\n')
		default:
			if err := e.scalarLine(item); err != nil {
				return err
			}
		}
	}
	return nil
}

// scalarLine writes a non-string scalar and its line break.
func (e *emitter) scalarLine(v any) error {
	switch t := v.(type) {
	case int64:
		e.buf.WriteString(strconv.FormatInt(t, 10))
	case int:
		e.buf.WriteString(strconv.Itoa(t))
	case float64:
		e.buf.WriteString(formatFloat(t))
	case bool:
		e.buf.WriteString(strconv.FormatBool(t))
	case nil:
		e.buf.WriteString("null")
	default:
		return errUnusual
	}
	e.buf.WriteByte('\n')
	return nil
}

// block writes a multi-line string as yaml.v3 does for a mapping value whose key is at
// column indent: its rendering at the top level, every content line moved right by indent
// (or on one line, when yaml.v3 quotes it instead).
func (e *emitter) block(s string, indent int) error {
	r := rendering(s)
	if r == "" || r[0] != '|' && r[0] != '>' {
		e.buf.WriteString(r)
		return nil
	}
	header, body, _ := strings.Cut(r, "\n")
	e.buf.WriteString(header)
	e.buf.WriteByte('\n')
	for line := range strings.Lines(body) {
		if line != "\n" {
			e.spaces(indent)
		}
		e.buf.WriteString(line)
	}
	return nil
}

func (e *emitter) spaces(n int) {
	for range n {
		e.buf.WriteByte(' ')
	}
}

// quoted is how yaml.v3 writes a one-line string: plain when that reads back as the same
// string in YAML 1.1 and 1.2, else in quotes.
func quoted(s string) string {
	if BlockPlain(s) {
		return s
	}
	return rendering(s)
}

// BlockPlain reports whether s is written plain (unquoted) as a block mapping or sequence
// value by both go-yaml v2 and v3, and read back as the same string by them and PyYAML: one
// line of printable ASCII that starts with a letter or one of $ / _ ( and is no YAML word
// (true, null, on, ...), without the indicators a plain scalar cannot hold (": ", " #", a
// colon at its end, a trailing space). Emitters use it to write common strings without
// asking a YAML library; differential tests against the libraries hold it to them.
func BlockPlain(s string) bool {
	if s == "" || !isLetter(s[0]) && strings.IndexByte("$/_(", s[0]) < 0 || len(s) <= 5 && isYAMLWord(s) {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e:
			return false
		case c == ':' && (i+1 == len(s) || s[i+1] == ' '):
			return false
		case c == '#' && s[i-1] == ' ':
			return false
		}
	}
	return s[len(s)-1] != ' '
}

// isYAMLWord: the words YAML 1.1 or 1.2 reads as a bool or null, the only non-strings a
// scalar that starts with a letter can be.
func isYAMLWord(s string) bool {
	switch s {
	case "y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
		"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		return true
	}
	return false
}

// simpleKey: a key yaml.v3 writes plain, and short enough to be a simple key (128).
func simpleKey(k string) bool {
	return len(k) <= 128 && BlockPlain(k) && !strings.ContainsAny(k, "?,[]{}")
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// PrepareString renders s ahead, when it is a string the tree writer would ask yaml.v3 about (a
// base config's templates and prompts): run in the background, it takes that time off the first
// TreeYAML of a tree that holds s.
func PrepareString(s string) {
	if !BlockPlain(s) && len(s) <= maxCachedRendering {
		rendering(s)
	}
}

// maxCachedRendering bounds the strings whose rendering is kept: the templates of a base
// config are a few hundred bytes; a hostile settings value must not grow the cache.
const maxCachedRendering = 4 << 10

// renderings caches yaml.v3's rendering of the strings the emitter does not write itself:
// the same base config's templates and comments come back in every render.
var renderings = memo.Bounded[string, string]{Max: 4096}

// rendering is yaml.v3's rendering of s as the value of a top-level key, without the key:
// `"quoted"`, 'single', plain text, or a block scalar "|-\n  line\n".
func rendering(s string) string {
	if r, ok := renderings.Load(s); ok {
		return r
	}
	node := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{stringNode("k"), stringNode(s)}}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return `""` // cannot happen for a string node; the caller's fallback would then differ
	}
	_ = enc.Close()
	r := strings.TrimPrefix(buf.String(), "k: ")
	if !strings.Contains(s, "\n") {
		r = strings.TrimSuffix(r, "\n")
	}
	if len(s) <= maxCachedRendering {
		renderings.Store(s, r)
	}
	return r
}
