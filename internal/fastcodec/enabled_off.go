// SPDX-License-Identifier: Apache-2.0

//go:build llsd_nofastpaths

package fastcodec

// Enabled is off: see enabled.go.
const Enabled = false
