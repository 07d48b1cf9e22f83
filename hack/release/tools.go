//go:build tools

// Package release pins the release tools, built from the Go module proxy: goreleaser (archives,
// checksums, the SBOM step) and cyclonedx-gomod (a CycloneDX SBOM per binary).
package release

import (
	_ "github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod"
	_ "github.com/goreleaser/goreleaser/v2"
)
