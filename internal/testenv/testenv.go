// SPDX-License-Identifier: Apache-2.0

// Package testenv starts the real kube-apiserver and etcd that `make envtest-assets` builds,
// with llsd's CRD installed. Tests that need it skip when KUBEBUILDER_ASSETS is unset, and
// fail when CI=true, so CI can never pass by skipping them.
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// MissingAssets explains why envtest cannot run, or is empty when it can.
func MissingAssets() string {
	if os.Getenv("KUBEBUILDER_ASSETS") != "" {
		return ""
	}
	return "KUBEBUILDER_ASSETS is not set: run `make test` (it builds kube-apiserver and etcd) " +
		"or `export KUBEBUILDER_ASSETS=$(make -s envtest-assets | cut -d= -f2)`"
}

// InCI reports whether the tests run in CI, where skipping a real-server test is a failure.
func InCI() bool { return os.Getenv("CI") == "true" }

// CRDDir is the directory of the generated CRDs.
func CRDDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "crds")
}

// Start starts an API server with llsd's CRDs. Stop it with env.Stop().
func Start(env *envtest.Environment) (*rest.Config, error) {
	if reason := MissingAssets(); reason != "" {
		return nil, fmt.Errorf("%s", reason)
	}
	env.CRDDirectoryPaths = append(env.CRDDirectoryPaths, CRDDir())
	env.ErrorIfCRDPathMissing = true
	return env.Start()
}

// Need skips the test when reason is not empty (a tool or data it needs is missing), and
// fails it in CI, where everything must be present.
func Need(t interface {
	Helper()
	Fatal(...any)
	Skip(...any)
}, reason string) {
	t.Helper()
	if reason == "" {
		return
	}
	if InCI() {
		t.Fatal(reason)
	}
	t.Skip(reason)
}
