// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/cli"
)

// The bash completion script, loaded in a real bash, completes the commands, the shells of
// completion, and file names after render, a name with spaces as one (round four's F12).
func TestBashCompletes(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	var script, stderr bytes.Buffer
	require.Equal(t, 0, cli.Main([]string{"completion", "bash"}, nil, &script, &stderr), stderr.String())
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "stack.yaml"), nil, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "my stack.yaml"), nil, 0o644))
	complete := func(words ...string) string {
		line := "source /dev/stdin; COMP_WORDS=(" + strings.Join(words, " ") + "); COMP_CWORD=" + string(rune('0'+len(words)-1)) +
			`; _llsd; printf '%s|' "${COMPREPLY[@]}"`
		cmd := exec.Command(bash, "-c", line)
		cmd.Dir, cmd.Stdin = dir, bytes.NewReader(script.Bytes())
		out, err := cmd.Output()
		require.NoError(t, err)
		return strings.TrimSuffix(string(out), "|")
	}
	assert.Equal(t, "validate", complete("llsd", "va"))
	assert.Equal(t, "migrate", complete("llsd", "mi"))
	assert.Equal(t, "zsh", complete("llsd", "completion", "z"))
	assert.Equal(t, "stack.yaml", complete("llsd", "render", "st"))
	assert.Equal(t, "my stack.yaml", complete("llsd", "render", "my"), "a name with a space is one reply")

	assert.Equal(t, 2, cli.Main([]string{"completion", "tcsh"}, nil, &script, &stderr))
	assert.Contains(t, stderr.String(), `"tcsh" is no shell llsd completes: use bash, zsh or fish`)
}
