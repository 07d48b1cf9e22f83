// SPDX-License-Identifier: Apache-2.0

// Command identityfn is a KRM function that returns its input, built with the same SDK and
// I/O path as llsd: the floor llsd's benchmarks are compared with.
package main

import "github.com/llamastack/llsd/internal/e2e/floor"

func main() { floor.Identity() }
