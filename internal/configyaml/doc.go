// SPDX-License-Identifier: Apache-2.0

// Package configyaml reads and writes llama-stack config.yaml files the way the server reads
// them: with PyYAML's safe_load, a YAML 1.1 parser.
//
// A config is a plain tree: map[string]any, []any, string, int64, float64, bool and nil.
// Marshal writes it with sorted keys and two-space indentation, and quotes every string
// that YAML 1.1 would read as something else (yes, on, 0755, 12:30, 2026-01-02, ...), so
// the server reads back exactly the tree that was written:
//
//	enabled: "on"   # a string, not true
//	ratio: 60.0     # a float, not the int 60
package configyaml
