// SPDX-License-Identifier: Apache-2.0

package review_test

import (
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
