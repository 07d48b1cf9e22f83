// SPDX-License-Identifier: Apache-2.0

package config

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/profile"
)

// Every config key the catalog writes exists in that provider's config model of every
// supported server version that has the provider: a wrong key would be silently ignored by
// the server. And every catalog entry names a provider some supported version has.
func TestCatalogMatchesServer(t *testing.T) {
	used := map[string]bool{}
	for _, v := range profile.Supported() {
		prof, _ := profile.For(v)
		for _, api := range prof.APIs() {
			for _, typ := range prof.ProviderTypes(api) {
				fm := fieldMapFor(prof, api, typ)
				for key := range fieldMaps {
					if key == typ || key == typ+"#"+api {
						used[key] = true
					}
				}
				fields, _ := prof.Fields(api, typ)
				for _, key := range fm.keys() {
					assert.True(t, slices.ContainsFunc(fields, func(f profile.Field) bool { return f.Name == key }),
						"%s: %s %s has no config key %q", v, api, typ, key)
				}
			}
		}
	}
	for key := range fieldMaps {
		assert.True(t, used[key], "fieldMaps has %s, which no supported server version registers", strings.ReplaceAll(key, "#", " in "))
	}
}
