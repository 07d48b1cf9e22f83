// SPDX-License-Identifier: Apache-2.0

package review

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each note a server version move adds is the upgrade guide's, in the section of its step: the
// review says what the guide says, and a guide edited without its note fails here.
func TestUpgradeNotesAreTheGuides(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "upgrading.md"))
	require.NoError(t, err)
	sections := map[string]string{}
	for _, section := range strings.Split(string(guide), "\n## ")[1:] {
		heading, body, _ := strings.Cut(section, "\n")
		step := strings.ReplaceAll(strings.ReplaceAll(heading, "OGX ", ""), "llama-stack ", "")
		step, _, _ = strings.Cut(step, " (")
		sections[step] = strings.Join(strings.Fields(body), " ")
	}
	require.NotEmpty(t, upgradeNotes)
	for _, note := range upgradeNotes {
		assert.Contains(t, sections[note.step], note.guide, "docs/upgrading.md's section %q says %q", note.step, note.guide)
	}
}
