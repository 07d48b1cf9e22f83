// SPDX-License-Identifier: Apache-2.0

// Package oci reads the llama-stack base config a distribution image carries in its labels,
// so custom and mirrored images get generated configs without overrideConfig:
//
//	io.llamastack.config.base64   config.yaml, base64 (configs under 50 KB)
//	io.llamastack.config.layer    digest of the layer holding config.yaml (larger configs) ...
//	io.llamastack.config.path     ... and its path in that layer
//	io.llamastack.config.version  the llama-stack server version (0.7.1)
//
// OGX 0.8 images label their configs as com.ogx.config.<file>, which is read too.
// `llsd label-image` writes these labels (Label).
package oci
