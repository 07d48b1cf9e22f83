// SPDX-License-Identifier: Apache-2.0

// Package lazyre compiles a package's regular expressions when first used instead of when the
// program starts: every command of llsd would otherwise pay for all of them (a KRM function
// starts once per kustomize or kpt call).
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles pattern on its first call and returns the same
// *regexp.Regexp on every call. pattern must compile (regexp.MustCompile).
func New(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}
