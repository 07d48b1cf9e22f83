// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	yaml2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/memo"
)

// An object llsd renders goes into the ResourceList as a node tree built from its JSON, with
// no YAML text in between: each scalar gets the style that writing the object as YAML
// (sigs.k8s.io/yaml, what render.YAML does) and reading it back would give it, so the output
// is byte for byte what that round trip produced, at a fraction of its cost (the round trip
// was most of the time of a large render). TestNodesMatchTheYAMLRoundTrip holds it to that.

// DecodeJSON reads an object's JSON into a tree whose numbers are json.Numbers, as KubeObject
// takes it.
func DecodeJSON(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree map[string]any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return tree, nil
}

// KubeObject returns a tree of DecodeJSON as a KubeObject, whose YAML is what writing the
// tree with sigs.k8s.io/yaml and parsing it would give.
func KubeObject(tree map[string]any) (*fn.KubeObject, error) {
	if !On(PathNodes) {
		data, err := sigsyaml.Marshal(tree)
		if err != nil {
			return nil, err
		}
		return fn.ParseKubeObject(data)
	}
	node, err := toYAMLNode(tree)
	if err != nil {
		return nil, err
	}
	return kubeObjectOfNode(node)
}

// kubeObjectOfNode is a KubeObject holding node itself.
func kubeObjectOfNode(node *yaml.Node) (*fn.KubeObject, error) {
	// A ResourceList takes a node as it is (fn.NewKubeObjectFromResourceNode would copy it).
	var holder fn.ResourceList
	if err := holder.UpsertObjectToItems(yaml.NewRNode(node), func(_, _ *fn.KubeObject) bool { return false }, false); err != nil {
		return nil, err
	}
	return holder.Items[0], nil
}

// toYAMLNode turns decoded JSON (UseNumber) into nodes.
func toYAMLNode(v any) (*yaml.Node, error) {
	switch t := v.(type) {
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
			return n, nil
		}
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sortNatural(keys)
		n.Content = make([]*yaml.Node, 0, 2*len(keys))
		for _, k := range keys {
			val, err := toYAMLNode(t[k])
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, stringScalar(k), val)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if len(t) == 0 {
			n.Style = yaml.FlowStyle
			return n, nil
		}
		n.Content = make([]*yaml.Node, 0, len(t))
		for _, item := range t {
			val, err := toYAMLNode(item)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, val)
		}
		return n, nil
	}
	return scalarNode(v)
}

// scalarNode is a JSON scalar (as DecodeJSON reads it) as its YAML rendering gives it.
func scalarNode(v any) (*yaml.Node, error) {
	switch t := v.(type) {
	case string:
		return stringScalar(t), nil
	case json.Number:
		return numberScalar(t)
	case bool:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(t)}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, fmt.Errorf("unexpected JSON value %T", v)
}

// numberScalar is a JSON number as its YAML rendering gives it: an int as written, a float
// in its shortest form.
func numberScalar(t json.Number) (*yaml.Node, error) {
	if _, err := strconv.ParseInt(string(t), 10, 64); err == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: string(t)}, nil
	}
	f, err := t.Float64()
	if err != nil {
		return nil, err
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!float", Value: strconv.FormatFloat(f, 'g', -1, 64)}, nil
}

// stringScalar is a string with the style its YAML rendering gives it when read back.
func stringScalar(s string) *yaml.Node {
	style, tag := styleOf(s)
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Style: style, Value: s}
}

type scalarStyle struct {
	style yaml.Style
	tag   string
}

// styles caches the style of the strings that need asking go-yaml v2: labels, names and
// images repeat in every object.
var styles = memo.Bounded[string, scalarStyle]{Max: cachedStrings}

// cachedStrings bounds each cache of the YAML writers: far more than the strings that repeat
// across the objects of one render, far less than an input can make up.
const cachedStrings = 4096

// styleOf returns the style and tag that reading back sigs.k8s.io/yaml's rendering of s
// (go-yaml v2's, as a mapping value) gives it: for a string that is not plainly a word, the
// rendering is made and read once, and remembered.
func styleOf(s string) (yaml.Style, string) {
	if BlockPlain(s) {
		return 0, "!!str"
	}
	if simpleBlock(s) {
		return yaml.LiteralStyle, "!!str"
	}
	if st, ok := styles.Load(s); ok {
		return st.style, st.tag
	}
	st := scalarStyle{tag: "!!str"}
	if out, err := yaml2.Marshal(yaml2.MapSlice{{Key: "k", Value: s}}); err == nil {
		var doc yaml.Node
		if err := yaml.Unmarshal(out, &doc); err == nil && len(doc.Content) == 1 && len(doc.Content[0].Content) == 2 {
			value := doc.Content[0].Content[1]
			st = scalarStyle{style: value.Style, tag: value.Tag}
		}
	}
	if len(s) <= 4<<10 {
		styles.Store(s, st)
	}
	return st.style, st.tag
}

// simpleBlock: go-yaml v2 writes s as a literal block for certain: it has a line break, only
// printable ASCII otherwise, no space before a line break and none at its end (a config.yaml,
// a launcher script).
func simpleBlock(s string) bool {
	if !strings.Contains(s, "\n") || strings.HasSuffix(s, " ") || strings.Contains(s, " \n") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '\n' && (c < 0x20 || c > 0x7e) {
			return false
		}
	}
	return true
}

func appendRunes(dst []rune, s string) []rune {
	for _, r := range s {
		dst = append(dst, r)
	}
	return dst
}

// sortNatural sorts mapping keys as go-yaml v2 does (TestNaturalKeyOrder checks it).
func sortNatural(keys []string) { slices.SortFunc(keys, naturalCompare) }

// naturalCompare orders mapping keys as go-yaml v2 does: by rune, letters after other
// characters, and runs of digits by their number (a2 before a10).
func naturalCompare(a, b string) int {
	switch {
	case a == b:
		return 0
	case naturalLess(a, b): // a strict total order: of two different keys, one is less
		return -1
	}
	return 1
}

// naturalLess is true when a sorts before b. Most keys differ first at an ASCII letter or
// sign, which decides it; a digit or a rune outside ASCII there takes the rune by rune way.
func naturalLess(a, b string) bool {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	if i == len(a) || i == len(b) {
		return len(a) < len(b)
	}
	ca, cb := a[i], b[i]
	if ca >= utf8.RuneSelf || cb >= utf8.RuneSelf || isDigit(ca) || isDigit(cb) {
		return naturalLessByRune(a, b)
	}
	if al, bl := isLetter(ca), isLetter(cb); al != bl {
		return bl
	}
	return ca < cb
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func naturalLessByRune(a, b string) bool {
	var abuf, bbuf [64]rune // keys are short: no allocation for them
	ar, br := appendRunes(abuf[:0], a), appendRunes(bbuf[:0], b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		switch {
		case al && bl:
			return ar[i] < br[i]
		case al || bl:
			return bl
		}
		// Compare the numbers the digit runs at i make; a run that continues one of zeros
		// from before i counts from 1, so that 01 and 001 differ.
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for ; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}
