// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/kptdev/krm-functions-sdk/go/fn"
)

// Packages splits items into one ResourceList per package: a RenderOptions document applies
// to the items of its directory and below, as a package's function config does under kpt,
// and one below another only tightens it (RenderOptions.Tighten: the top one is the
// platform's, the ones below their owners'). The items under no RenderOptions form a list of
// their own with top as its function config. fileOf names the file an item came from ("" for
// none: such an item is under no RenderOptions but top). Lists come in the order of their
// first item or RenderOptions; a RenderOptions document is in no list's items (it is its
// list's function config).
//
// `llsd render` splits the files it reads so; a kpt root package's pipeline, which sees its
// subpackages' files too, is split alike (Process), so that both give one answer.
func Packages(items fn.KubeObjects, fileOf func(*fn.KubeObject) string, top *fn.KubeObject) ([]*fn.ResourceList, error) {
	optionsFile := map[string]string{} // directory -> the file with its RenderOptions
	lists := map[string]*fn.ResourceList{}
	for _, item := range items {
		if !isOptions(item) {
			continue
		}
		file := fileOf(item)
		dir := filepath.Dir(file)
		if other, ok := optionsFile[dir]; ok {
			return nil, fmt.Errorf("two %s documents for the files of %s (%s and %s): keep one", OptionsKind, dir, other, file)
		}
		optionsFile[dir] = file
		lists[dir] = &fn.ResourceList{FunctionConfig: item}
	}
	if err := tightenNested(lists, optionsFile); err != nil {
		return nil, err
	}
	var order []*fn.ResourceList
	for _, item := range items {
		if isOptions(item) { // its list has its place, even without items: its options are checked
			if rl := lists[filepath.Dir(fileOf(item))]; !slices.Contains(order, rl) {
				order = append(order, rl)
			}
			continue
		}
		dir := ""
		if file := fileOf(item); file != "" {
			dir = packageOf(file, optionsFile)
		}
		rl, ok := lists[dir]
		if !ok {
			rl = &fn.ResourceList{FunctionConfig: top}
			lists[dir] = rl
		}
		if !slices.Contains(order, rl) {
			order = append(order, rl)
		}
		rl.Items = append(rl.Items, item)
	}
	return order, nil
}

// isOptions reports whether an object is a RenderOptions document, of its kind and version.
func isOptions(item *fn.KubeObject) bool {
	return item.GetAPIVersion() == OptionsAPIVersion && item.GetKind() == OptionsKind
}

// tightenNested gives each package whose directory lies below another package's the options of
// the one above, tightened by its own; a RenderOptions that would loosen them is an error that
// names both files.
func tightenNested(lists map[string]*fn.ResourceList, optionsFile map[string]string) error {
	dirs := slices.SortedFunc(maps.Keys(optionsFile), func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	effective := map[string]RenderOptions{}
	for _, dir := range dirs {
		own, err := ParseOptions([]byte(lists[dir].FunctionConfig.String()))
		if err != nil {
			return fmt.Errorf("%s: %w", optionsFile[dir], err)
		}
		effective[dir] = own
		above := packageOf(dir, optionsFile) // the nearest above dir's own
		if above == "" {
			continue
		}
		if effective[dir], err = effective[above].Tighten(own); err != nil {
			return fmt.Errorf("%s, below %s: %w", optionsFile[dir], optionsFile[above], err)
		}
		merged, err := OptionsObject(effective[dir], lists[dir].FunctionConfig)
		if err != nil {
			return err
		}
		lists[dir].FunctionConfig = merged
	}
	return nil
}

// packageOf is the nearest directory at or above a file's that has RenderOptions, or "".
func packageOf(file string, optionsFile map[string]string) string {
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if _, ok := optionsFile[dir]; ok {
			return dir
		}
		if parent := filepath.Dir(dir); parent == dir {
			return ""
		}
	}
}
