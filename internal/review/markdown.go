// SPDX-License-Identifier: Apache-2.0

package review

import (
	"fmt"
	"strings"
)

const heading = "### llsd: what this change does to the servers\n\n"

// Markdown is the review as a pull request's comment: a table per server, in the order of the
// findings, highest level first within each server, and the server before and after as a
// diagram (Diagram) of the renders before and after.
func Markdown(findings []Finding, before, after map[string]*Stack) string {
	var b strings.Builder
	b.WriteString(heading)
	if len(findings) == 0 {
		b.WriteString("No change to any server.\n")
		return b.String()
	}
	stack := ""
	for i, f := range findings {
		if f.Stack != stack {
			stack = f.Stack
			if b.Len() > len(heading) {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "**%s**\n\n| level | field | what happens |\n|---|---|---|\n", cell(stack))
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", f.Level, code(f.Field), cell(f.Message))
		if i+1 == len(findings) || findings[i+1].Stack != stack {
			b.WriteString("\n" + Diagram(before[stack], after[stack]))
		}
	}
	return b.String()
}

// cell escapes what would end a table cell or a line.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + cell(s) + "`"
}
