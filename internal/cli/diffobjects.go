// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/review"
)

// externalDiffArgs puts llsd diff's words first where kubectl diff put them last:
// KUBECTL_EXTERNAL_DIFF="llsd diff --objects" makes kubectl run llsd LIVE MERGED diff --objects
// (it appends the variable's words after its two directories; Argo CD puts them before).
func externalDiffArgs(args []string) []string {
	if len(args) < 4 || args[2] != "diff" || !slices.Contains(args[3:], "--objects") {
		return args
	}
	for _, dir := range args[:2] {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return args
		}
	}
	return slices.Concat(args[2:], args[:2])
}

// readObjectSides reads llsd diff --objects' two sides: the live objects, with the API server's
// defaults, and the target's.
func readObjectSides(paths []string) ([2]map[string]*review.Stack, error) {
	var sides [2]map[string]*review.Stack
	for i, path := range paths {
		items, err := readObjects(path)
		if err == nil && i == 0 {
			sides[i], err = review.LiveStacks(items)
		} else if err == nil {
			sides[i], err = review.Stacks(items)
		}
		if err != nil {
			return sides, fmt.Errorf("%s: %w", path, err)
		}
	}
	return sides, nil
}

// readObjects reads the objects of a file (an empty one holds none: the side of an object that
// does not exist) or of every file of a directory, as kubectl diff writes them (one object per
// file, named for it, without an extension). A List's items are its objects, as kubectl get
// -o yaml writes several.
func readObjects(path string) (fn.KubeObjects, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	files := []string{path}
	if info.IsDir() {
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		files = files[:0]
		for _, e := range entries {
			if e.Type().IsRegular() {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
	}
	var all fn.KubeObjects
	documents := 0
	for _, file := range files {
		items, err := readItems(inputFile{name: file}, nil, &documents)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Base(file), err)
		}
		for _, item := range items {
			listed, err := listItems(item)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", filepath.Base(file), err)
			}
			all = append(all, listed...)
		}
	}
	return all, nil
}

// listItems are the objects of a v1 List, or the object itself.
func listItems(item *fn.KubeObject) (fn.KubeObjects, error) {
	if item.GetKind() != "List" || item.GetAPIVersion() != "v1" {
		return fn.KubeObjects{item}, nil
	}
	subs, _, err := item.NestedSlice("items")
	if err != nil {
		return nil, err
	}
	var out fn.KubeObjects
	for _, sub := range subs {
		o, err := fn.ParseKubeObject([]byte(sub.String()))
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}
