// SPDX-License-Identifier: Apache-2.0

package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// The CRD says much of what it checks in CEL rules (x-kubernetes-validations): which fields go
// together, which exclude each other, what a key looks like. Editors know only JSON Schema, so
// the rules of the shapes below are written as JSON Schema too, each with the rule's message
// (errorMessage, which the YAML language server shows). A rule of any other shape (comparing
// two fields, uniqueness by a key, a CIDR) stays the API server's and llsd validate's, and the
// schema says so in a $comment.
//
// Every translation accepts at least what the rule accepts: where the rule would fail on a
// missing field (CEL's "no such key"), the schema counts the comparison false, and its negation
// true.
//
//	!(has(self.a) && has(self.b))          not: {required: [a, b]}
//	has(self.a) != has(self.b)             oneOf: [{required: [a]}, {required: [b]}]
//	!has(self.a) || self.t == 'x'          anyOf: [{not: {required: [a]}}, {required: [t], properties: {t: {const: x}}}]
//	'x' in self.list                       {required: [list], properties: {list: {contains: {const: x}}}}
//	self.size() <= 48, self.matches('re')  maxLength (maxItems, maxProperties), pattern
//	self.all(k, k.matches('re'))           propertyNames (a map) or items (a list): {pattern: re}
//	self.all(k, self[k] != '')             additionalProperties: {not: {const: ""}}
//	self.all(p, has(p.id))                 items: {required: [id]}
//	self.m.exists(k, k.startsWith('p'))    {required: [m], properties: {m: {not: {propertyNames: {not: {pattern: ^p}}}}}}

// celNode is a node of a parsed rule.
type celNode struct {
	kind string // or, and, not, cmp, has, path, str, num, bool, call, index
	op   string // cmp: == != >= <= > < in; call: the method or function
	path []string
	val  any
	args []*celNode // or/and/not/cmp operands; call: receiver (or nil) then arguments; index: receiver, key
}

var celToken = regexp.MustCompile(`\s*(\|\||&&|==|!=|>=|<=|[!()\[\],.<>]|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|[0-9]+|[A-Za-z_][A-Za-z0-9_]*)`)

type celParser struct {
	tokens []string
	at     int
}

// parseCEL parses the rule, or fails on what the grammar does not take.
func parseCEL(rule string) (n *celNode, err error) {
	p := &celParser{}
	for rest := strings.TrimSpace(rule); rest != ""; rest = strings.TrimSpace(rest) {
		m := celToken.FindStringSubmatchIndex(rest)
		if m == nil || m[0] != 0 {
			return nil, fmt.Errorf("cannot read %q", rest)
		}
		p.tokens = append(p.tokens, rest[m[2]:m[3]])
		rest = rest[m[1]:]
	}
	defer func() {
		if r := recover(); r != nil {
			n, err = nil, fmt.Errorf("%v", r)
		}
	}()
	n = p.or()
	if p.at != len(p.tokens) {
		return nil, fmt.Errorf("unread %v", p.tokens[p.at:])
	}
	return n, nil
}

func (p *celParser) peek() string {
	if p.at < len(p.tokens) {
		return p.tokens[p.at]
	}
	return ""
}

func (p *celParser) next() string {
	t := p.peek()
	if t == "" {
		panic("unexpected end")
	}
	p.at++
	return t
}

func (p *celParser) expect(t string) {
	if got := p.next(); got != t {
		panic(fmt.Sprintf("want %s, got %s", t, got))
	}
}

func (p *celParser) or() *celNode {
	n := p.and()
	for p.peek() == "||" {
		p.next()
		n = &celNode{kind: "or", args: []*celNode{n, p.and()}}
	}
	return n
}

func (p *celParser) and() *celNode {
	n := p.unary()
	for p.peek() == "&&" {
		p.next()
		n = &celNode{kind: "and", args: []*celNode{n, p.unary()}}
	}
	return n
}

func (p *celParser) unary() *celNode {
	if p.peek() == "!" {
		p.next()
		return &celNode{kind: "not", args: []*celNode{p.unary()}}
	}
	n := p.term()
	switch op := p.peek(); op {
	case "==", "!=", ">=", "<=", ">", "<", "in":
		p.next()
		return &celNode{kind: "cmp", op: op, args: []*celNode{n, p.term()}}
	}
	return n
}

func (p *celParser) term() *celNode {
	t := p.next()
	switch {
	case t == "(":
		n := p.or()
		p.expect(")")
		return n
	case strings.HasPrefix(t, "'") || strings.HasPrefix(t, `"`):
		s, err := strconv.Unquote(`"` + strings.ReplaceAll(t[1:len(t)-1], `"`, `\"`) + `"`)
		if err != nil {
			panic(err)
		}
		return &celNode{kind: "str", val: s}
	case t[0] >= '0' && t[0] <= '9':
		v, _ := strconv.Atoi(t)
		return &celNode{kind: "num", val: v}
	case t == "true" || t == "false":
		return &celNode{kind: "bool", val: t == "true"}
	case t == "has":
		p.expect("(")
		n := p.postfix(&celNode{kind: "path", path: []string{p.next()}})
		p.expect(")")
		if n.kind != "path" {
			panic("has() of no field")
		}
		return &celNode{kind: "has", path: n.path}
	case p.peek() == "(": // a function: isCIDR(c)
		return &celNode{kind: "call", op: t, args: append([]*celNode{nil}, p.arguments()...)}
	}
	return p.postfix(&celNode{kind: "path", path: []string{t}})
}

// postfix reads .field, .method(args) and [key] after n.
func (p *celParser) postfix(n *celNode) *celNode {
	for {
		switch p.peek() {
		case ".":
			p.next()
			name := p.next()
			if p.peek() == "(" {
				n = &celNode{kind: "call", op: name, args: append([]*celNode{n}, p.arguments()...)}
			} else if n.kind == "path" {
				n = &celNode{kind: "path", path: append(append([]string{}, n.path...), name)}
			} else {
				panic("a field of a call")
			}
		case "[":
			p.next()
			key := p.or()
			p.expect("]")
			n = &celNode{kind: "index", args: []*celNode{n, key}}
		default:
			return n
		}
	}
}

func (p *celParser) arguments() []*celNode {
	p.expect("(")
	var args []*celNode
	for p.peek() != ")" {
		args = append(args, p.or())
		if p.peek() == "," {
			p.next()
		}
	}
	p.expect(")")
	return args
}

// celScope is where a rule is translated: the schema node self is (a loop's body over a list's
// items is translated at the item, its variable renamed self).
type celScope struct {
	node apiextensionsv1.JSONSchemaProps
}

// translateRule is the JSON Schema of a rule at node, or false when it has none.
func translateRule(rule string, node apiextensionsv1.JSONSchemaProps) (map[string]any, bool) {
	n, err := parseCEL(rule)
	if err != nil {
		return nil, false
	}
	return celScope{node: node}.schema(n)
}

func (s celScope) schema(n *celNode) (map[string]any, bool) {
	switch n.kind {
	case "or", "and":
		key := map[string]string{"or": "anyOf", "and": "allOf"}[n.kind]
		var parts []any
		for _, a := range n.args {
			t, ok := s.schema(a)
			if !ok {
				return nil, false
			}
			parts = append(parts, t)
		}
		return map[string]any{key: parts}, true
	case "not":
		t, ok := s.schema(n.args[0])
		return map[string]any{"not": t}, ok
	case "has": // present and not null: the API server drops a null field
		path, ok := s.selfPath(n.path)
		return nested(path, map[string]any{"not": map[string]any{"type": "null"}}), ok && len(path) > 0
	case "path": // a boolean field: self.enabled
		path, ok := s.selfPath(n.path)
		return nested(path, map[string]any{"const": true}), ok && len(path) > 0
	case "cmp":
		return s.comparison(n)
	case "call":
		return s.call(n)
	}
	return nil, false
}

// selfPath is a path of self's fields (self.a.b: a, b), or false for any other root.
func (s celScope) selfPath(path []string) ([]string, bool) {
	if len(path) == 0 || path[0] != "self" {
		return nil, false
	}
	return path[1:], true
}

// nested is leaf at the fields path, each of them required on the way.
func nested(path []string, leaf map[string]any) map[string]any {
	if len(path) == 0 {
		return leaf
	}
	return map[string]any{"required": []string{path[0]}, "properties": map[string]any{path[0]: nested(path[1:], leaf)}}
}

func literal(n *celNode) (any, bool) {
	switch n.kind {
	case "str", "num", "bool":
		return n.val, true
	}
	return nil, false
}

func (s celScope) comparison(n *celNode) (map[string]any, bool) {
	left, right := n.args[0], n.args[1]
	switch {
	case n.op == "!=" && left.kind == "has" && right.kind == "has":
		l, ok1 := s.schema(left)
		r, ok2 := s.schema(right)
		return map[string]any{"oneOf": []any{l, r}}, ok1 && ok2
	case n.op == "in" && right.kind == "path":
		v, ok := literal(left)
		path, isSelf := s.selfPath(right.path)
		return nested(path, map[string]any{"contains": map[string]any{"const": v}}), ok && isSelf && len(path) > 0
	case (n.op == "==" || n.op == "!=") && left.kind == "path":
		v, ok := literal(right)
		path, isSelf := s.selfPath(left.path)
		eq := nested(path, map[string]any{"const": v})
		if n.op == "!=" {
			eq = map[string]any{"not": eq}
		}
		return eq, ok && isSelf && len(path) > 0
	case left.kind == "call" && left.op == "size" && left.args[0].kind == "path" && len(left.args[0].path) == 1 && left.args[0].path[0] == "self":
		v, ok := literal(right)
		bound, isNum := v.(int)
		if !ok || !isNum {
			return nil, false
		}
		return sizeBound(s.node.Type, n.op, bound)
	}
	return nil, false
}

// sizeBound is self.size() op bound for a node of type t.
func sizeBound(t, op string, bound int) (map[string]any, bool) {
	unit := map[string]string{"string": "Length", "array": "Items", "object": "Properties"}[t]
	switch {
	case unit == "":
		return nil, false
	case op == "<=":
		return map[string]any{"max" + unit: bound}, true
	case op == "<":
		return map[string]any{"max" + unit: bound - 1}, true
	case op == ">=":
		return map[string]any{"min" + unit: bound}, true
	case op == ">":
		return map[string]any{"min" + unit: bound + 1}, true
	}
	return nil, false
}

func (s celScope) call(n *celNode) (map[string]any, bool) {
	recv := n.args[0]
	switch {
	case recv == nil:
		return nil, false // a function (isCIDR): no JSON Schema form
	case n.op == "matches" && len(n.args) == 2 && recv.kind == "path" && len(recv.path) == 1 && recv.path[0] == "self":
		v, ok := literal(n.args[1])
		return map[string]any{"pattern": v}, ok
	case (n.op == "all" || n.op == "exists") && len(n.args) == 3 && recv.kind == "path" && n.args[1].kind == "path":
		path, isSelf := s.selfPath(recv.path)
		node, found := lookup(s.node, path)
		if !isSelf || !found {
			return nil, false
		}
		each, ok := loop(node, n.args[1].path[0], n.args[2])
		if !ok {
			return nil, false
		}
		if n.op == "exists" { // some key or item is: not every one is not
			each = existsOf(each)
		}
		return nested(path, each), true
	}
	return nil, false
}

// existsOf turns "every element is X" ({propertyNames: X} or {items: X}) into "some element is X".
func existsOf(all map[string]any) map[string]any {
	if names, ok := all["propertyNames"]; ok {
		return map[string]any{"not": map[string]any{"propertyNames": map[string]any{"not": names}}}
	}
	if items, ok := all["items"]; ok {
		return map[string]any{"contains": items}
	}
	return map[string]any{"not": map[string]any{}} // unreachable: loop gives one of the two
}

// loop is the schema of body holding for every element of node: the keys of a map, the items
// of a list.
func loop(node apiextensionsv1.JSONSchemaProps, v string, body *celNode) (map[string]any, bool) {
	switch {
	case node.Type == "object" && node.AdditionalProperties != nil:
		// self[k] != '': every value is not empty
		if body.kind == "cmp" && body.op == "!=" && body.args[0].kind == "index" && body.args[1].kind == "str" && body.args[1].val == "" {
			return map[string]any{"additionalProperties": map[string]any{"not": map[string]any{"const": ""}}}, true
		}
		key, ok := keyPattern(v, body)
		return map[string]any{"propertyNames": map[string]any{"pattern": key}}, ok
	case node.Type == "array" && node.Items != nil && node.Items.Schema != nil:
		item := *node.Items.Schema
		if item.Type == "string" {
			key, ok := keyPattern(v, body)
			return map[string]any{"items": map[string]any{"pattern": key}}, ok
		}
		// the variable is the item: p.id is the item's field id
		t, ok := celScope{node: item}.schema(rename(body, v))
		return map[string]any{"items": t}, ok
	}
	return nil, false
}

// rename roots the loop variable's paths at self, which the item's scope reads.
func rename(n *celNode, v string) *celNode {
	out := *n
	if (n.kind == "path" || n.kind == "has") && len(n.path) > 0 && n.path[0] == v {
		out.path = append([]string{"self"}, n.path[1:]...)
	}
	out.args = nil
	for _, a := range n.args {
		if a == nil {
			out.args = append(out.args, nil)
			continue
		}
		out.args = append(out.args, rename(a, v))
	}
	return &out
}

// keyPattern is the regular expression of a string v that body holds of: v.matches('re'),
// v.startsWith('p'), v == 'x', and their ||.
func keyPattern(v string, body *celNode) (string, bool) {
	isVar := func(n *celNode) bool { return n != nil && n.kind == "path" && len(n.path) == 1 && n.path[0] == v }
	switch {
	case body.kind == "or":
		l, ok1 := keyPattern(v, body.args[0])
		r, ok2 := keyPattern(v, body.args[1])
		return "(" + l + ")|(" + r + ")", ok1 && ok2
	case body.kind == "call" && len(body.args) == 2 && isVar(body.args[0]) && body.args[1].kind == "str":
		s := body.args[1].val.(string)
		switch body.op {
		case "matches":
			return s, true
		case "startsWith":
			return "^" + regexp.QuoteMeta(s), true
		}
	case body.kind == "cmp" && body.op == "==" && isVar(body.args[0]) && body.args[1].kind == "str":
		return "^" + regexp.QuoteMeta(body.args[1].val.(string)) + "$", true
	}
	return "", false
}

// lookup is the schema node at path under node.
func lookup(node apiextensionsv1.JSONSchemaProps, path []string) (apiextensionsv1.JSONSchemaProps, bool) {
	for _, p := range path {
		next, ok := node.Properties[p]
		if !ok {
			return node, false
		}
		node = next
	}
	return node, true
}
