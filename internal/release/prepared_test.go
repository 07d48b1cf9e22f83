// SPDX-License-Identifier: Apache-2.0

package release_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/release"
)

// What users copy from the repository (guides, examples, the catalog entry) names llsd's images
// by the release the tree prepares, by digest or by a placeholder: never latest or dev, which
// run whatever was built last, nor a release the chart does not name.
func TestWhatUsersCopyNamesTheRelease(t *testing.T) {
	root := filepath.Join("..", "..")
	prepared, err := release.Prepared(root)
	require.NoError(t, err)
	refs, err := release.References(root)
	require.NoError(t, err)
	require.NotEmpty(t, refs)
	for _, r := range refs {
		assert.True(t, r.NamesARelease(prepared), "%s names no release: use %s (the chart's appVersion), a digest or <release>", r, prepared)
	}
}

func TestNamesARelease(t *testing.T) {
	for _, tc := range []struct {
		reason string
		ref    release.Reference
		want   bool
	}{
		{reason: "the prepared release", ref: release.Reference{Separator: ":", Tag: "v0.3.0"}, want: true},
		{reason: "a digest", ref: release.Reference{Separator: "@", Tag: "sha256:0123"}, want: true},
		{reason: "a moving major tag", ref: release.Reference{Separator: ":", Tag: "v1"}, want: true},
		{reason: "a moving minor tag", ref: release.Reference{Separator: ":", Tag: "v0.3"}, want: true},
		{reason: "a placeholder", ref: release.Reference{Separator: ":", Tag: "<release>"}, want: true},
		{reason: "latest runs whatever was pushed last", ref: release.Reference{Separator: ":", Tag: "latest"}},
		{reason: "dev is a local build", ref: release.Reference{Separator: ":", Tag: "dev"}},
		{reason: "another release than the chart's", ref: release.Reference{Separator: ":", Tag: "v0.2.0"}},
		{reason: "a file of the prepared release", ref: release.Reference{Separator: "/", Tag: "v0.3.0"}, want: true},
		{reason: "a file of a moving tag: GitHub has none", ref: release.Reference{Separator: "/", Tag: "v0"}},
		{reason: "the chart of the prepared release", ref: release.Reference{Separator: " --version ", Tag: "0.3.0"}, want: true},
		{reason: "the chart by the image's version", ref: release.Reference{Separator: " --version ", Tag: "v0.3.0"}},
	} {
		assert.Equal(t, tc.want, tc.ref.NamesARelease("v0.3.0"), tc.reason)
	}
}

// Preparing a release rewrites the chart's versions and every reference to the release prepared
// before, and nothing else.
func TestPrepare(t *testing.T) {
	root := t.TempDir()
	write(t, root, release.ChartFile, "apiVersion: v2\nname: llsd-controller\nversion: 0.1.0\nappVersion: v0.1.0\n")
	write(t, root, "examples/install/controller.yaml", "image: ghcr.io/llamastack/llsd-controller:v0.1.0\n# not ghcr.io/llamastack/llsd:v1\n")
	write(t, root, "docs/install.md", "kubectl apply -f https://github.com/llamastack/llsd/releases/download/v0.1.0/install.yaml # ghcr.io/llamastack/llsd:<release>\n"+
		"helm install llsd oci://ghcr.io/llamastack/charts/llsd-controller --version 0.1.0 # not v0.1.0 of another project\n"+
		"curl https://github.com/llamastack/llsd/releases/download/v0.1.0/llsd_v0.1.0_linux_amd64.tar.gz\n")
	require.NoError(t, release.Prepare(root, "v0.2.0"))
	prepared, err := release.Prepared(root)
	require.NoError(t, err)
	assert.Equal(t, "v0.2.0", prepared)
	assert.Equal(t, "apiVersion: v2\nname: llsd-controller\nversion: 0.2.0\nappVersion: v0.2.0\n", read(t, root, release.ChartFile))
	assert.Equal(t, "image: ghcr.io/llamastack/llsd-controller:v0.2.0\n# not ghcr.io/llamastack/llsd:v1\n", read(t, root, "examples/install/controller.yaml"))
	assert.Equal(t, "kubectl apply -f https://github.com/llamastack/llsd/releases/download/v0.2.0/install.yaml # ghcr.io/llamastack/llsd:<release>\n"+
		"helm install llsd oci://ghcr.io/llamastack/charts/llsd-controller --version 0.2.0 # not v0.1.0 of another project\n"+
		"curl https://github.com/llamastack/llsd/releases/download/v0.2.0/llsd_v0.2.0_linux_amd64.tar.gz\n", read(t, root, "docs/install.md"),
		"the release's files and chart too, and nothing else")
	assert.ErrorContains(t, release.Prepare(root, "0.3"), "vX.Y.Z")
}

func write(t *testing.T, root, name, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o644))
}

func read(t *testing.T, root, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, name))
	require.NoError(t, err)
	return string(data)
}
