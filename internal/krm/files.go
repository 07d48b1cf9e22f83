// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"path"
	"strconv"

	"github.com/kptdev/krm-functions-sdk/go/fn"
)

// The annotations kpt reads to decide which file an object is written to, in both spellings
// (kyaml requires the legacy twin to agree when it is present).
const (
	pathAnnotation        = "internal.config.kubernetes.io/path"
	indexAnnotation       = "internal.config.kubernetes.io/index"
	legacyPathAnnotation  = "config.kubernetes.io/path"
	legacyIndexAnnotation = "config.kubernetes.io/index"
	// packagePathAnnotation is kpt's: a parent package's pipeline sees its subpackages' objects
	// with paths relative to the subpackage named here.
	packagePathAnnotation = "internal.config.kubernetes.io/package-path"
)

// fileIndexes counts the objects already placed in each generated file, by package and path.
type fileIndexes map[string]int

// place puts the objects generated from an LLSD that came from a package file into one file
// beside it, <dir>/<llsd name>.generated.yaml: kpt then writes one reviewable file per LLSD
// instead of a file per object (<namespace>/<kind>_<name>.yaml, a new one whenever the
// hash-named ConfigMap changes). objs[0] is the canonical LLSD, which stays where it was.
// Without a path (kustomize, llsd render) nothing is added.
func (f fileIndexes) place(llsd *fn.KubeObject, objs fn.KubeObjects) fn.KubeObjects {
	src := llsd.PathAnnotation()
	if src == "" || len(objs) < 2 {
		return objs
	}
	pkg := llsd.GetAnnotation(packagePathAnnotation)
	dest := path.Join(path.Dir(src), llsd.GetName()+".generated.yaml")
	file := pkg + "\x00" + dest
	for _, o := range objs[1:] {
		index := strconv.Itoa(f[file])
		f[file]++
		for _, a := range [][2]string{{legacyIndexAnnotation, index}, {legacyPathAnnotation, dest},
			{indexAnnotation, index}, {pathAnnotation, dest}, {packagePathAnnotation, pkg}} {
			if a[1] != "" {
				_ = o.SetAnnotation(a[0], a[1])
			}
		}
	}
	return objs
}
