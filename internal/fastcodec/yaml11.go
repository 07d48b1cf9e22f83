// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"regexp"
	"sync"
)

// PyYAML's implicit resolvers (yaml/resolver.py, YAML 1.1). A plain scalar matching one of
// them is not read as a string. The bool rule adds y and n, which PyYAML reads as strings
// but other YAML 1.1 readers (go-yaml v2, hence Unmarshal) as booleans.
var yaml11NonString = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^(?:y|Y|n|N|yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`),
		regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`),
		regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`),
		regexp.MustCompile(`^(?:<<)$`),
		regexp.MustCompile(`^(?:~|null|Null|NULL|)$`),
		regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`),
		regexp.MustCompile(`^(?:=)$`),
	}
})

// ResolvesToNonString reports whether PyYAML would read s, written plain, as something
// other than a string.
func ResolvesToNonString(s string) bool {
	// Fast path: a value that starts with a letter can only be a bool or null word, and
	// those have at most five letters ("false").
	if len(s) > 5 && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') {
		return false
	}
	for _, re := range yaml11NonString() {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}
