// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/realserver"
	"github.com/llamastack/llsd/internal/testsupport/servercheck"
	"github.com/llamastack/llsd/pkg/api"
)

// The harness can fail: a config that the server's JSON Schema takes and the server refuses is
// refused by the real server in the test, at the config stage, and by the start-up oracle too.
// Each is a config llsd rendered (one that starts: the first case), with one line broken.
func TestTheRealServerRefusesABrokenConfig(t *testing.T) {
	const version = "1.3"
	servers := newRealServers(t)
	for _, tc := range []struct {
		reason        string
		replace, with string
		stage         realserver.Stage
	}{
		{reason: "the config as llsd rendered it starts", stage: realserver.StageServing},
		{reason: "a port that substitutes to a word: the schema takes the reference, the server wants a number",
			replace: "  port: 8321\n", with: "  port: ${env.LLSD_TEST_PORT:=eighty}\n", stage: realserver.StageConfig},
		{reason: "an access rule whose condition the server's parser refuses",
			replace: "server:\n", with: "server:\n  auth:\n    access_policy:\n      - permit: {actions: [read]}\n        when: user is sometimes owner\n", stage: realserver.StageConfig},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			t.Parallel()
			res := renderOnDebianStarter(t, version, "")
			config, dep := renderedServer(res)
			broken := string(config)
			if tc.replace != "" {
				require.Contains(t, broken, tc.replace)
				broken = strings.Replace(broken, tc.replace, tc.with, 1)
			}
			configMaps := configMapsOf(res)
			for _, cm := range configMaps {
				if _, ok := cm.Data[render.ConfigKey]; ok {
					cm.Data[render.ConfigKey] = broken
				}
			}
			problems, err := servercheck.CheckDeployment(version, []byte(broken), dep, api.ContainerName)
			require.NoError(t, err)
			assert.Equal(t, tc.stage == realserver.StageServing, len(problems) == 0, "the oracle judges as the server: %v", problems)

			pod, err := realserver.PodOf(version, dep, api.ContainerName, configMaps)
			require.NoError(t, err)
			outcome := servers.get(t, version).Start(t, realserver.NewNetwork(t), pod).Wait(startLimit)
			assert.Equal(t, tc.stage, outcome.Stage, "%s: %s\n%s", outcome.Where, outcome.Exception, outcome.Log)
		})
	}
}
