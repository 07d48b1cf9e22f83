// SPDX-License-Identifier: Apache-2.0

package architecture

import (
	"go/build"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const module = "github.com/llamastack/llsd/"

// product are llsd's production packages: the public API and the internal packages that make
// the binaries, without the small helpers every package may use (lazyre, memo, redact,
// kubeexpand, suggest).
var product = []string{"pkg/", "internal/cli", "internal/config", "internal/configyaml", "internal/controller",
	"internal/distribution", "internal/krm", "internal/migrate", "internal/oci", "internal/pipeline", "internal/profile", "internal/render", "internal/version"}

// testSupport are the packages only tests may import.
var testSupport = []string{"internal/testsupport/", "internal/e2e"}

type rule struct {
	pkg, reason string
	forbidden   []string
}

// rules are docs/architecture.md's "what must never import what": a package (or every
// package under a prefix ending in /) and the llsd packages it must not reach, directly or
// through another llsd package.
var rules = append([]rule{
	{pkg: "pkg/api/", reason: "the API is the contract everything else reads: it depends on nothing of llsd's",
		forbidden: []string{"internal/profile", "internal/configyaml", "internal/distribution", "internal/config", "internal/render", "internal/pipeline", "internal/krm", "internal/controller", "internal/oci", "internal/cli"}},
	{pkg: "internal/profile", reason: "server facts are data", forbidden: product},
	{pkg: "internal/lazyre", reason: "a helper every package may use", forbidden: append([]string{"internal/suggest"}, product...)},
	{pkg: "internal/memo", reason: "a helper every package may use", forbidden: product},
	{pkg: "internal/configyaml", reason: "the YAML codec knows no spec", forbidden: product},
	{pkg: "internal/fastcodec", reason: "the fast writers know no spec, object or front end", forbidden: append(slices.Clone(product), testSupport...)},
	{pkg: "internal/oci", reason: "reading image labels knows no spec", forbidden: product},
	{pkg: "internal/config", reason: "generation is pure: it knows no Kubernetes object and no front end",
		forbidden: []string{"internal/render", "internal/pipeline", "internal/krm", "internal/controller", "internal/cli"}},
	{pkg: "internal/render", reason: "objects come from a generated config, never from a front end", forbidden: []string{"internal/pipeline", "internal/krm", "internal/controller", "internal/cli"}},
	{pkg: "internal/pipeline", reason: "one render, whatever runs it", forbidden: []string{"internal/krm", "internal/controller", "internal/cli"}},
	{pkg: "internal/krm", reason: "the KRM function is one front end", forbidden: []string{"internal/controller", "internal/cli"}},
	{pkg: "internal/migrate", reason: "migration renders through the one pipeline and reads inputs as the KRM function does; it is no command", forbidden: []string{"internal/controller", "internal/cli"}},
	{pkg: "internal/controller", reason: "the controller never renders: it reads the receipt",
		forbidden: []string{"internal/config", "internal/render", "internal/pipeline", "internal/krm", "internal/cli"}},
	{pkg: "internal/testsupport/servercheck", reason: "the oracle restates the server's rules and shares none of the generator's",
		forbidden: []string{"internal/profile", "internal/distribution", "internal/config", "internal/render", "internal/pipeline", "internal/krm", "pkg/api"}},
	{pkg: "fn", reason: "the KRM function binary does not link the controller", forbidden: []string{"internal/controller"}},
	{pkg: "cmd/llsd", reason: "the KRM function binary does not link the controller", forbidden: []string{"internal/controller"}},
}, productRules()...)

// productRules keep production code from reaching test support.
func productRules() []rule {
	var out []rule
	for _, pkg := range product {
		out = append(out, rule{pkg: pkg, reason: "production code never reaches test support", forbidden: testSupport})
	}
	return out
}

// Every rule holds for the non-test imports of every llsd package.
func TestImportBoundaries(t *testing.T) {
	root := filepath.Join("..", "..")
	deps := map[string][]string{} // llsd package -> llsd packages it reaches
	var reach func(pkg string) []string
	reach = func(pkg string) []string {
		if got, ok := deps[pkg]; ok {
			return got
		}
		deps[pkg] = nil // cycles cannot compile; this only stops the recursion
		p, err := build.ImportDir(filepath.Join(root, filepath.FromSlash(pkg)), 0)
		require.NoError(t, err, pkg)
		var all []string
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, module); ok {
				all = append(all, rel)
				all = append(all, reach(rel)...)
			}
		}
		slices.Sort(all)
		deps[pkg] = slices.Compact(all)
		return deps[pkg]
	}
	pkgs := packages(t, root)
	require.Greater(t, len(pkgs), 15)
	for _, r := range rules {
		matched := false
		for _, pkg := range pkgs {
			if !covers(r.pkg, pkg) {
				continue
			}
			matched = true
			for _, dep := range reach(pkg) {
				for _, f := range r.forbidden {
					assert.False(t, covers(f, dep) && !covers(r.pkg, dep), "%s imports %s (%s): %s", pkg, dep, f, r.reason)
				}
			}
		}
		assert.True(t, matched, "rule %q names no package", r.pkg)
	}
}

// covers reports whether a rule's package pattern (a path, or a prefix ending in /) names pkg.
func covers(pattern, pkg string) bool {
	if strings.HasSuffix(pattern, "/") {
		return strings.HasPrefix(pkg+"/", pattern)
	}
	return pkg == pattern
}

// packages lists llsd's Go packages with non-test code: fn and those under pkg/, internal/ and cmd/.
func packages(t *testing.T, root string) []string {
	out := []string{"fn"}
	for _, top := range []string{"pkg", "internal", "cmd"} {
		dirs, err := filepath.Glob(filepath.Join(root, top, "*"))
		require.NoError(t, err)
		more, err := filepath.Glob(filepath.Join(root, top, "*", "*"))
		require.NoError(t, err)
		for _, dir := range append(dirs, more...) {
			if _, err := build.ImportDir(dir, 0); err != nil {
				continue // no non-test Go files
			}
			rel, err := filepath.Rel(root, dir)
			require.NoError(t, err)
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out
}

// The KRM function starts in a few milliseconds because it neither links nor initialises the
// controller stack: no controller-runtime client or manager, client-go or Prometheus. Nor does
// it link OpenShift's API module for the one Route it writes (the tests check that Route
// against OpenShift's own type and CRD).
func TestFunctionBinaryLeavesOutTheControllerStack(t *testing.T) {
	list := exec.Command("go", "list", "-deps", "./cmd/llsd")
	list.Dir = filepath.Join("..", "..")
	out, err := list.Output()
	require.NoError(t, err)
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range []string{"sigs.k8s.io/controller-runtime/pkg/client", "sigs.k8s.io/controller-runtime/pkg/manager",
			"k8s.io/client-go/", "github.com/prometheus/", "k8s.io/apiserver/", "golang.org/x/crypto/x509roots/fallback", "github.com/openshift/"} {
			assert.False(t, dep == heavy || strings.HasPrefix(dep, heavy) && strings.HasSuffix(heavy, "/"), "./cmd/llsd links %s", dep)
		}
	}
}
