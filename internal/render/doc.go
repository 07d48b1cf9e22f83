// SPDX-License-Identifier: Apache-2.0

// Package render turns a LlamaStackDistribution and its generated config into the
// Kubernetes objects that run it, named and labelled as pkg/api says (api.Names).
package render
