// SPDX-License-Identifier: Apache-2.0

// Package cli dispatches llsd's subcommands.
package cli
