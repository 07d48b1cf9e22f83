// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// The server's access rules (server.auth.access_policy and route_policy) are checked as its
// AccessRule and RouteAccessRule models check them when the config loads (a rule that fails
// stops the server): permit or forbid, not both; when or unless, not both; each condition in
// the grammar of parse_condition (src/ogx/core/access_control/conditions.py at OGX main
// 5a9cb55d8, the same since llama-stack 0.6.0's src/llama_stack/core/access_control), and, for
// access_policy, actions among create, read, update and delete.

// ParseAccessCondition says why the server would refuse a when or unless condition, "" when it
// takes it. The server splits the condition on whitespace and matches the words:
//
//	user is owner                        user is not owner
//	user with <value> in <attribute>     user with <value> not in <attribute>
//	user in owners <attribute>           user not in owners <attribute>
//	resource is unowned
func ParseAccessCondition(condition string) string {
	w := ServerFields(condition)
	switch {
	case slices.Equal(w, []string{"user", "is", "owner"}), slices.Equal(w, []string{"user", "is", "not", "owner"}),
		slices.Equal(w, []string{"resource", "is", "unowned"}),
		len(w) == 5 && w[0] == "user" && w[1] == "with" && w[3] == "in",
		len(w) == 6 && w[0] == "user" && w[1] == "with" && w[3] == "not" && w[4] == "in",
		len(w) == 4 && w[0] == "user" && w[1] == "in" && w[2] == "owners",
		len(w) == 5 && w[0] == "user" && w[1] == "not" && w[2] == "in" && w[3] == "owners":
		return ""
	}
	return fmt.Sprintf("%q is no condition the server knows: write one of 'user is owner', 'user is not owner', "+
		"'user with <value> in <attribute>', 'user with <value> not in <attribute>', 'user in owners <attribute>', "+
		"'user not in owners <attribute>', 'resource is unowned'", condition)
}

// ServerFields splits a condition into words as the server does: Python's str.split(), on
// every character str.isspace() accepts. Go's strings.Fields splits on almost the same ones,
// but not on U+001C to U+001F, which Python takes as separators.
func ServerFields(s string) []string {
	return strings.FieldsFunc(s, isPythonSpace)
}

// isPythonSpace reports whether Python's str.isspace() accepts r: Go's Unicode white space
// and the four information separators U+001C to U+001F.
func isPythonSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// UnsplitProblem says why a word or a condition llsd writes into an access rule could be read
// otherwise by the server, "" when it cannot: a character the server splits words on that is
// not the ASCII space (a no-break space would split "ai-admins\u00a0not" into two words and turn
// "in" into "not in"), or a control character. A word (a preset's value) may hold no space at
// all.
func UnsplitProblem(s string, word bool) string {
	for _, r := range s {
		switch {
		case r == ' ' && !word:
			continue
		case isPythonSpace(r):
			return fmt.Sprintf("holds %U, on which the server splits words (Python's str.split()): %s", r, unsplitFix(word))
		case unicode.IsControl(r):
			return fmt.Sprintf("holds the control character %U: %s", r, unsplitFix(word))
		}
	}
	return ""
}

func unsplitFix(word bool) string {
	if word {
		return "write the value as one word, without spaces or control characters"
	}
	return "separate the words with plain spaces (U+0020)"
}

// accessActions are the actions of an access rule's scope.
var accessActions = []string{"create", "read", "update", "delete"}

// AccessRuleProblems says why the server would refuse one rule of access_policy (route: of
// route_policy), each problem on its own.
func AccessRuleProblems(rule map[string]any, route bool) []string {
	var problems []string
	permit, forbid := rule["permit"] != nil, rule["forbid"] != nil
	switch {
	case !permit && !forbid:
		problems = append(problems, "a rule permits or forbids: it has neither")
	case permit && forbid:
		problems = append(problems, "permit and forbid are mutually exclusive: write two rules")
	}
	if rule["when"] != nil && rule["unless"] != nil {
		problems = append(problems, "when and unless are mutually exclusive: write two rules")
	}
	for _, key := range []string{"when", "unless"} {
		for _, c := range conditions(rule[key]) {
			if p := ParseAccessCondition(c); p != "" {
				problems = append(problems, key+": "+p)
			}
		}
	}
	if route {
		return problems
	}
	for _, key := range []string{"permit", "forbid"} {
		scope, _ := rule[key].(map[string]any)
		for _, a := range conditions(scope["actions"]) {
			if !slices.Contains(accessActions, a) {
				problems = append(problems, fmt.Sprintf("%s.actions: %q is no action: write create, read, update or delete", key, a))
			}
		}
	}
	return problems
}

// conditions are a string or a list of strings, as a rule writes when, unless and actions.
func conditions(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		out := make([]string, 0, len(t))
		for _, x := range t {
			out = append(out, fmt.Sprint(x))
		}
		return out
	}
	return nil
}
