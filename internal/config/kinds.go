// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
)

// checkKind refuses a settings value of a kind the provider's config key does not take, as the
// server's pydantic models read config.yaml (lax mode): a mapping or list where a scalar goes,
// a scalar where a mapping or list goes, a number or boolean where only a string goes.
//
//	settings: {api_version: 2024}   # remote::azure's api_version is a string: write "2024"
func (g *generator) checkKind(providerType string, f profile.Field, v any, path *field.Path) {
	if v == nil && f.NullRefused {
		g.errs = append(g.errs, field.Invalid(path, field.OmitValueType{}, fmt.Sprintf(
			"null, where %s's %s in %s takes %s: the server would not start; write a value, or leave the key out for its default",
			providerType, f.Name, g.prof, strings.Join(kindNames(f.Kinds), " or "))))
		return
	}
	got, ok := takes(f.Kinds, v)
	if m, isMap := v.(map[string]any); ok || isMap && isReference(m) {
		return // a reference is checkReferencesInSettings's
	}
	s, _ := v.(string)
	g.errs = append(g.errs, field.Invalid(path, field.OmitValueType{}, fmt.Sprintf(
		"%s, where %s's %s in %s takes %s: the server would not start; %s%s", kindName(got), providerType, f.Name, g.prof,
		strings.Join(kindNames(f.Kinds), " or "), kindFix(f.Kinds, got), substitutionFix(s))))
}

// kindFix says how to write a value the key takes.
func kindFix(kinds []string, got string) string {
	switch {
	case slices.Contains(kinds, "string") && (got == "integer" || got == "number" || got == "boolean"):
		return "quote it, so that YAML reads a string"
	case slices.Contains(kinds, "array"):
		return "write a list: [...]"
	case slices.Contains(kinds, "object"):
		return "write a mapping of its keys: {...}"
	case slices.Contains(kinds, "integer") || slices.Contains(kinds, "number"):
		return "write a number"
	case slices.Contains(kinds, "boolean"):
		return "write true or false"
	}
	return "write a string"
}

// kindNames are kinds as messages say them: a list, a mapping, null.
func kindNames(kinds []string) []string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = kindName(k)
	}
	return names
}

func kindName(kind string) string {
	switch kind {
	case "null":
		return "null"
	case "array":
		return "a list"
	case "object":
		return "a mapping"
	case "integer":
		return "an integer"
	}
	return "a " + kind
}

// takes reports whether a key of the given kinds takes v, with the kind of v (in the kinds'
// own words: object, array, ...). No kinds: any.
// A string that reads as a number or boolean is taken where one goes (pydantic converts "8192"
// and "true"), a ${env.} reference anywhere (its value is not known here); a boolean where a
// number goes, and a whole number where a boolean or decimal goes, as pydantic converts them.
func takes(kinds []string, v any) (string, bool) {
	has := func(k ...string) bool {
		return slices.ContainsFunc(k, func(k string) bool { return slices.Contains(kinds, k) })
	}
	switch t := v.(type) {
	case nil:
		return "null", true // nulls: checkNullDefaults
	case string:
		return "string", len(kinds) == 0 || substitutes(t) || has("string") ||
			has("integer") && isInteger(t) || has("number") && isNumber(t) || has("boolean") && isBoolean(t)
	case bool:
		return "boolean", len(kinds) == 0 || has("boolean", "integer", "number")
	case int64:
		return "integer", len(kinds) == 0 || has("integer", "number") || (has("boolean") && (t == 0 || t == 1))
	case float64:
		return "number", len(kinds) == 0 || has("number") || (has("integer") && t == float64(int64(t)))
	case map[string]any:
		return "object", len(kinds) == 0 || has("object")
	case []any:
		return "array", len(kinds) == 0 || has("array")
	}
	return "", true
}

// asRead is v as the server's pydantic reads it where a key takes a number or boolean and no
// string: "8192" is 8192, "true" true. A string that reads as neither, or a ${env.}
// reference, stays as it is. Written so, config.yaml says what the server understands.
func asRead(kinds []string, v any) any {
	s, ok := v.(string)
	if !ok || slices.Contains(kinds, "string") || substitutes(s) {
		return v
	}
	t := strings.TrimSpace(s)
	switch {
	case slices.Contains(kinds, "integer") && isInteger(t):
		n, _ := strconv.ParseInt(t, 10, 64)
		return n
	case slices.Contains(kinds, "number") && isNumber(t):
		n, _ := strconv.ParseFloat(t, 64)
		return n
	case slices.Contains(kinds, "boolean") && isBoolean(t):
		return slices.Contains([]string{"1", "true", "t", "yes", "y", "on"}, strings.ToLower(t))
	}
	return v
}

// substitution is the server's own pattern of a variable's reference (replace_env_vars in its
// core/stack.py): a name in capitals and digits, then :=default or :+value or nothing, then }.
// "${env.X:" and "${env.lower}" stay as they are written.
var substitution = lazyre.New(`\$\{env\.[A-Z0-9_]+(?::[=+][^}]*)?\}`)

// substitutes reports whether the server substitutes a variable into s: its value is then not
// known here.
func substitutes(s string) bool { return substitution().MatchString(s) }

// oldDefault is a reference with a default written the way older servers took it:
// ${env.X:4096}, which the server now leaves as it is.
var oldDefault = lazyre.New(`\$\{env\.([A-Z0-9_]+):([^=+}][^}]*)\}`)

// substitutionFix says how to write a reference the server would leave as it is; "" when s
// has none.
func substitutionFix(s string) string {
	if m := oldDefault().FindStringSubmatch(s); m != nil {
		return fmt.Sprintf(" (the server substitutes ${env.NAME:=default}, and leaves ${env.%s:%s} as it is: write ${env.%s:=%s})", m[1], m[2], m[1], m[2])
	}
	if strings.Contains(s, "${env.") && !substitutes(s) {
		return " (the server substitutes only ${env.NAME}, ${env.NAME:=default} and ${env.NAME:+value}, NAME in capitals)"
	}
	return ""
}

func isInteger(s string) bool {
	_, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return err == nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

// isBoolean: the strings pydantic reads as a boolean.
func isBoolean(s string) bool {
	return slices.Contains([]string{"0", "1", "true", "false", "t", "f", "yes", "no", "y", "n", "on", "off"}, strings.ToLower(strings.TrimSpace(s)))
}
