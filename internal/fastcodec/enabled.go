// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"strings"
	"sync"
)

// The fast paths, by name, for On.
const (
	PathTree   = "tree"   // TreeYAML: config.yaml written without yaml.v3
	PathNodes  = "nodes"  // KubeObject: rendered objects' nodes built without a YAML round trip
	PathWriter = "writer" // WriteEntry, WriteDocument: the KRM output written without yaml.v3
)

// off names the fast paths a build turns off, for make bench to measure what each buys:
// -ldflags "-X github.com/llamastack/llsd/internal/fastcodec.off=tree,writer" ("all" for every
// one). Each path turned off leaves its work to the library it reproduces, with the same bytes.
// Empty in every build that ships.
var off string

var offPaths = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for _, name := range strings.Split(off, ",") {
		set[strings.TrimSpace(name)] = true
	}
	return set
})

// On reports whether the fast path name runs.
func On(name string) bool {
	set := offPaths()
	return !set["all"] && !set[name]
}
