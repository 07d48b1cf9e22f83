// SPDX-License-Identifier: Apache-2.0

// Command llsd renders LlamaStackDistributions into llama-stack servers on Kubernetes: the
// KRM function (no arguments), llsd render, llsd validate and llsd label-image.
//
//	go install github.com/llamastack/llsd/cmd/llsd@latest
package main

import (
	"os"

	"github.com/llamastack/llsd/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
