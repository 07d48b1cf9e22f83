// SPDX-License-Identifier: Apache-2.0

// Package floor is the KRM function that returns its input, with the SDK (go/fn) and the I/O
// path llsd uses: what llsd's benchmarks are measured against (identityfn, linkedfn).
package floor

import (
	"io"
	"os"

	"github.com/kptdev/krm-functions-sdk/go/fn"
)

// Identity reads a ResourceList on stdin and writes it back unchanged, as a KRM function.
func Identity() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	out, err := fn.Run(fn.ResourceListProcessorFunc(func(*fn.ResourceList) (bool, error) { return true, nil }), in)
	_, _ = os.Stdout.Write(out)
	if err != nil {
		os.Exit(1)
	}
}
