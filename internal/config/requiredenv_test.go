// SPDX-License-Identifier: Apache-2.0

package config

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// requiredEnvNames finds what the pattern of a reference without a default finds.
func TestRequiredEnvNames(t *testing.T) {
	pattern := regexp.MustCompile(`\$\{env\.([A-Z0-9_]+)\}`)
	for _, s := range []string{
		"${env.A}", "${env.A:=x}", "${env.A:+y}", "url ${env.HOST_1}:${env.PORT} and ${env.B:=}", "${env.a}", "${env.}",
		"${env.A", "${env.${env.B}}", "$${env.C}", "${env.D}${env.E}", "", "plain",
	} {
		var want []string
		for _, m := range pattern.FindAllStringSubmatch(s, -1) {
			want = append(want, m[1])
		}
		assert.Equal(t, want, requiredEnvNames(s), s)
	}
}
