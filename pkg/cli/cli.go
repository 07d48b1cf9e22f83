// SPDX-License-Identifier: Apache-2.0

// Package cli dispatches llsd's subcommands.
package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
)

const usage = `llsd turns short LlamaStackDistribution resources into llama-stack servers on Kubernetes.

Usage:
  llsd                    run as a KRM function: a ResourceList on stdin, the rendered
                          ResourceList on stdout (kustomize --enable-alpha-plugins, kpt)
  llsd validate PATH...   check LlamaStackDistribution files (or directories of them):
                          everything llsd render checks, without printing manifests
  llsd render PATH...     print the manifests of the LlamaStackDistributions in PATH
                          (files or directories): each one canonical, with its config
                          ConfigMap, Deployment, Service, ...; other documents pass through
  llsd label-image SRC DST
                          copy a distribution image with the labels llsd reads its
                          base config from (see llsd label-image --help)
  llsd controller         run the companion controller in a cluster: conversion
                          webhook and status (see llsd controller --help)
  llsd version            print the version
`

// Main runs llsd with args and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return krmFunction(stdin, stdout, stderr)
	}
	switch args[0] {
	case "validate":
		return validate(args[1:], stdin, stdout, stderr)
	case "render":
		return renderCommand(args[1:], stdin, stdout, stderr)
	case "label-image":
		return labelImage(args[1:], stdout, stderr)
	case "controller":
		return controllerCommand(args[1:], stderr)
	case "version", "--version":
		fmt.Fprintln(stdout, "llsd", Version())
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return 0
	case "--doc":
		fmt.Fprint(stdout, functionDoc)
		return 0
	}
	fmt.Fprintf(stderr, "llsd: unknown command %q\n\n%s", args[0], usage)
	return 2
}

// Version is the module version llsd was built from, or "devel".
func Version() string {
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "devel"
}

// validate renders the LlamaStackDistributions of paths as `llsd render` would, with the same
// options, and prints only the verdict: it refuses exactly what render refuses.
func validate(paths []string, stdin io.Reader, stdout, stderr io.Writer) int {
	r, code := renderPaths("validate", paths, stdin, stderr)
	if code != 0 {
		return code
	}
	if r.checked == 0 && r.failed == 0 {
		fmt.Fprintln(stderr, "llsd validate: no LlamaStackDistribution found in", strings.Join(paths, " "))
		return 1
	}
	fmt.Fprintf(stdout, "%d LlamaStackDistribution(s) checked, %d invalid\n", r.checked, r.failed)
	if r.failed > 0 {
		return 1
	}
	return 0
}

// inputFiles lists the YAML files of the command's paths, or reports why it cannot.
func inputFiles(command string, paths []string, stderr io.Writer) ([]string, bool) {
	if len(paths) == 0 {
		fmt.Fprintf(stderr, "llsd %s: name at least one file or directory\n", command)
		return nil, false
	}
	files, err := yamlFiles(paths)
	if err != nil {
		fmt.Fprintf(stderr, "llsd %s: %v\n", command, err)
		return nil, false
	}
	return files, true
}

func yamlFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		err := filepath.WalkDir(p, func(path string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || path == p) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}
