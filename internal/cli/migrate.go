// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/migrate"
	"github.com/llamastack/llsd/internal/version"
)

const migrateUsage = `Usage: llsd migrate PATH...

Writes each LlamaStackDistribution in PATH (files, directories, or - for standard input) as the
successor operator's OGXServer (ogx.io/v1beta1), and each OGXServer as a LlamaStackDistribution
v1alpha2; other documents pass through. An LLSD is rendered first: the OGXServer renders the
same config.yaml, keeps the image the LLSD ran, and carries the ogx.io/adopt-storage and
ogx.io/adopt-networking annotations that let the successor take over the LLSD's PVC, Service and
Ingress. Each field the other API cannot say is a warning on stderr. Render options come from
RenderOptions documents and the environment (LLSD_*), as for llsd render.
`

// migrateCommand prints the migrated documents of paths, or the errors that stop them. Each
// package renders with its own RenderOptions and the environment's, as llsd render does.
func migrateCommand(paths []string, stdin io.Reader, stdout, stderr io.Writer) int {
	in, code := readInputs("migrate", paths, stdin, stderr)
	if code != 0 {
		return code
	}
	pkgs, err := krm.Packages(in.items, in.fileOf, nil, os.LookupEnv)
	if err != nil {
		fmt.Fprintf(stderr, "llsd migrate: %v\n", err)
		return 1
	}
	failed := in.unread
	var out fn.KubeObjects
	for _, pkg := range pkgs {
		if err := krm.InNamespace(in.namespaceOf(os.Getenv(argoCDAppNamespace)), pkg.List.Items); err != nil {
			fmt.Fprintf(stderr, "llsd migrate: %v\n", err)
			return 1
		}
		migrated, results := migrate.Items(pkg.List.Items, pkg.Options.PipelineOptions(version.Get()))
		failed += report(results, "", stderr)
		out = append(out, migrated...)
	}
	if failed > 0 {
		return 1
	}
	text, err := writeItems(out)
	if err != nil {
		fmt.Fprintln(stderr, "llsd migrate:", err)
		return 1
	}
	_, _ = io.WriteString(stdout, text)
	return 0
}
