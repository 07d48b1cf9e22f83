// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
)

// A custom distribution image, built the way llama-stack builds its images: DISTRO_NAME in
// the env, the distribution's config.yaml and the package's dist-info in site-packages.
func customDistroImage(t *testing.T) v1.Image {
	base, err := distributions.FS.ReadFile("starter/0.7.yaml")
	require.NoError(t, err)
	config := strings.Replace(string(base), "distro_name: starter", "distro_name: acme", 1)
	site := "usr/local/lib/python3.12/site-packages/"
	return registrytest.ImageWithConfig(t, v1.Config{Env: []string{"DISTRO_NAME=acme"}}, map[string]string{
		site + "llama_stack/distributions/acme/config.yaml": config,
		site + "llama_stack-0.7.1.dist-info/METADATA": `Name: llama_stack
Version: 0.7.1
`,
	})
}

// The user story of custom images: label the image once with `llsd label-image`, then
// `kustomize build` with registry access renders it; the second build asks the registry
// nothing for a digest-pinned image.
func TestLabelledCustomImageThroughKustomize(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	reg := registrytest.New(t)
	src := reg.Push(t, "acme/llama-stack:build", customDistroImage(t))
	out := run(t, "", llsdBinary, "label-image", src, reg.Host+"/acme/llama-stack:1.0")
	pinned := strings.SplitN(string(out), "\n", 2)[0]
	require.Contains(t, pinned, reg.Host+"/acme/llama-stack@sha256:")
	assert.Contains(t, string(out), "llama-stack 0.7.1")

	t.Setenv("LLSD_CACHE_DIR", t.TempDir())
	dir := t.TempDir()
	files := transformerFiles(`resources: [llsd.yaml]
transformers: [llsd-fn.yaml]
`)
	files["llsd.yaml"] = strings.Replace(files["llsd.yaml"], "distribution: {name: starter}",
		fmt.Sprintf("distribution: {image: %q}", pinned), 1)
	files["llsd-fn.yaml"] = strings.Replace(files["llsd-fn.yaml"], "spec: {}", "spec: {registry: {enabled: true}}", 1)
	writeFiles(t, dir, files)

	reg.Reset()
	first := run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", ".")
	assert.Positive(t, reg.Requests(""))
	built := objects(t, first)
	require.Contains(t, built, "Deployment/demo")
	assert.Contains(t, string(first), "distro_name: acme", "the config is the image's own")
	assert.Contains(t, string(first), `llamastack.io/server-version: "0.7"`)

	reg.Reset()
	second := run(t, dir, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", ".")
	assert.Zero(t, reg.Requests(""), "the second render is served by the cache")
	assert.Equal(t, string(first), string(second))

	var entries []string
	cache := os.Getenv("LLSD_CACHE_DIR")
	require.NoError(t, filepath.WalkDir(cache, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			entries = append(entries, filepath.ToSlash(strings.TrimPrefix(path, cache+string(filepath.Separator))))
		}
		return err
	}))
	require.Len(t, entries, 1, "one cache entry: the image's labels, by repository and digest")
	digest := strings.SplitN(pinned, "@", 2)[1]
	assert.Regexp(t, `^labels/[0-9a-f]{64}/`+regexp.QuoteMeta(strings.ReplaceAll(digest, ":", "-"))+`\.json$`, entries[0])
}

// Without registry access the same LLSD fails with the message that says what to do, and
// the registry sees nothing.
func TestCustomImageOffline(t *testing.T) {
	reg := registrytest.New(t)
	src := reg.Push(t, "acme/llama-stack:1.0", customDistroImage(t))
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"llsd.yaml": strings.Replace(fmt.Sprintf(stackLLSD, ""), "distribution: {name: starter}",
		fmt.Sprintf("distribution: {image: %q}", src), 1)})
	cmd := runFailing(t, dir, llsdBinary, "render", "llsd.yaml")
	assert.Contains(t, cmd, "label the image (`llsd label-image`) and render with RenderOptions spec.registry.enabled: true")
	assert.Zero(t, reg.Requests(""))
}
