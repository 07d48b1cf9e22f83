// SPDX-License-Identifier: Apache-2.0

//go:build !llsd_nofastpaths

package fastcodec

// Enabled reports whether the fast paths run. Building with -tags llsd_nofastpaths turns them
// all off (each then leaves its work to the library it reproduces, and the base configs are
// read from their YAML), so that make bench-fastpaths can measure what they buy.
const Enabled = true
