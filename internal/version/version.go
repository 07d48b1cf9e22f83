// SPDX-License-Identifier: Apache-2.0

// Package version is the version both llsd binaries were built as (render receipts, logs).
package version

import "runtime/debug"

// version is stamped at build time: go build -ldflags "-X github.com/llamastack/llsd/internal/version.version=v1.2.3"
// (make build, make image and the Dockerfile do).
var version string

// Get is the version llsd was built as: the stamped one, else the module version, else
// the VCS revision the binary was built from, else "devel".
func Get() string {
	if version != "" {
		return version
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			return "devel-" + s.Value[:12]
		}
	}
	return "devel"
}
