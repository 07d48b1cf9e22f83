// SPDX-License-Identifier: Apache-2.0

package distribution_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// The OpenShift AI guide's release table says what llsd does with rh-dev per release. Each
// release llsd knows is in exactly one row; the row's server is the release's (a range or a
// list of releases); the row says llsd generates the config exactly when llsd has the image's
// config; and the release rh-dev renders for by default is the one set in bold. A release
// added to Releases, or a server corrected, without the guide fails here.
func TestTheOpenShiftAIGuideTellsEachRelease(t *testing.T) {
	rows := guideReleaseRows(testenv.DocTable(t, "openshift-ai.md", 4))
	require.NotEmpty(t, rows, "docs/openshift-ai.md has its release table")
	for _, r := range distribution.Releases {
		t.Run(r.Name, func(t *testing.T) {
			var found []guideRow
			for _, row := range rows {
				if row.names[r.Name] {
					found = append(found, row)
				}
			}
			require.Len(t, found, 1, "the rows of docs/openshift-ai.md naming release %s", r.Name)
			row := found[0]
			if r.Server != "" {
				product, release, _ := strings.Cut(r.Server, " ")
				assert.True(t, row.serves(product, release), "the row of %s says %q; the release runs %s", r.Name, row.server, r.Server)
			}
			assert.Equal(t, r.BaseConfigFile() != "", strings.Contains(row.does, "generates the config"),
				"the row of %s says %q", r.Name, row.does)
			assert.Equal(t, r.Name == distribution.DefaultRelease, row.bold[r.Name], "%s in bold is the default release", r.Name)
		})
	}
}

type guideRow struct {
	names, bold  map[string]bool
	server, does string
}

var guideName = regexp.MustCompile("(\\*\\*)?`([^`]+)`")

// guideReleaseRows reads the rows whose first column names releases.
func guideReleaseRows(table [][]string) []guideRow {
	var rows []guideRow
	for _, cols := range table {
		if !strings.HasPrefix(cols[0], "`") && !strings.HasPrefix(cols[0], "**`") {
			continue
		}
		row := guideRow{names: map[string]bool{}, bold: map[string]bool{}, server: cols[1], does: cols[3]}
		for _, m := range guideName.FindAllStringSubmatch(cols[0], -1) {
			row.names[m[2]] = true
			row.bold[m[2]] = m[1] != ""
		}
		rows = append(rows, row)
	}
	return rows
}

// serves reports whether the row's server column ("llama-stack 0.2.18, 0.2.22", "OGX
// 1.0.2-1.2.4") covers product at release.
func (row guideRow) serves(product, release string) bool {
	name, versions, ok := strings.Cut(row.server, " ")
	if !ok || name != product {
		return false
	}
	for _, v := range strings.Split(versions, ", ") {
		low, high, isRange := strings.Cut(v, "-")
		if !isRange {
			high = low
		}
		if compareReleases(low, release) <= 0 && compareReleases(release, high) <= 0 {
			return true
		}
	}
	return false
}

// compareReleases orders dotted releases by their numbers: 0.2.9 before 0.2.10.
func compareReleases(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(as) && i < len(bs); i++ {
		if d := len(as[i]) - len(bs[i]); d != 0 {
			return d
		}
		if c := strings.Compare(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return len(as) - len(bs)
}
