// SPDX-License-Identifier: Apache-2.0

// Package pipeline renders one LlamaStackDistribution end to end: validate, resolve the
// distribution, generate config.yaml, render the objects, and write the render receipt on
// the canonical v1alpha2 object. The KRM function and `llsd render` both run it.
package pipeline
