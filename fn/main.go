// SPDX-License-Identifier: Apache-2.0

// Command fn is llsd under the name the KRM function catalog gives its functions' packages;
// `go install` names a binary after its directory, so install cmd/llsd for a binary called
// llsd. Both run the same cli.Main.
package main

import (
	"os"

	"github.com/llamastack/llsd/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
