// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/controller"
)

// llsd-controller --version prints its version and stops, before it looks for a cluster (#44).
func TestControllerVersion(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 0, controller.Main([]string{"--version"}, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "llsd-controller ")
}
