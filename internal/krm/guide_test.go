// SPDX-License-Identifier: Apache-2.0

package krm_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/krm"
)

// The getting-started guide's table of render options is Options, the table the usage, --doc
// and the ConfigMap reader are made from: an option added or renamed without the guide fails
// here, with the table to write. (A < of the help text is &lt; in Markdown, which would read
// <name> as a tag.)
func TestTheGuideListsEveryRenderOption(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "getting-started.md"))
	require.NoError(t, err)
	var want strings.Builder
	want.WriteString("| option (`RenderOptions` `spec.`) | variable | ConfigMap key | value | what it does |\n|---|---|---|---|---|\n")
	for _, o := range krm.Options {
		fmt.Fprintf(&want, "| `%s` | `%s` | `%s` | `%s` | %s |\n", o.Field, o.Env, o.Key, strings.ReplaceAll(o.Value, "|", `\|`), strings.ReplaceAll(o.Doc, "<", "&lt;"))
	}
	assert.Contains(t, string(doc), want.String(), "docs/getting-started.md's render options table; write:\n%s", want.String())
}
