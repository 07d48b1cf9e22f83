// SPDX-License-Identifier: Apache-2.0

// Package kyverno holds the repository's Kyverno policy examples to Kyverno's own code: how it
// reads an image reference and which policy rules match it. It is a module of its own so that
// llsd does not link Kyverno.
package kyverno
