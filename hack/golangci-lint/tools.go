//go:build tools

// Package golangcilint pins golangci-lint, built from the Go module proxy for `make lint`.
package golangcilint

import _ "github.com/golangci/golangci-lint/v2/cmd/golangci-lint"
