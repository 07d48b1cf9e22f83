// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"bytes"
	"os"
	"path/filepath"

	gitignore "github.com/monochromegane/go-gitignore"
)

// ignoreFiles are the .krmignore files met while walking a directory, by the directory they
// cover: the walked one, and each kpt package (a directory with a Kptfile) below it, whose
// own file replaces its parent's for its subtree, as kpt reads them.
//
// kyaml's own matcher (kio's ignoreFilesMatcher, which kpt runs) is not exported: its only
// door is kio.LocalPackageReader, which reads the files itself, following a link out of the
// directory (llsd reads each file through an os.Root of the directory it walks). It also
// picks a package's file by string prefix, so a sibling directory whose name starts with the
// package's (pkg-extra beside pkg) is held to pkg's file; here the nearest directory above a
// path that has a file decides. The patterns are the same library's (go-gitignore).
type ignoreFiles map[string]gitignore.IgnoreMatcher

// enter reads the .krmignore of a directory the walk enters, if it covers it.
func (ig ignoreFiles) enter(root *os.Root, dir string) {
	if dir != "." {
		if _, err := root.Stat(filepath.Join(dir, "Kptfile")); err != nil {
			return
		}
	}
	data, err := root.ReadFile(filepath.Join(dir, ".krmignore"))
	if err != nil {
		ig[dir] = gitignore.DummyIgnoreMatcher(false) // a package without one ignores nothing
		return
	}
	ig[dir] = gitignore.NewGitIgnoreFromReader(string(filepath.Separator)+dir, bytes.NewReader(data))
}

// match reports whether the nearest .krmignore above a path ignores it.
func (ig ignoreFiles) match(rel string, isDir bool) bool {
	if rel == "." {
		return false
	}
	for dir := filepath.Dir(rel); ; dir = filepath.Dir(dir) {
		if m, ok := ig[dir]; ok {
			if isDir && ig[rel] != nil && dir != rel {
				return false // a package is never ignored by its parent's file
			}
			return m.Match(string(filepath.Separator)+rel, isDir)
		}
		if dir == "." {
			return false
		}
	}
}
