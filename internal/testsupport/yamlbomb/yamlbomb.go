// SPDX-License-Identifier: Apache-2.0

// Package yamlbomb writes YAML whose aliases (*name) expand a few hundred bytes to more than
// any reader should hold: the inputs of tests that such YAML is refused before it is expanded.
package yamlbomb

import (
	"fmt"
	"strings"
)

// Laughs is the entries of a flow mapping, `l0: &l0 lol, l1: &l1 [*l0, ...], ...`: each of
// levels lists holds ten aliases of the one before, so the last expands to 10^levels scalars.
func Laughs(levels int) string {
	var b strings.Builder
	b.WriteString("l0: &l0 lol")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, ", l%d: &l%d [%s]", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	return b.String()
}
