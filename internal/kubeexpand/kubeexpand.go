// SPDX-License-Identifier: Apache-2.0

// Package kubeexpand knows what the kubelet does to a container's env values, command, args
// and subPathExpr before the container sees them: $(NAME) becomes the value of the variable
// NAME (for env values, one listed before it), $$ becomes $, anything else stays. A value llsd
// writes from something the user wrote must reach the container as written, and a value the
// user writes must not read a variable that holds a secret.
package kubeexpand

import "strings"

// Literal is s escaped so that the kubelet passes it unchanged: every $ doubled.
func Literal(s string) string { return strings.ReplaceAll(s, "$", "$$") }

// References are the variable names s reads under the kubelet's rules, in order.
func References(s string) []string {
	var names []string
	for i := 0; i < len(s)-1; i++ {
		if s[i] != '$' {
			continue
		}
		switch s[i+1] {
		case '$': // an escaped $
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 {
				return names // an unclosed reference stays as it is
			}
			names = append(names, s[i+2:i+2+end])
			i += 2 + end
		}
	}
	return names
}

// Expand is s as the kubelet passes it: each $(NAME) that lookup knows replaced by its value,
// one it does not know left as written, $$ made $. known is false when a value it took is not
// known (lookup says so: a variable a Secret or ConfigMap decides).
func Expand(s string, lookup func(name string) (value string, defined, known bool)) (out string, known bool) {
	var b strings.Builder
	known = true
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i == len(s)-1 {
			b.WriteByte(s[i])
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '(':
			end := strings.IndexByte(s[i+2:], ')')
			if end < 0 { // an unclosed reference stays as it is
				b.WriteString("$(")
				i++
				continue
			}
			name := s[i+2 : i+2+end]
			if value, defined, k := lookup(name); defined {
				b.WriteString(value)
				known = known && k
			} else {
				b.WriteString(s[i : i+3+end])
			}
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String(), known
}
