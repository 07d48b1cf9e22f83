// SPDX-License-Identifier: Apache-2.0

// Package distributions embeds llsd's distribution catalog: distributions.json (name ->
// pinned image) and one base config per distribution and llama-stack server version
// (<name>/<major.minor>.yaml), each semantically equal to the config the image ships.
package distributions

import "embed"

// FS holds distributions.json and the base configs.
//
//go:embed distributions.json */*.yaml
var FS embed.FS
