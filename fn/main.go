// SPDX-License-Identifier: Apache-2.0

// Command llsd renders LlamaStackDistributions into llama-stack servers on Kubernetes.
package main

import (
	"os"

	// Mozilla's root certificates, used only where the system has none: the image is
	// FROM scratch, and reading image labels (RenderOptions spec.registry) speaks HTTPS.
	_ "golang.org/x/crypto/x509roots/fallback"

	"github.com/llamastack/llsd/pkg/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
