// SPDX-License-Identifier: Apache-2.0

package suggest

import (
	"strings"

	"github.com/agnivade/levenshtein"
)

// Nearest returns the candidate closest to name (case-insensitive edit distance), when it is
// close enough to be a likely misspelling: at most a third of the name's length, and 1 for
// short names. A candidate that contains name, or is contained in it, counts as close
// (configMapKey -> configMapKeys, url -> base_url).
func Nearest(name string, candidates []string) (string, bool) {
	lower := strings.ToLower(name)
	best, bestDistance := "", -1
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := levenshtein.ComputeDistance(lower, lc)
		if len(lower) >= 3 && (strings.Contains(lc, lower) || strings.Contains(lower, lc)) {
			d = min(d, 1)
		}
		if bestDistance < 0 || d < bestDistance {
			best, bestDistance = c, d
		}
	}
	limit := max(1, len(name)/3)
	return best, best != "" && bestDistance <= limit
}

// DidYouMean is " (did you mean X?)" when Nearest finds one, else "".
func DidYouMean(name string, candidates []string) string {
	if n, ok := Nearest(name, candidates); ok {
		return " (did you mean " + n + "?)"
	}
	return ""
}
