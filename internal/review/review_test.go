// SPDX-License-Identifier: Apache-2.0

package review_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/review"
)

func TestLevels(t *testing.T) {
	for _, name := range []string{"info", "restart", "security", "data-at-risk", "data at risk", "Breaking"} {
		_, err := review.ParseLevel(name)
		assert.NoError(t, err, name)
	}
	_, err := review.ParseLevel("urgent")
	assert.ErrorContains(t, err, "info, restart, security, data-at-risk or breaking")
	top, ok := review.Highest([]review.Finding{{Level: review.Restart}, {Level: review.DataAtRisk}, {Level: review.Info}})
	require.True(t, ok)
	assert.Equal(t, review.DataAtRisk, top)
	_, ok = review.Highest(nil)
	assert.False(t, ok, "no finding, no level")
}

// The steps a server version move names are the upgrade guide's sections, one per supported
// version between.
func TestUpgradeStepsAreTheGuides(t *testing.T) {
	assert.Equal(t, []string{"1.1 to 1.2", "1.2 to 1.3"}, review.UpgradeSteps("1.1", "1.3"))
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "upgrading.md"))
	require.NoError(t, err)
	var headings []string
	for _, line := range strings.Split(string(guide), "\n") {
		if strings.HasPrefix(line, "## ") {
			headings = append(headings, strings.ReplaceAll(strings.ReplaceAll(line, "OGX ", ""), "llama-stack ", ""))
		}
	}
	for _, step := range review.UpgradeSteps("0.7", "1.3") {
		assert.True(t, slices.ContainsFunc(headings, func(h string) bool { return strings.HasPrefix(h, "## "+step+" ") }),
			"docs/upgrading.md has a section %q: %v", step, headings)
	}
}
