// SPDX-License-Identifier: Apache-2.0

package profile_test

import (
	"path"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// docs/configuring.md tells each server version's images, entrypoint, port variable and state
// directory in a table, and which version is the default. The table is held to the profiles:
// one row per profile, in their order, with the profile's facts; a version added, or a fact
// of one changed, without the guide fails here.
func TestTheConfiguringGuideTellsEachProfile(t *testing.T) {
	var rows [][]string
	for _, cells := range testenv.DocTable(t, "configuring.md", 6) {
		if strings.HasPrefix(cells[0], "llama-stack ") || strings.HasPrefix(cells[0], "OGX ") {
			for i := range cells {
				cells[i] = strings.Trim(cells[i], "`")
			}
			rows = append(rows, cells)
		}
	}
	profiles := profile.All()
	require.Len(t, rows, len(profiles), "docs/configuring.md has a row for each server version")
	for i, p := range profiles {
		row := rows[i]
		t.Run(p.String(), func(t *testing.T) {
			name := p.String()
			if p.Version == profile.Default {
				name += " (default)"
			}
			assert.Equal(t, name, row[0], "the server, and whether it is the default")
			assert.Equal(t, p.ImageRepositories[0]+"*:"+p.Release, row[1], "the images")
			assert.Equal(t, path.Base(p.Entrypoint), row[2], "the entrypoint")
			assert.Equal(t, p.PortEnv, row[3], "the port variable")
			assert.Equal(t, p.StateDir, row[4], "the state directory")
		})
	}
}
