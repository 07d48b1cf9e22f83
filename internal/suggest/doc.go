// SPDX-License-Identifier: Apache-2.0

// Package suggest finds the name a user probably meant, for error messages.
package suggest
