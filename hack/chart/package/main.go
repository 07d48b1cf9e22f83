// SPDX-License-Identifier: Apache-2.0

// Command package writes the release's Helm chart: charts/llsd-controller with the release's
// version and the controller's image by the digest images.sh built, as
// OUT/llsd-controller-<version>.tgz (helm push OUT/llsd-controller-<version>.tgz
// oci://<registry>/charts publishes it).
//
//	go run ./package CHART IMAGES REGISTRY VERSION OUT
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
)

func main() {
	if len(os.Args) != 6 {
		fmt.Fprintln(os.Stderr, "usage: package CHART IMAGES REGISTRY VERSION OUT")
		os.Exit(2)
	}
	if err := pack(os.Args[1], os.Args[2], os.Args[3], os.Args[4], os.Args[5]); err != nil {
		fmt.Fprintln(os.Stderr, "package:", err)
		os.Exit(1)
	}
}

func pack(dir, images, registry, version, out string) error {
	digest, err := controllerDigest(images)
	if err != nil {
		return err
	}
	chart, err := loader.Load(dir)
	if err != nil {
		return err
	}
	chart.Metadata.Version = chartVersion(version)
	chart.Metadata.AppVersion = version
	image, _ := chart.Values["image"].(map[string]any)
	image["repository"], image["digest"] = registry+"/llsd-controller", digest
	// The values file is what helm show values prints and what installs read: write it back.
	for _, f := range chart.Raw {
		if f.Name == chartutil.ValuesfileName {
			f.Data = []byte(strings.Replace(strings.Replace(string(f.Data),
				"repository: ghcr.io/llamastack/llsd-controller", "repository: "+registry+"/llsd-controller", 1),
				`digest: ""`, "digest: "+digest, 1))
		}
	}
	if err := chartutil.ValidateAgainstSchema(chart, chart.Values); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	path, err := chartutil.Save(chart, out)
	if err == nil {
		fmt.Println(path)
	}
	return err
}

// semver is a SemVer 2 version, as a chart's must be.
var semver = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$`)

// chartVersion is the chart's version of a release version: v0.4.0 is 0.4.0; a build from a
// commit without a tag (git describe gives 3984ce9) is 0.0.0-3984ce9.
func chartVersion(version string) string {
	if v := strings.TrimPrefix(version, "v"); semver.MatchString(v) {
		return v
	}
	return "0.0.0-" + version
}

// controllerDigest is llsd-controller's digest in images.sh's output.
func controllerDigest(images string) (string, error) {
	f, err := os.Open(images)
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if name, digest, ok := strings.Cut(sc.Text(), " "); ok && name == "llsd-controller" && strings.HasPrefix(digest, "sha256:") {
			return digest, nil
		}
	}
	return "", fmt.Errorf("%s names no llsd-controller digest", images)
}
