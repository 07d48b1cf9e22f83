// SPDX-License-Identifier: Apache-2.0

package cli_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
)

func TestLabelImageUsage(t *testing.T) {
	for _, tc := range []struct {
		reason string
		args   []string
		code   int
		stderr string
	}{
		{reason: "help is not an error", args: []string{"label-image", "--help"}, code: 0, stderr: "Usage: llsd label-image [flags] SRC DST"},
		{reason: "two images are needed", args: []string{"label-image", "only-one"}, code: 2, stderr: "Usage: llsd label-image"},
		{reason: "a server version must be a version", args: []string{"label-image", "--server-version", "2", "a", "b"}, code: 2,
			stderr: `--server-version "2" is not a version such as 0.7.1`},
		{reason: "an unreachable source says so", args: []string{"label-image", "127.0.0.1:1/acme/x:1", "127.0.0.1:1/acme/x:2"}, code: 1,
			stderr: "cannot reach the registry of 127.0.0.1:1/acme/x:1"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			code, stdout, stderr := run(t, tc.args...)
			assert.Equal(t, tc.code, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, tc.stderr)
		})
	}
}

// `llsd render` reads labels when the platform's LLSD_REGISTRY_ENABLED says so; an Application's
// ARGOCD_ENV_ form of it is refused.
func TestRenderWithRegistryFromTheEnvironment(t *testing.T) {
	reg := registrytest.New(t)
	data, err := distributions.FS.ReadFile("starter/0.6.yaml")
	assert.NoError(t, err)
	config := strings.Replace(string(data), "distro_name: starter", "distro_name: acme", 1)
	image := reg.Push(t, "acme/llama:0.6.0", registrytest.Image(t, map[string]string{oci.LabelBase64: base64.StdEncoding.EncodeToString([]byte(config))}, nil))
	dir := t.TempDir()
	writeFile(t, dir, "stack.yaml", strings.Replace(stack, "distribution: {name: starter}", "distribution: {image: \""+image+"\"}", 1))
	t.Setenv("LLSD_CACHE_DIR", t.TempDir())

	code, out, _ := run(t, "render", dir)
	assert.Equal(t, 1, code, "offline by default")
	assert.Empty(t, out)
	assert.Zero(t, reg.Requests(""))

	t.Setenv("ARGOCD_ENV_LLSD_REGISTRY_ENABLED", "true")
	code, out, stderr := run(t, "render", dir)
	assert.Equal(t, 1, code, "an Application's plugin env does not turn registry reads on")
	assert.Empty(t, out)
	assert.Contains(t, stderr, "ARGOCD_ENV_LLSD_REGISTRY_ENABLED: LLSD_REGISTRY_ENABLED is the platform's to set")

	t.Setenv("ARGOCD_ENV_LLSD_REGISTRY_ENABLED", "")
	t.Setenv("LLSD_REGISTRY_ENABLED", "true")
	code, out, stderr = run(t, "render", dir)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "distro_name: acme")
	assert.Contains(t, out, `llamastack.io/server-version: "0.6"`)

	t.Setenv("LLSD_REGISTRY_ENABLED", "yes please")
	code, _, stderr = run(t, "render", dir)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, `LLSD_REGISTRY_ENABLED: "yes please" is not true or false`)
}
