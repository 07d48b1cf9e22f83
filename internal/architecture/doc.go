// SPDX-License-Identifier: Apache-2.0

// Package architecture holds the test that keeps llsd's packages in the layers
// docs/architecture.md draws: it fails on an import the document forbids.
package architecture
