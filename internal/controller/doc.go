// SPDX-License-Identifier: Apache-2.0

// Package controller is llsd's in-cluster half: the v1alpha1 <-> v1alpha2 conversion webhook
// and a reconciler that writes status from the render receipt and the live objects. It
// never renders and never changes workloads.
package controller
