// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
)

// The docs' recipes: every LlamaStackDistribution the guides show whole (one that decodes and
// renders by itself) runs on the real server of the version it targets.
func TestTheRealServerRunsTheDocsRecipes(t *testing.T) {
	servers := newRealServers(t)
	guides, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	require.NoError(t, err)
	t.Run("recipes", func(t *testing.T) {
		for _, guide := range guides {
			data, err := os.ReadFile(guide)
			require.NoError(t, err)
			for i, m := range yamlBlock.FindAllStringSubmatch(string(data), -1) {
				if !strings.Contains(m[1], "kind: LlamaStackDistribution") {
					continue
				}
				obj, errs := api.Decode([]byte(m[1]))
				if len(errs) > 0 {
					continue // a part of a spec, shown with ... where the rest goes
				}
				res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "test"})
				if len(errs) > 0 {
					continue // a recipe that needs more than itself (a ConfigMap, render options)
				}
				config, dep := renderedServer(res)
				version := res.LLSD.Annotations[api.AnnotationServerVersion]
				if config == nil || serverArchives[version] == "" {
					continue
				}
				t.Run(fmt.Sprintf("%s#%d", filepath.Base(guide), i), func(t *testing.T) {
					t.Parallel()
					servers.judge(t, filepath.Base(guide), version, dep, configMapsOf(res))
				})
			}
		}
	})
	table, judged := servers.table()
	assert.NotZero(t, judged, "the guides show recipes that render")
	t.Log("\n" + table)
}
