// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// The public files: every corpus file that renders, as written or with its fix, runs on the
// real server of the version it targets, and gets past loading, validating and checking its
// config (TestWildLLSDs holds what llsd says of each).
func TestTheRealServerRunsThePublicFiles(t *testing.T) {
	dir := testenv.Shared(t, "wild-llsd")
	servers := newRealServers(t)
	t.Run("files", func(t *testing.T) {
		for _, in := range readWildCorpus(t).Inputs {
			data, err := os.ReadFile(filepath.Join(dir, in.File))
			require.NoError(t, err)
			got := renderWild(t, data, nil)
			if len(in.Errors) > 0 {
				got = renderFixed(t, data, in)
			}
			if len(got.errors) > 0 {
				continue
			}
			for _, s := range renderedServers(t, got.items) {
				if s.config == nil || serverArchives[s.version] == "" {
					continue // the user's own config; a server not among the archives (rh-dev's builds)
				}
				t.Run(in.File+"#"+s.name, func(t *testing.T) {
					t.Parallel()
					servers.judge(t, in.File, s.version, s.dep, configMapsOfItems(t, got.items))
				})
			}
		}
	})
	table, _ := servers.table()
	t.Log("\n" + table)
}

// configMapsOfItems are the ConfigMaps among rendered objects, by name.
func configMapsOfItems(t *testing.T, items fn.KubeObjects) map[string]*corev1.ConfigMap {
	out := map[string]*corev1.ConfigMap{}
	for _, o := range items {
		if o.GetKind() != "ConfigMap" {
			continue
		}
		var cm corev1.ConfigMap
		require.NoError(t, yaml.Unmarshal([]byte(o.String()), &cm))
		out[cm.Name] = &cm
	}
	return out
}
