// SPDX-License-Identifier: Apache-2.0

// Package cli dispatches llsd's subcommands.
package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

const usage = `llsd turns short LlamaStackDistribution resources into llama-stack servers on Kubernetes.

Usage:
  llsd                    run as a KRM function: a ResourceList on stdin, the rendered
                          ResourceList on stdout (kustomize --enable-alpha-plugins, kpt)
  llsd validate PATH...   check LlamaStackDistribution files (or directories of them)
                          with the same rules, paths and messages as the API server
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
		return validate(args[1:], stdout, stderr)
	case "render":
		return renderCommand(args[1:], stdout, stderr)
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

func validate(paths []string, stdout, stderr io.Writer) int {
	files, ok := inputFiles("validate", paths, stderr)
	if !ok {
		return 2
	}
	checked, failed := 0, 0
	for _, file := range files {
		docs, err := readDocuments(file)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", file, err)
			failed++
			continue
		}
		for _, doc := range docs {
			if doc.Kind != v1alpha2.Kind {
				continue
			}
			checked++
			if !report(file, doc.raw, stderr) {
				failed++
			}
		}
	}
	if checked == 0 && failed == 0 {
		fmt.Fprintln(stderr, "llsd validate: no LlamaStackDistribution found in", strings.Join(paths, " "))
		return 1
	}
	fmt.Fprintf(stdout, "%d LlamaStackDistribution(s) checked, %d invalid\n", checked, failed)
	if failed > 0 {
		return 1
	}
	return 0
}

// report prints the errors of one document and says whether it was valid.
func report(file string, doc []byte, w io.Writer) bool {
	obj, errs := api.Decode(doc)
	if len(errs) == 0 {
		errs = v1alpha2.Validate(obj)
	}
	if len(errs) == 0 {
		return true
	}
	name := "(unnamed)"
	var meta struct {
		Metadata struct{ Name string } `json:"metadata"`
	}
	if yaml.Unmarshal(doc, &meta) == nil && meta.Metadata.Name != "" {
		name = meta.Metadata.Name
	}
	for _, e := range errs {
		fmt.Fprintf(w, "%s: LlamaStackDistribution %s: %s\n", file, name, e.Error())
	}
	return false
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

func splitYAML(data []byte) [][]byte {
	var docs [][]byte
	for _, doc := range bytes.Split(append([]byte("\n"), data...), []byte("\n---")) {
		if len(bytes.TrimSpace(doc)) > 0 {
			docs = append(docs, doc)
		}
	}
	return docs
}
