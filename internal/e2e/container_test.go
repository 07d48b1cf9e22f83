// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// imageName is the llsd image the container-mode tests build and run.
const imageName = "localhost/llsd:e2e"

var imageBuild struct {
	once sync.Once
	err  error
}

func podmanPath(t *testing.T) string {
	return toolOnPath(t, "PODMAN", "podman", "install podman and runc (apt-get install podman runc) or set PODMAN")
}

// llsdImage builds the image from the repository's Dockerfile as `make image` does: the
// build stage is replaced by the binary TestMain compiled (no golang image to pull here).
func llsdImage(t *testing.T) string {
	podman := podmanPath(t)
	imageBuild.once.Do(func() {
		context := filepath.Join(filepath.Dir(llsdBinary), "image")
		out := filepath.Join(context, "out")
		if imageBuild.err = os.MkdirAll(out, 0o755); imageBuild.err != nil {
			return
		}
		root := filepath.Join("..", "..")
		for src, dst := range map[string]string{llsdBinary: "llsd", filepath.Join(root, "hack", "image", "passwd"): "passwd"} {
			if imageBuild.err = copyFile(src, filepath.Join(out, dst)); imageBuild.err != nil {
				return
			}
		}
		build := exec.Command(podman, "build", "--quiet", "--build-context", "build="+context, "--target", "function",
			"-t", imageName, "-f", filepath.Join(root, "Dockerfile"), root)
		if output, err := build.CombinedOutput(); err != nil {
			imageBuild.err = fmt.Errorf("podman build: %w: %s", err, output)
			return
		}
		// The way kustomize and kpt start it: as nobody, without network.
		smoke := exec.Command(podman, "run", "--rm", "--network", "none", "--user", "nobody", imageName, "version")
		if output, err := smoke.CombinedOutput(); err != nil || !strings.HasPrefix(string(output), "llsd ") {
			imageBuild.err = fmt.Errorf("podman run %s version: %v: %s (in a sandbox without CAP_SYS_RESOURCE set "+
				"CONTAINERS_CONF=hack/image/containers.conf, as make test does)", imageName, err, output)
		}
	})
	require.NoError(t, imageBuild.err)
	return imageName
}

func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}

// dockerShim puts a `docker` that runs podman first on PATH: kustomize runs container
// functions with the docker CLI and knows no other runtime.
func dockerShim(t *testing.T, podman string) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"docker": "#!/bin/sh\nexec " + podman + " \"$@\"\n"})
	require.NoError(t, os.Chmod(filepath.Join(dir, "docker"), 0o755))
	t.Setenv("PATH", dir+":"+os.Getenv("PATH"))
}

func containerAnnotation(image string) string {
	return `  annotations:
    config.kubernetes.io/function: |
      container:
        image: ` + image + "\n"
}

// kustomize runs the image (as nobody, no network) and gets what `llsd render` gives.
func TestContainerKustomize(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	image := llsdImage(t)
	dockerShim(t, podmanPath(t))
	dir := t.TempDir()
	files := transformerFiles(`resources: [llsd.yaml]
transformers: [llsd-fn.yaml]
`)
	files["llsd-fn.yaml"] = `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata:
  name: llsd
` +
		containerAnnotation(image) + `    config.kubernetes.io/local-config: "true"
spec: {}
`
	writeFiles(t, dir, files)
	built := run(t, dir, kustomize, "build", "--enable-alpha-plugins", ".")
	assertSameObjects(t, objects(t, run(t, dir, llsdBinary, "render", filepath.Join(dir, "llsd.yaml"))), objects(t, built))
}

// kpt runs the image from a Kptfile (render) and from the command line (eval); both write
// what the exec function writes.
func TestContainerKpt(t *testing.T) {
	kpt := kptPath(t)
	image := llsdImage(t)
	t.Setenv("KPT_FN_RUNTIME", "podman")

	execPkg := kptPackage(t)
	run(t, execPkg, kpt, "fn", "render", "--allow-exec", ".")
	want := packageFiles(t, execPkg)

	imagePkg := kptPackage(t)
	kptfile := strings.Replace(packageFiles(t, imagePkg)["Kptfile"], "exec: "+llsdBinary, "image: "+image, 1)
	writeFiles(t, imagePkg, map[string]string{"Kptfile": kptfile})
	run(t, imagePkg, kpt, "fn", "render", "--image-pull-policy", "never", ".")
	got := packageFiles(t, imagePkg)
	delete(want, "Kptfile")
	delete(got, "Kptfile")
	require.Equal(t, want, got)

	evalPkg := kptPackage(t)
	out := objects(t, run(t, evalPkg, kpt, "fn", "eval", ".", "--image", image, "--image-pull-policy", "never", "-o", "unwrap"))
	delete(out, "Kptfile/stack") // -o unwrap includes local-config objects
	assertSameRender(t, objects(t, run(t, evalPkg, llsdBinary, "render", filepath.Join(evalPkg, "llsd.yaml"))), out)
}

// kpt fn doc runs the function image with --help: it prints the function's documentation in
// the catalog's sections, not the command line's usage.
func TestKptFnDoc(t *testing.T) {
	kpt := kptPath(t)
	image := llsdImage(t)
	t.Setenv("KPT_FN_RUNTIME", "podman")
	out := string(run(t, t.TempDir(), kpt, "fn", "doc", "--image", image))
	for _, section := range []string{"\nOverview\n", "\nUsage\n", "\nFunctionConfig\n", "\nExamples\n"} {
		assert.Contains(t, out, section)
	}
	assert.NotContains(t, out, "llsd turns short LlamaStackDistribution", "the command line's usage")
}

// The Argo CD plugin sidecar image is the function image with the plugin's configuration where
// argocd-cmp-server reads it: built from the Dockerfile's argocd-cmp target, it holds
// examples/argocd/plugin.yaml as it is, and runs llsd as Argo CD's user.
func TestArgoCDSidecarImage(t *testing.T) {
	podman := podmanPath(t)
	llsdImage(t) // the build context with the binary
	root := filepath.Join("..", "..")
	const sidecar = "localhost/llsd-argocd-cmp:e2e"
	context := filepath.Join(filepath.Dir(llsdBinary), "image")
	out, err := exec.Command(podman, "build", "--quiet", "--build-context", "build="+context, "--target", "argocd-cmp",
		"-t", sidecar, "-f", filepath.Join(root, "Dockerfile"), root).CombinedOutput()
	require.NoError(t, err, "%s", out)
	out, err = exec.Command(podman, "run", "--rm", "--network", "none", "--user", "999", sidecar, "version").CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.True(t, strings.HasPrefix(string(out), "llsd "), "%s", out)

	id, err := exec.Command(podman, "create", sidecar).Output()
	require.NoError(t, err)
	container := strings.TrimSpace(string(id))
	t.Cleanup(func() { _ = exec.Command(podman, "rm", container).Run() })
	dir := t.TempDir()
	out, err = exec.Command(podman, "cp", container+":/home/argocd/cmp-server/config/plugin.yaml", dir).CombinedOutput()
	require.NoError(t, err, "%s", out)
	got, err := os.ReadFile(filepath.Join(dir, "plugin.yaml"))
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join(root, "examples", "argocd", "plugin.yaml"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
}
