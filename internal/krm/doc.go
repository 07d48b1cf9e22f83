// SPDX-License-Identifier: Apache-2.0

// Package krm is llsd as a KRM function: LlamaStackDistributions in a ResourceList (items,
// or the function config in generator mode) become their canonical v1alpha2 form and their
// objects; objects llsd generated before are replaced; errors become results.
package krm
