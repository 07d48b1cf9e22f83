// SPDX-License-Identifier: Apache-2.0

// importbase writes llsd's base configs (distributions/<name>/<version>.yaml) from the
// upstream distribution configs in ../shared/llama-stack/configs: parsed as the server
// parses them, without the dead registered_resources.vector_dbs key, and written in llsd's
// canonical form (sorted keys, PyYAML-safe quoting). A test proves each file equal to its
// upstream original. Run from the repository root: go run ./hack/importbase
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/llamastack/llsd/internal/servercheck"
	"github.com/llamastack/llsd/pkg/configyaml"
)

// sources maps each base config to its upstream file (llama-stack tag / file name).
var sources = map[string]string{
	"starter/0.6.yaml":       "v0.6.0/starter_config.yaml",
	"starter/0.7.yaml":       "v0.7.1/starter_config.yaml",
	"postgres-demo/0.6.yaml": "v0.6.0/postgres-demo_config.yaml",
	"postgres-demo/0.7.yaml": "v0.7.1/postgres-demo_config.yaml",
}

func main() {
	for dest, src := range sources {
		if err := importOne(dest, src); err != nil {
			fmt.Fprintln(os.Stderr, "importbase:", err)
			os.Exit(1)
		}
	}
}

func importOne(dest, src string) error {
	data, err := os.ReadFile(filepath.Join(servercheck.SharedDir(), "llama-stack", "configs", src))
	if err != nil {
		return err
	}
	tree, err := configyaml.UnmarshalMap(data)
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
	header := fmt.Sprintf("# llama-stack %s, semantically equal to the distribution config the image ships\n"+
		"# (llama-stack %s), without the dead registered_resources.vector_dbs key.\n", dest, src)
	path := filepath.Join("distributions", dest)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(header), out...), 0o644)
}
