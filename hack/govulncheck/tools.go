//go:build tools

// Package govulncheck pins govulncheck and the Go vulnerability database for `make verify`.
// The database is golang.org/x/vulndb at a commit, read from the Go module proxy (its OSV
// files, indexed by its own indexdb), so the check needs no other host and gives the same
// answer until the pin moves: bump it with
//
//	cd hack/govulncheck && go get golang.org/x/vulndb@latest && go mod tidy
package govulncheck

import (
	_ "golang.org/x/vuln/cmd/govulncheck"
	_ "golang.org/x/vulndb/cmd/indexdb"
)
