// SPDX-License-Identifier: Apache-2.0

// importbase writes llsd's base configs (distributions/<name>/<version>.yaml) from the
// upstream distribution configs' settings in testdata/server/<release>/configs (as the server
// parses them), without the dead registered_resources.vector_dbs key, and written in llsd's
// canonical form (sorted keys, PyYAML-safe quoting), the form llsd reads at run time. Tests
// prove each equal to its upstream original. Run from the repository root: go run ./hack/importbase
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
)

// baseConfigs are the distributions with a base config of their own (the others reuse one).
var baseConfigs = []string{"starter", "postgres-demo"}

func main() {
	for _, p := range profile.All() {
		for _, name := range baseConfigs {
			dest := fmt.Sprintf("%s/%s.yaml", name, p.Version)
			if err := importOne(p, dest, p.Upstream.Configs, name+"_config"); err != nil {
				fmt.Fprintln(os.Stderr, "importbase:", err)
				os.Exit(1)
			}
		}
	}
}

func importOne(p *profile.Profile, dest, release, file string) error {
	src := release + "/" + file + ".yaml"
	tree, err := servercheck.UpstreamConfig(release + "/" + file)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	if rr, ok := tree["registered_resources"].(map[string]any); ok {
		delete(rr, "vector_dbs") // ignored by the server since 0.3; rejected by the strict schema
	}
	out, err := configyaml.Marshal(tree)
	if err != nil {
		return err
	}
	header := fmt.Sprintf("# %s %s, semantically equal to the distribution config the image ships\n"+
		"# (%s %s), without the dead registered_resources.vector_dbs key.\n", p.Product, dest, p.Product, src)
	path := filepath.Join("distributions", dest)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(header), out...), 0o644)
}
