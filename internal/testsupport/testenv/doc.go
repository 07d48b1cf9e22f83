// SPDX-License-Identifier: Apache-2.0

// Package testenv starts the real kube-apiserver and etcd that `make envtest-assets` builds,
// with llsd's CRD installed. Tests that need it skip when KUBEBUILDER_ASSETS is unset, and
// fail when CI=true, so CI can never pass by skipping them.
package testenv
