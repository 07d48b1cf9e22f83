// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// optionsDocument is a RenderOptions document as a package holds it, beside its LLSD.
const optionsDocument = `apiVersion: fn.llamastack.io/v1alpha1
kind: RenderOptions
metadata: {name: options}
spec:
  ingress: {className: nginx, domain: apps.example.com}
`

// A RenderOptions document among a package's files means one thing in every front end: llsd
// render, kpt (a file of the package) and kustomize (listed under resources) apply it as the
// function config, and none of them outputs it as an object to apply.
func TestRenderOptionsMeanOneThingInEveryFrontEnd(t *testing.T) {
	kustomize := tool(t, "KUSTOMIZE", kustomizeHow)
	kpt := kptPath(t)
	llsd := strings.Replace(fmt.Sprintf(stackLLSD, ""), "spec:\n", "spec:\n  networking: {expose: {}}\n", 1)

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"llsd.yaml": llsd, "options.yaml": optionsDocument})
	rendered := objects(t, run(t, dir, llsdBinary, "render", dir))
	ingress := rendered["Ingress/demo-ingress"]
	require.NotNil(t, ingress, "the options' domain gives the Ingress its host")
	assert.Contains(t, fmt.Sprint(ingress), "demo.ai.apps.example.com")
	assert.Contains(t, fmt.Sprint(ingress), "nginx")

	kustomized := t.TempDir()
	files := transformerFiles("resources: [llsd.yaml, options.yaml]\ntransformers: [llsd-fn.yaml]\n")
	files["llsd.yaml"], files["options.yaml"] = llsd, optionsDocument
	files["llsd-fn.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: llsd\n" + functionAnnotation() +
		"    config.kubernetes.io/local-config: \"true\"\n"
	writeFiles(t, kustomized, files)
	built := objects(t, run(t, kustomized, kustomize, "build", "--enable-alpha-plugins", "--enable-exec", "."))
	assertSameObjects(t, rendered, built)

	pkg := kptPackageOf(t, llsd)
	writeFiles(t, pkg, map[string]string{"options.yaml": optionsDocument})
	run(t, pkg, kpt, "fn", "render", "--allow-exec", ".")
	written := packageFiles(t, pkg)
	assert.Contains(t, written["options.yaml"], "config.kubernetes.io/local-config", "kpt keeps the file, marked as no object to apply")
	assertSameRender(t, rendered, objects(t, []byte(written["llsd.yaml"]+"\n---\n"+written["demo.generated.yaml"])))
}
