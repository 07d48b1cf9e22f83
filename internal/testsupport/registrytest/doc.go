// SPDX-License-Identifier: Apache-2.0

// Package registrytest runs go-containerregistry's in-process OCI registry for tests, counts
// the requests it serves by kind, and builds labelled images to push into it.
package registrytest
