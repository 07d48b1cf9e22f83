// SPDX-License-Identifier: Apache-2.0

// Command identityfn is a KRM function that returns its input, built with the same SDK and
// I/O path as llsd: the floor llsd's benchmarks are compared with.
package main

import (
	"io"
	"os"

	"github.com/kptdev/krm-functions-sdk/go/fn"
)

func main() {
	in, err := io.ReadAll(os.Stdin)
	if err != nil {
		os.Exit(1)
	}
	out, err := fn.Run(fn.ResourceListProcessorFunc(func(*fn.ResourceList) (bool, error) { return true, nil }), in)
	os.Stdout.Write(out)
	if err != nil {
		os.Exit(1)
	}
}
