// SPDX-License-Identifier: Apache-2.0

// Command llsd-controller runs in a cluster: the v1alpha1 <-> v1alpha2 conversion webhook and
// the status of every LlamaStackDistribution. It is its own binary so that the KRM function
// (llsd) neither links nor initialises the controller stack.
package main

import (
	"os"

	"github.com/llamastack/llsd/internal/controller"
)

func main() {
	os.Exit(controller.Main(os.Args[1:], os.Stdout, os.Stderr))
}
