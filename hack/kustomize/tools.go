//go:build tools

// Package kustomize pins kustomize, built from the Go module proxy for the real-tool tests.
package kustomize

import _ "sigs.k8s.io/kustomize/kustomize/v5"
