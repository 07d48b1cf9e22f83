// SPDX-License-Identifier: Apache-2.0

// Package gitarchive writes out what `git archive --format=tar` prints: the tree of a revision,
// for the tools that read a revision as files (llsd diff's REV:PATH, hack/serverdata).
package gitarchive

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Untar writes the regular files and directories of a tar archive under root; a name that
// would leave root is an error (git archive writes none).
func Untar(data []byte, root string) error {
	dir, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer dir.Close()
	files := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := files.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := strings.TrimSuffix(h.Name, "/")
		switch h.Typeflag {
		case tar.TypeDir:
			if err := dir.MkdirAll(name, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := dir.MkdirAll(filepath.Dir(name), 0o755); err != nil {
				return err
			}
			content, err := io.ReadAll(files)
			if err != nil {
				return err
			}
			if err := dir.WriteFile(name, content, 0o644); err != nil {
				return err
			}
		}
	}
}
