// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// pythonSplit splits each string as the server's parse_condition does: Python's str.split().
func pythonSplit(t *testing.T, conditions []string) [][]string {
	if err := exec.Command("python3", "--version").Run(); err != nil {
		testenv.Need(t, "python3 is not available: "+err.Error())
	}
	in, err := json.Marshal(conditions)
	require.NoError(t, err)
	cmd := exec.Command("python3", "-c", "import json,sys; print(json.dumps([c.split() for c in json.load(sys.stdin)]))")
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	require.NoError(t, err)
	var words [][]string
	require.NoError(t, json.Unmarshal(out, &words))
	return words
}

// llsd splits a condition into words as the server does, on every character of the Unicode
// range: Python's str.isspace() is the judge of what str.split() splits on.
func TestServerFieldsIsPythonsSplit(t *testing.T) {
	out, err := exec.Command("python3", "-c", "import json; print(json.dumps([c for c in range(0x110000) if chr(c).isspace()]))").Output()
	if err != nil {
		testenv.Need(t, "python3 is not available: "+err.Error())
	}
	var spaces []rune
	require.NoError(t, json.Unmarshal(out, &spaces))
	require.Contains(t, spaces, rune(0x1f), "Python splits on the information separators")
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		split := len(config.ServerFields("a"+string(r)+"b")) == 2
		if !assert.Equal(t, slices.Contains(spaces, r), split, "%U", r) {
			return
		}
	}
}

// A condition llsd writes means to the server what it meant to llsd (F1 of round five): a
// preset's value or a rule holding a character the server splits words on — a no-break space,
// an information separator — or a control character is refused, since "ai-admins\u00a0not" in
// "user with <value> in teams" reads "user with ai-admins not in teams" to the server: every
// caller outside the group would get full access. What is taken, the server splits into the
// words llsd checked.
func TestConditionsSplitAsTheServerSplitsThem(t *testing.T) {
	stack := func(access string) string {
		return "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: s, namespace: ai}\n" +
			"spec:\n  distribution: {name: starter}\n  authentication:\n    kubernetes: {}\n    accessPolicy: " + access + "\n"
	}
	for _, tc := range []struct {
		reason, access, err string
	}{
		{reason: "a group name", access: `{admins: {attribute: teams, value: ai-admins}, readers: {attribute: roles, value: viewer}}`},
		{reason: "rules with plain spaces, also doubled", access: `{rules: [{permit: {actions: [read]}, when: ["user  with ai in teams", "user is not owner"]}]}`},
		{reason: "a no-break space in the admins' group", access: `{admins: {attribute: teams, value: "ai-admins\u00a0not"}}`,
			err: `spec.authentication.accessPolicy.admins.value: Invalid value: "ai-admins\u00a0not": holds U+00A0, on which the server splits words`},
		{reason: "an information separator in the readers' group", access: `{readers: {attribute: teams, value: "ai\u001fnot"}}`,
			err: `spec.authentication.accessPolicy.readers.value: Invalid value: "ai\x1fnot": holds U+001F, on which the server splits words`},
		{reason: "an ideographic space in a rule", access: `{rules: [{permit: {actions: [read]}, when: ["user with ai\u3000not in teams"]}]}`,
			err: `spec.authentication.accessPolicy.rules[0].when[0]: Invalid value: "user with ai\u3000not in teams": holds U+3000`},
		{reason: "a tab in a rule", access: `{rules: [{permit: {actions: [read]}, unless: ["user\tis owner"]}]}`,
			err: `spec.authentication.accessPolicy.rules[0].unless[0]: Invalid value: "user\tis owner": holds U+0009`},
		{reason: "a control character in a rule", access: `{rules: [{permit: {actions: [read]}, when: ["user with a\u0007 in teams"]}]}`,
			err: `holds the control character U+0007`},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			res, errs := generateDoc(t, stack(tc.access))
			if tc.err != "" {
				assert.Contains(t, errs.ToAggregate().Error(), tc.err)
				return
			}
			require.Empty(t, errs)
			conditions := generatedConditions(res.Tree)
			require.NotEmpty(t, conditions)
			for i, words := range pythonSplit(t, conditions) {
				assert.Equal(t, config.ServerFields(conditions[i]), words, conditions[i])
				assert.Empty(t, config.ParseAccessCondition(conditions[i]))
			}
		})
	}
}

// generateDoc generates the config of an LLSD document the schema takes (the checks under test
// are llsd's own).
func generateDoc(t *testing.T, doc string) (*config.Result, field.ErrorList) {
	t.Helper()
	obj, errs := api.Decode([]byte(doc))
	require.Empty(t, errs)
	require.Empty(t, v1alpha2.Validate(obj), "the schema takes it: the check is llsd's")
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
	require.Nil(t, ferr)
	return config.Generate(obj, dist)
}

// generatedConditions are the when and unless conditions of a config's access_policy.
func generatedConditions(tree map[string]any) []string {
	server, _ := tree["server"].(map[string]any)
	auth, _ := server["auth"].(map[string]any)
	rules, _ := auth["access_policy"].([]any)
	var out []string
	for _, r := range rules {
		rule, _ := r.(map[string]any)
		for _, key := range []string{"when", "unless"} {
			switch c := rule[key].(type) {
			case string:
				out = append(out, c)
			case []any:
				for _, s := range c {
					out = append(out, s.(string))
				}
			}
		}
	}
	return out
}
