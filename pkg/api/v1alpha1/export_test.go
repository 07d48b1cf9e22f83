// SPDX-License-Identifier: Apache-2.0

package v1alpha1

// Fingerprint is fingerprint, for tests that forge an annotation as anyone could.
var Fingerprint = fingerprint
