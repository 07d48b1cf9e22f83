// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"os"
	"runtime/debug"
)

// tuneGC sets the collector for a short process that renders and exits (the KRM function,
// llsd render): collections are rare while the heap is small (GOGC 400: a render of one
// LlamaStackDistribution runs none, about a fifth of its time), and a soft limit of 150 MiB
// keeps a large render's heap near it, not at a multiple of what it keeps. GOGC or GOMEMLIMIT
// in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(150 << 20)
	}
}
