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
Ingress. Each field the other API cannot say is a warning on stderr. Render options come from the
environment (LLSD_*), as for llsd render.
`

// migrateCommand prints the migrated documents of paths, or the errors that stop them.
func migrateCommand(paths []string, stdin io.Reader, stdout, stderr io.Writer) int {
	files, ok := inputFiles("migrate", paths, stderr)
	if !ok {
		return 2
	}
	var items fn.KubeObjects
	documents := 0
	failed := 0
	for _, file := range files {
		read, err := readItems(file, stdin, &documents)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", file.name, err)
			failed++
			continue
		}
		items = append(items, read...)
	}
	opts, err := krm.RenderOptions{}.WithEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "llsd migrate: with the render options of the environment: %v\n", err)
		return 1
	}
	out, results := migrate.Items(items, opts.PipelineOptions(version.Get()))
	failed += report(results, "", stderr)
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
