// SPDX-License-Identifier: Apache-2.0

// Command linkedfn is identityfn linked with every package llsd links: it returns its input
// after the start llsd pays before any render (a binary of llsd's size loaded, llsd's packages
// and their dependencies, the Kubernetes API types among them, initialized). What llsd's time
// for one LlamaStackDistribution adds to linkedfn's is the render itself.
package main

import (
	_ "github.com/llamastack/llsd/internal/cli" // llsd's packages, linked and initialized
	"github.com/llamastack/llsd/internal/e2e/floor"
)

func main() { floor.Identity() }
