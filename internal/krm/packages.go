// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/kptdev/krm-functions-sdk/go/fn"
)

// Package is one package of a render: its items, and the options the precedence rule
// (precedence.go) gives them.
type Package struct {
	// List holds the package's items. Its FunctionConfig is the document its options came
	// from nearest (the package's RenderOptions, else the function config), for messages that
	// name it; a RenderOptions document is in no package's items.
	List *fn.ResourceList
	// Options are the package's effective options: every source above it applied.
	Options RenderOptions
	// Source names the nearest RenderOptions document ("RenderOptions llsd (options.yaml)"),
	// or "" for none, for the warnings that say what an option changed.
	Source string
	// LLSD is the function config of generator mode (an LLSD), or nil.
	LLSD *fn.KubeObject
}

// Packages splits items into packages and gives each its options by the one precedence rule
// (precedence.go): the renderer's pinned variables (lookup; nil for none), the function config
// (top: kpt's fn-config, kustomize's transformer file, a ConfigMap, or an LLSD in generator
// mode), then each RenderOptions document among the items from the top directory down — each
// applies to the items of its directory and below, as a package's function config does under
// kpt, and below the top may only tighten. A document no file names (a kustomize resource) is
// at the top of the package, above every directory. fileOf names the file an item came from
// ("" for none). Packages come in the order of their first item or RenderOptions; there is
// always at least one.
//
// `llsd render` splits the files it reads so, and the function the items kpt or kustomize
// pass it, so that every front end gives one answer.
func Packages(items fn.KubeObjects, fileOf func(*fn.KubeObject) string, top *fn.KubeObject,
	lookup func(string) (string, bool)) ([]Package, error) {
	if top == nil {
		top = fn.NewEmptyKubeObject()
	}
	docs := map[string]*fn.KubeObject{} // directory ("" for none) -> its RenderOptions
	for _, item := range items {
		if !isOptions(item) {
			continue
		}
		dir := dirOf(fileOf(item))
		if other, ok := docs[dir]; ok {
			where := dir
			if where == "" {
				where = "the package (no file names them)"
			}
			return nil, fmt.Errorf("two %s documents for the files of %s (%s and %s): keep one", OptionsKind, where,
				documentName(other, fileOf), documentName(item, fileOf))
		}
		docs[dir] = item
	}
	var llsd *fn.KubeObject
	if isLLSD(top) {
		if len(docs) > 0 {
			var found []*fn.KubeObject
			for _, dir := range slices.Sorted(maps.Keys(docs)) {
				found = append(found, docs[dir])
			}
			return nil, fmt.Errorf("%s %s among the inputs, beside the function's own config %s %s: keep one (kpt: the function's "+
				"configPath; kustomize: the transformer's file)", OptionsKind, optionsNames(found), top.GetKind(), top.GetName())
		}
		llsd = top
	}
	chain, err := resolveOptions(top, docs, fileOf, lookup)
	if err != nil {
		return nil, err
	}
	return split(items, fileOf, top, llsd, docs, chain), nil
}

// underNone keys the package of the items under no RenderOptions: no directory is called so.
const underNone = "\x00"

// split puts each item into the package of its nearest RenderOptions (the one of its directory
// or above), or the function config's when there is none.
func split(items fn.KubeObjects, fileOf func(*fn.KubeObject) string, top, llsd *fn.KubeObject,
	docs map[string]*fn.KubeObject, chain resolved) []Package {
	byDir := map[string]*Package{}
	var order []*Package
	packageFor := func(dir string, under bool) *Package {
		key := dir
		if !under {
			key = underNone
		}
		if pkg, ok := byDir[key]; ok {
			return pkg
		}
		pkg := &Package{List: &fn.ResourceList{FunctionConfig: top}, Options: chain.top, Source: optionsSource(top), LLSD: llsd}
		if under {
			pkg.List.FunctionConfig, pkg.Options, pkg.Source = docs[dir], chain.byDir[dir], optionsSource(docs[dir])
		}
		byDir[key] = pkg
		order = append(order, pkg)
		return pkg
	}
	for _, item := range items {
		pkg := packageFor(packageOf(dirOf(fileOf(item)), docs))
		if !isOptions(item) { // a RenderOptions' package has its place, even without items: its options are checked
			pkg.List.Items = append(pkg.List.Items, item)
		}
	}
	if len(order) == 0 {
		packageFor("", false)
	}
	out := make([]Package, len(order))
	for i, pkg := range order {
		out[i] = *pkg
	}
	return out
}

// isOptions reports whether an object is a RenderOptions document, of its kind and version.
func isOptions(item *fn.KubeObject) bool {
	return item.GetAPIVersion() == OptionsAPIVersion && item.GetKind() == OptionsKind
}

// dirOf is the directory of a file, or "" for no file (a document at the top of the package).
func dirOf(file string) string {
	if file == "" {
		return ""
	}
	return filepath.Dir(file)
}

// packageOf is the nearest directory at or above dir that has RenderOptions ("" stands above
// every directory), and whether there is one.
func packageOf(dir string, docs map[string]*fn.KubeObject) (string, bool) {
	for dir != "" {
		if _, ok := docs[dir]; ok {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	_, ok := docs[""]
	return "", ok
}

// above is the nearest directory strictly above dir that has RenderOptions.
func above(dir string, docs map[string]*fn.KubeObject) (string, bool) {
	if dir == "" {
		return "", false
	}
	if parent := filepath.Dir(dir); parent != dir {
		return packageOf(parent, docs)
	}
	_, ok := docs[""]
	return "", ok
}

// documentName names a RenderOptions document by its file, or by its name when no file does.
func documentName(o *fn.KubeObject, fileOf func(*fn.KubeObject) string) string {
	if f := fileOf(o); f != "" {
		return f
	}
	return OptionsKind + " " + o.GetName()
}
