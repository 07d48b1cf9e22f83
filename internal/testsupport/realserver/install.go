// SPDX-License-Identifier: Apache-2.0

package realserver

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/llamastack/llsd/internal/release"
	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// Server is one server version installed in the root.
type Server struct {
	// Version is the server's version, as its archive names it (0.6.0, ..., 1.3.0).
	Version string
	// Root is the Debian root it is installed in.
	Root string
	// Prefix is the directory, inside the root, of its virtual environment: bin/ holds its
	// command line.
	Prefix string
	// CLI is its command: llama (llama-stack 0.6, 0.7) or ogx (0.8 on).
	CLI string
}

// Archive is the source archive of a server version: ../shared/servers/server-<version>.tar.gz,
// kept beside the clone and never copied into it. The test skips when it is absent.
func Archive(t testing.TB, version string) string {
	t.Helper()
	path := filepath.Join(testenv.Shared(t, "servers"), "server-"+version+".tar.gz")
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("no source archive of server %s: %v", version, err)
	}
	return path
}

// Install installs a server version from its source archive into the root (once: it is kept
// with the root, keyed by the archive's digest). Nothing is downloaded: the server and its API
// package are installed with pip without an index or their dependencies, which the root's
// Debian packages are.
func Install(t testing.TB, root, version string) Server {
	t.Helper()
	archive := Archive(t, version)
	sum, err := release.FileSHA256(archive)
	if err != nil {
		t.Fatal(err)
	}
	prefix := "/opt/llsd/server-" + version + "-" + sum[:12]
	err = once(filepath.Join(root, prefix), func(string) error {
		return installServer(root, archive, version, prefix)
	})
	if err != nil {
		t.Fatalf("installing server %s from %s: %v", version, archive, err)
	}
	srv := Server{Version: version, Root: root, Prefix: prefix, CLI: "ogx"}
	if _, err := os.Stat(filepath.Join(root, prefix, "bin", "ogx")); err != nil {
		srv.CLI = "llama"
	}
	return srv
}

// installServer unpacks the archive in prefix/src and installs it into a virtual environment at
// prefix that sees the root's packages.
func installServer(root, archive, version, prefix string) error {
	src := filepath.Join(root, prefix, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	if err := run("tar", "-xzf", archive, "-C", src, "--strip-components=1"); err != nil {
		return err
	}
	api := "src/ogx_api"
	if _, err := os.Stat(filepath.Join(src, "src", "llama_stack_api")); err == nil {
		api = "src/llama_stack_api" // llama-stack 0.6 and 0.7
	}
	script := fmt.Sprintf("set -e; export SETUPTOOLS_SCM_PRETEND_VERSION=%s; cd %s/src; "+
		"python3 -m venv --without-pip --system-site-packages %s; "+
		"%s/bin/python3 -m pip install -q --no-deps --no-index --no-build-isolation --no-compile . ./%s",
		version, prefix, prefix, prefix, api)
	return run("chroot", root, "/bin/sh", "-c", script)
}
