// SPDX-License-Identifier: Apache-2.0

package configyaml

import (
	"strconv"
	"strings"
)

// Substituted is a variable's value as the server reads it where config.yaml substitutes it
// (${env.X}): nil for "", a boolean for true and false in any case, else a number where
// Python's int() or float() reads one (spaces around, underscores between digits, nan, inf),
// else the string (_convert_string_to_proper_type in the server's core/stack.py). The
// provider's config then reads that value, so an API key of digits reaches a string key as
// a number.
func Substituted(value string) any {
	if value == "" {
		return nil
	}
	if strings.EqualFold(value, "true") || strings.EqualFold(value, "false") {
		return strings.EqualFold(value, "true")
	}
	s := strings.TrimSpace(value)
	if s == "" || !underscoresBetweenDigits(s) {
		return value
	}
	plain := strings.ReplaceAll(s, "_", "")
	if n, err := strconv.ParseInt(plain, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(plain, 64); err == nil {
		return f
	}
	return value
}

// underscoresBetweenDigits: Python's int() and float() take an underscore only between two
// digits (1_000, not _1 or 1__0).
func underscoresBetweenDigits(s string) bool {
	digit := func(i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }
	for i := range len(s) {
		if s[i] == '_' && (!digit(i-1) || !digit(i+1)) {
			return false
		}
	}
	return true
}
