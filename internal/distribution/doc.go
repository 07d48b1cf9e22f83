// SPDX-License-Identifier: Apache-2.0

// Package distribution resolves spec.distribution to the image the server runs, the
// llama-stack server version of that image, and the base config.yaml llsd generates from.
package distribution
