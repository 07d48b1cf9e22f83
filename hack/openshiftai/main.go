// SPDX-License-Identifier: Apache-2.0

// openshiftai writes llsd's base configs of OpenShift AI's rh-dev (distributions/rh-dev/
// <release>.yaml) from the config each release's image runs, as kept in a snapshot
// of the releases' distribution repositories (the directory -from, where distribution.Releases'
// Config names each file). Each is parsed as the server parses it, the keys its server ignores
// dropped (deadKeys: the server would not read them, and the strict schema llsd's tests judge
// with refuses them), and written in llsd's canonical form (sorted keys, no comments), the
// same as distributions/<name>/<version>.yaml, next to the JSON form llsd reads at run time.
// Run from the repository root:
//
//	go run ./hack/openshiftai -from ../shared/openshift-ai
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/distribution"
)

// deadKeys are keys of the images' configs their servers do not read: a top-level telemetry
// block (gone in llama-stack 0.4), registered vector_dbs (0.3) and tool_groups (0.7 registers
// the built-in groups itself and discards these), and a provider entry's notes.
var deadKeys = []string{"telemetry", "registered_resources.vector_dbs", "registered_resources.tool_groups", "providers.*.notes"}

// deadKeysOGX1 are dead in OGX 1.x only: the responses provider's agent_state persistence,
// which llama-stack 0.7 requires and OGX 1.0 dropped with the agents API.
var deadKeysOGX1 = []string{"providers.responses.config.persistence.agent_state"}

func main() {
	from := flag.String("from", filepath.Join("..", "shared", "openshift-ai"), "the snapshot of the releases' distribution repositories")
	out := flag.String("out", "distributions", "the directory of llsd's base configs")
	flag.Parse()
	for _, r := range distribution.Releases {
		if r.BaseConfigFile() == "" {
			continue
		}
		if err := write(*from, *out, r); err != nil {
			fmt.Fprintln(os.Stderr, "openshiftai:", r.Name+":", err)
			os.Exit(1)
		}
	}
}

func write(from, out string, r distribution.Release) error {
	data, err := os.ReadFile(filepath.Join(from, r.Config))
	if err != nil {
		return err
	}
	tree, err := configyaml.UnmarshalMap(data)
	if err != nil {
		return err
	}
	dead := deadKeys
	if strings.HasPrefix(string(r.Version()), "1.") {
		dead = append(dead, deadKeysOGX1...)
	}
	var dropped []string
	for _, key := range dead {
		if drop(tree, strings.Split(key, ".")) {
			dropped = append(dropped, key)
		}
	}
	yamlForm, err := configyaml.Marshal(tree)
	if err != nil {
		return err
	}
	header := fmt.Sprintf("# rh-dev of %s (%s): the settings of the config its image runs,\n"+
		"# %s,\n# without the keys its server does not read: %s.\n# Written by hack/openshiftai.\n",
		r.Product(), r.Server, r.Config, strings.Join(dropped, ", "))
	path := filepath.Join(out, r.BaseConfigFile())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append([]byte(header), yamlForm...), 0o644)
}

// drop removes the key at path (a * steps into every API's provider list; list items are
// stepped into) and reports whether there was one.
func drop(node any, path []string) bool {
	switch n := node.(type) {
	case []any:
		found := false
		for _, item := range n {
			found = drop(item, path) || found
		}
		return found
	case map[string]any:
		if len(path) == 1 {
			_, ok := n[path[0]]
			delete(n, path[0])
			return ok
		}
		if path[0] == "*" {
			found := false
			for _, v := range n {
				found = drop(v, path[1:]) || found
			}
			return found
		}
		return drop(n[path[0]], path[1:])
	}
	return false
}
