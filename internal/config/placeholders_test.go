// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/config"
)

func TestPlaceholderIn(t *testing.T) {
	for _, tc := range []struct{ reason, value, want string }{
		{"a guide's host", "https://<isvc-name>-predictor.<namespace>.svc.cluster.local:8443/v1", "<isvc-name>"},
		{"words in brackets", "<your project>", "<your project>"},
		{"a shell variable a heredoc did not expand", "${POSTGRES_DB}", "${POSTGRES_DB}"},
		{"with a shell default", "${PORT:-8000}", "${PORT:-8000}"},
		{"the server's own substitution", "${env.POSTGRES_DB:=llamastack}", ""},
		{"a prompt template's token", "Cite sources with <|file-id|>", ""},
		{"the kubelet's expansion", "$(POD_NAME)", ""},
		{"a comparison", "a < b > c", ""},
	} {
		assert.Equal(t, tc.want, config.PlaceholderIn(tc.value), tc.reason)
	}
}
