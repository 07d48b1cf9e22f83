// SPDX-License-Identifier: Apache-2.0

// Package profile is what llsd knows about each server version (llama-stack up to 0.7, OGX
// from 0.8): one Profile per major.minor. Everything that differs between server versions is
// read from here, and an unknown version fails in one place (For), so supporting a version is
// adding its profile (v0_8.go, providers/0.8.json from hack/providerfields), its base configs
// (distributions/, from hack/importbase) and golden cases. docs/architecture.md has the recipe.
package profile
