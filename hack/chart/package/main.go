// SPDX-License-Identifier: Apache-2.0

// Command package writes the release's Helm chart: charts/llsd-controller with the release's
// version and the controller's image by the digest images.sh built, as
// OUT/llsd-controller-<version>.tgz, and as the OCI artifact helm push makes of it, in the OCI
// layout OUT/oci/llsd-controller tagged with the chart's version: Helm's own client pushes it
// to a registry in this process and the layout keeps what it pushed, created at the commit's
// time (LLSD_COMMIT_DATE), so its digest is known before publishing and the same every build.
//
//	go run ./package CHART IMAGES REGISTRY VERSION OUT
package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	imagespec "github.com/opencontainers/image-spec/specs-go/v1"
	commonutil "helm.sh/helm/v4/pkg/chart/common/util"
	"helm.sh/helm/v4/pkg/chart/v2/loader"
	chartutil "helm.sh/helm/v4/pkg/chart/v2/util"
	helmregistry "helm.sh/helm/v4/pkg/registry"
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
	if err := commonutil.ValidateAgainstSchema(chart, chart.Values); err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	path, err := chartutil.Save(chart, out)
	if err != nil {
		return err
	}
	created := os.Getenv("LLSD_COMMIT_DATE")
	if err := stamp(path, created); err != nil {
		return err
	}
	digest, err = ociLayout(path, filepath.Join(out, "oci", chart.Metadata.Name), chart.Metadata.Name, chart.Metadata.Version, created)
	if err == nil {
		fmt.Println(path, digest)
	}
	return err
}

// stamp gives every file of the chart archive at path the time created (RFC 3339), in place of
// the time of the build that Helm's Save writes, so that one commit gives one archive.
func stamp(path, created string) error {
	if created == "" {
		return nil // a build outside the release: Save's times stand
	}
	when, err := time.Parse(time.RFC3339, created)
	if err != nil {
		return fmt.Errorf("LLSD_COMMIT_DATE: %w", err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	in, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zipped := gzip.NewWriter(&buf)
	archive := tar.NewWriter(zipped)
	entries := tar.NewReader(in)
	for {
		header, err := entries.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		header.ModTime = when.UTC()
		if err := archive.WriteHeader(header); err != nil {
			return err
		}
		if _, err := io.Copy(archive, entries); err != nil {
			return err
		}
	}
	if err := archive.Close(); err != nil {
		return err
	}
	if err := zipped.Close(); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// ociLayout writes the chart archive at path as helm push makes it an OCI artifact, into the
// OCI layout dir tagged version, and returns the artifact's digest. created is the artifact's
// creation time (RFC 3339; helm push takes the time of the push when it is empty).
func ociLayout(path, dir, chartName, version, created string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	server := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	defer server.Close()
	ref := strings.TrimPrefix(server.URL, "http://") + "/charts/" + chartName + ":" + version
	client, err := helmregistry.NewClient(helmregistry.ClientOptPlainHTTP(), helmregistry.ClientOptWriter(io.Discard))
	if err != nil {
		return "", err
	}
	if _, err := client.Push(data, ref, helmregistry.PushOptCreationTime(created)); err != nil {
		return "", err
	}
	pushed, err := name.ParseReference(ref, name.Insecure)
	if err != nil {
		return "", err
	}
	artifact, err := remote.Image(pushed)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	layoutPath, err := layout.Write(dir, empty.Index)
	if err != nil {
		return "", err
	}
	if err := layoutPath.AppendImage(artifact, layout.WithAnnotations(map[string]string{imagespec.AnnotationRefName: version})); err != nil {
		return "", err
	}
	digest, err := artifact.Digest()
	return digest.String(), err
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
