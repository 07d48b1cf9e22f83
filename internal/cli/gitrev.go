// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/llamastack/llsd/internal/gitarchive"
)

// gitRevision reads a path of llsd diff written REV:PATH (origin/main:stacks) from the git
// repository of the working directory: the tree of PATH at REV, written into a new directory
// whose path it returns with a function that removes it. ok is false when path is a file or
// directory that exists, or no git revision: it is read as it is.
func gitRevision(path string) (dir string, cleanup func(), ok bool, err error) {
	rev, sub, found := strings.Cut(path, ":")
	if _, statErr := os.Stat(path); statErr == nil || !found || !isCommit(rev) {
		return "", nil, false, nil // a path, read as it is (or reported missing as any other)
	}
	sub = strings.TrimPrefix(filepath.Clean("/"+sub), "/")
	prefix, err := exec.Command("git", "rev-parse", "--show-prefix").Output() // the working directory in the repository
	if err != nil {
		return "", nil, false, fmt.Errorf("%s: %w", path, err)
	}
	treePath := filepath.ToSlash(filepath.Join(strings.TrimSpace(string(prefix)), sub))
	args := []string{"archive", "--format=tar", rev}
	if treePath != "." {
		args = append(args, "--", treePath)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("git", args...) //nolint:gosec // the user's revision and path, an option refused by isCommit
	cmd.Stderr = &stderr
	archive, err := cmd.Output()
	if err != nil {
		return "", nil, false, fmt.Errorf("%s: git archive: %s", path, strings.TrimSpace(stderr.String()))
	}
	root, err := os.MkdirTemp("", "llsd-diff-")
	if err != nil {
		return "", nil, false, err
	}
	cleanup = func() { _ = os.RemoveAll(root) }
	if err := gitarchive.Untar(archive, root); err != nil {
		cleanup()
		return "", nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return filepath.Join(root, filepath.FromSlash(treePath)), cleanup, true, nil
}

// isCommit reports whether rev names a commit of the working directory's repository; a word git
// would read as an option never does.
func isCommit(rev string) bool {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return false
	}
	out, err := exec.Command("git", "rev-parse", "--verify", "--quiet", rev+"^{commit}").Output() //nolint:gosec // see above
	return err == nil && len(out) > 0
}
