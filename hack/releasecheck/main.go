// SPDX-License-Identifier: Apache-2.0

// releasecheck checks what make release-snapshot wrote into a dist directory, and fails on the
// first thing a release would be missing:
//
//   - an archive of llsd and of llsd-controller for linux and darwin on amd64 and arm64, each
//     holding its binary, with a CycloneDX SBOM of that binary beside it;
//   - SHA256SUMS naming every archive and SBOM with its true checksum;
//   - each image (llsd, llsd-controller) as one manifest list of linux/amd64 and linux/arm64;
//   - install.yaml and argocd-repo-server-patch.yaml naming those images by their digests.
//
// It then writes DIST/release.sha256, the checksums of the binaries and the images' digests,
// which make release-reproducible compares between two builds. Usage: releasecheck DIST
package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/release"
)

var (
	binaries = []string{"llsd", "llsd-controller"}
	// images are the release's images: the function, the controller, the Argo CD plugin sidecar.
	images    = []string{"llsd", "llsd-controller", "llsd-argocd-cmp"}
	platforms = []string{"linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64"}
)

func main() {
	if len(os.Args) == 3 && os.Args[1] == "tags" { // the tags images.sh gives a version's images
		fmt.Println(strings.Join(release.Tags(os.Args[2]), "\n"))
		return
	}
	if len(os.Args) == 3 && os.Args[1] == "prepare" { // make prepare-release RELEASE=vX.Y.Z
		if err := release.Prepare(".", os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "releasecheck:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: releasecheck DIST | releasecheck tags VERSION | releasecheck prepare VERSION")
		os.Exit(2)
	}
	if err := check(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "releasecheck:", err)
		os.Exit(1)
	}
}

func check(dist string) error {
	version, err := version(dist)
	if err != nil {
		return err
	}
	if err := checkPrepared(version); err != nil {
		return err
	}
	sums, err := checksums(dist)
	if err != nil {
		return err
	}
	var record []string
	for _, bin := range binaries {
		for _, platform := range platforms {
			line, err := checkArtifact(dist, bin, version, platform, sums)
			if err != nil {
				return err
			}
			record = append(record, line)
		}
	}
	digests, err := checkImages(dist, version)
	if err != nil {
		return err
	}
	for _, name := range images {
		record = append(record, digests[name]+"  image "+name)
	}
	if err := checkBundle(filepath.Join(dist, "install.yaml"), "llsd-controller", digests); err != nil {
		return err
	}
	if err := checkBundle(filepath.Join(dist, "argocd-repo-server-patch.yaml"), "llsd-argocd-cmp", digests); err != nil {
		return err
	}
	chart, err := checkChart(dist, version, digests["llsd-controller"])
	if err != nil {
		return err
	}
	record = append(record, chart.Digest+"  chart "+release.ChartName)
	if err := checkOLMBundle(dist, digests["llsd-controller"]); err != nil {
		return err
	}
	if err := checkOLMImages(dist, version, digests); err != nil {
		return err
	}
	for _, name := range []string{release.BundleImage, release.CatalogImage} {
		record = append(record, digests[name]+"  image "+name)
	}
	if err := checkSignatures(dist, digests); err != nil {
		return err
	}
	if err := checkSchemas(dist); err != nil {
		return err
	}
	fmt.Printf("releasecheck: %s: %d archives with SBOMs, SHA256SUMS, 3 two-architecture images, install bundle, Helm chart (archive and OCI artifact), OLM bundle by digest and its bundle and catalog images, JSON Schemas; signatures, provenance and SBOM attestations verified\n", version, len(binaries)*len(platforms))
	return os.WriteFile(filepath.Join(dist, "release.sha256"), []byte(strings.Join(record, "\n")+"\n"), 0o644)
}

// checkPrepared refuses a release (vX.Y.Z) the tree does not prepare: its chart's default image,
// examples and docs would name another release than the one published.
func checkPrepared(version string) error {
	if len(release.Tags(version)) == 1 {
		return nil // a snapshot or pre-release: the tree prepares the next release
	}
	prepared, err := release.Prepared(".")
	if err != nil {
		return err
	}
	if prepared != version {
		return fmt.Errorf("the tag is %s but the tree prepares %s (%s): run make prepare-release RELEASE=%s, commit, and tag that commit", version, prepared, release.ChartFile, version)
	}
	return nil
}

// checkSchemas wants the release's JSON Schemas to be the repository's, which make verify holds
// to the CRD and the RenderOptions type.
func checkSchemas(dist string) error {
	files, err := filepath.Glob(filepath.Join("schemas", "*.json"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return errors.New("the repository has no schemas/*.json: run make generate")
	}
	for _, f := range files {
		want, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		got, err := os.ReadFile(filepath.Join(dist, f))
		if err != nil {
			return err
		}
		if !bytes.Equal(want, got) {
			return fmt.Errorf("%s differs from the repository's %s", filepath.Join(dist, f), f)
		}
	}
	return nil
}

func version(dist string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		return "", err
	}
	var m struct{ Version string }
	if err := json.Unmarshal(data, &m); err != nil || m.Version == "" {
		return "", fmt.Errorf("%s/metadata.json names no version", dist)
	}
	return m.Version, nil
}

// checksums reads SHA256SUMS and holds every file it names to its sum.
func checksums(dist string) (map[string]string, error) {
	f, err := os.Open(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sums := map[string]string{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		sum, name, ok := strings.Cut(lines.Text(), "  ")
		if !ok {
			return nil, fmt.Errorf("SHA256SUMS: not <sum>  <file>: %q", lines.Text())
		}
		got, err := release.FileSHA256(filepath.Join(dist, name))
		if err != nil {
			return nil, err
		}
		if got != sum {
			return nil, fmt.Errorf("SHA256SUMS: %s is %s, not %s", name, got, sum)
		}
		sums[name] = sum
	}
	return sums, lines.Err()
}

// checkArtifact checks one binary's archive and SBOM; it returns the binary's checksum line.
func checkArtifact(dist, bin, version, platform string, sums map[string]string) (string, error) {
	archive := fmt.Sprintf("%s_%s_%s.tar.gz", bin, version, platform)
	sbom := fmt.Sprintf("%s_%s_%s.cdx.json", bin, version, platform)
	for _, name := range []string{archive, sbom} {
		if sums[name] == "" {
			return "", fmt.Errorf("SHA256SUMS does not name %s", name)
		}
	}
	binary, err := fileInArchive(filepath.Join(dist, archive), bin)
	if err != nil {
		return "", err
	}
	if err := checkSBOM(filepath.Join(dist, sbom)); err != nil {
		return "", err
	}
	sum := sha256.Sum256(binary)
	return hex.EncodeToString(sum[:]) + "  " + bin + "_" + platform, nil
}

func fileInArchive(path, name string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s holds no %s", path, name)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if h.Name == name {
			return io.ReadAll(tr)
		}
	}
}

func checkSBOM(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var bom struct {
		BOMFormat  string           `json:"bomFormat"`
		Components []map[string]any `json:"components"`
	}
	if err := json.Unmarshal(data, &bom); err != nil || bom.BOMFormat != "CycloneDX" || len(bom.Components) == 0 {
		return fmt.Errorf("%s is no CycloneDX SBOM with components", path)
	}
	return nil
}

// checkImages reads each image's OCI layout: one manifest list of linux/amd64 and linux/arm64.
func checkImages(dist, version string) (map[string]string, error) {
	digests := map[string]string{}
	for _, name := range images {
		digest, err := checkIndex(dist, filepath.Join("images", name), name, version)
		if err != nil {
			return nil, err
		}
		digests[name] = digest
	}
	return digests, nil
}

// checkIndex holds the layout dir to a two-architecture image tagged with every tag of the
// version, and returns its digest.
func checkIndex(dist, dir, name, version string) (string, error) {
	path, err := layout.FromPath(filepath.Join(dist, dir))
	if err != nil {
		return "", fmt.Errorf("image %s: %w", name, err)
	}
	top, err := path.ImageIndex()
	if err != nil {
		return "", err
	}
	manifest, err := top.IndexManifest()
	if err != nil {
		return "", err
	}
	// the image under the release's version; its signature and attestation beside it
	at := slices.IndexFunc(manifest.Manifests, func(d v1.Descriptor) bool { return d.Annotations[release.RefNameAnnotation] == version })
	if at < 0 {
		return "", fmt.Errorf("image %s: the layout holds no image tagged %s", name, version)
	}
	for _, tag := range release.Tags(version)[1:] {
		if !slices.ContainsFunc(manifest.Manifests, func(d v1.Descriptor) bool {
			return d.Annotations[release.RefNameAnnotation] == tag && d.Digest == manifest.Manifests[at].Digest
		}) {
			return "", fmt.Errorf("image %s: the layout holds no tag %s of %s, which release %s moves", name, tag, manifest.Manifests[at].Digest, version)
		}
	}
	list, err := top.ImageIndex(manifest.Manifests[at].Digest)
	if err != nil {
		return "", fmt.Errorf("image %s: %w", name, err)
	}
	listManifest, err := list.IndexManifest()
	if err != nil {
		return "", err
	}
	var got []string
	for _, m := range listManifest.Manifests {
		if m.Platform != nil {
			got = append(got, m.Platform.OS+"/"+m.Platform.Architecture)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, []string{"linux/amd64", "linux/arm64"}) {
		return "", fmt.Errorf("image %s:%s is for %v, want linux/amd64 and linux/arm64", name, version, got)
	}
	return manifest.Manifests[at].Digest.String(), nil
}

// checkOLMImages holds the OLM bundle and catalog images to their layouts (two architectures,
// the version's tags) and the catalog to the bundle image by its digest, and adds their
// digests.
func checkOLMImages(dist, version string, digests map[string]string) error {
	olm, err := release.OLMImages(dist)
	if err != nil {
		return err
	}
	for _, img := range olm {
		digest, err := checkIndex(dist, img.Layout, img.Name, version)
		if err != nil {
			return err
		}
		if digest != img.Digest {
			return fmt.Errorf("olm/images.txt names %s %s, its layout %s", img.Name, img.Digest, digest)
		}
		digests[img.Name] = digest
	}
	catalog, err := catalogFile(dist, olm[1], version)
	if err != nil {
		return err
	}
	if want := "image: " + olm[0].Reference(); !strings.Contains(catalog, want) {
		return fmt.Errorf("the catalog's bundle is not %s", olm[0].Reference())
	}
	return nil
}

// catalogFile is configs/llsd/catalog.yaml of the catalog image's linux/amd64 image.
func catalogFile(dist string, img release.Image, version string) (string, error) {
	path, err := layout.FromPath(filepath.Join(dist, img.Layout))
	if err != nil {
		return "", err
	}
	top, err := path.ImageIndex()
	if err != nil {
		return "", err
	}
	hash, err := v1.NewHash(img.Digest)
	if err != nil {
		return "", err
	}
	list, err := top.ImageIndex(hash)
	if err != nil {
		return "", err
	}
	m, err := list.IndexManifest()
	if err != nil {
		return "", err
	}
	image, err := list.Image(m.Manifests[0].Digest)
	if err != nil {
		return "", err
	}
	layers, err := image.Layers()
	if err != nil {
		return "", err
	}
	if len(layers) != 1 {
		return "", fmt.Errorf("catalog %s: %d layers, not one", version, len(layers))
	}
	r, err := layers[0].Uncompressed()
	if err != nil {
		return "", err
	}
	defer r.Close()
	files := tar.NewReader(r)
	for {
		h, err := files.Next()
		if errors.Is(err, io.EOF) {
			return "", fmt.Errorf("catalog %s holds no configs/llsd/catalog.yaml", version)
		}
		if err != nil {
			return "", err
		}
		if h.Name == "configs/llsd/catalog.yaml" {
			data, err := io.ReadAll(files)
			return string(data), err
		}
	}
}

// checkBundle wants every container of the file to run image name by its digest.
func checkBundle(path, name string, digests map[string]string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	found := 0
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		spec, _ := obj["spec"].(map[string]any)
		template, _ := spec["template"].(map[string]any)
		podSpec, _ := template["spec"].(map[string]any)
		containers, _ := podSpec["containers"].([]any)
		for _, c := range containers {
			image, _ := c.(map[string]any)["image"].(string)
			if !strings.HasSuffix(image, "/"+name+"@"+digests[name]) {
				return fmt.Errorf("%s runs %s, not %s by its digest %s", path, image, name, digests[name])
			}
			found++
		}
	}
	if found == 0 {
		return fmt.Errorf("%s runs no container", path)
	}
	return nil
}

// checkChart wants the release's Helm chart at its version, installing the controller by its
// digest, and its OCI artifact; it returns the artifact.
func checkChart(dist, version, digest string) (release.Image, error) {
	path, _, err := release.ChartArchive(dist)
	if err != nil {
		return release.Image{}, err
	}
	chart, err := fileInArchive(path, "llsd-controller/Chart.yaml")
	if err != nil {
		return release.Image{}, err
	}
	values, err := fileInArchive(path, "llsd-controller/values.yaml")
	if err != nil {
		return release.Image{}, err
	}
	// Read as YAML: a version that YAML would take for a number (a commit 93703e9, 93703 x 10^9)
	// is written quoted.
	var meta struct {
		AppVersion string `json:"appVersion"`
	}
	if err := yaml.Unmarshal(chart, &meta); err != nil || meta.AppVersion != version {
		return release.Image{}, fmt.Errorf("%s: Chart.yaml is not of version %s", path, version)
	}
	if !bytes.Contains(values, []byte("digest: "+digest)) {
		return release.Image{}, fmt.Errorf("%s: values.yaml does not install llsd-controller by its digest %s", path, digest)
	}
	return checkChartArtifact(dist, path)
}

// Media types of a Helm chart as an OCI artifact (helm.sh/helm/v4/pkg/registry).
const (
	helmConfigMediaType = "application/vnd.cncf.helm.config.v1+json"
	helmChartMediaType  = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"
)

// checkChartArtifact wants the chart archive as the OCI artifact helm push makes of it, in the
// layout dist/charts/oci/llsd-controller, tagged with the chart's version.
func checkChartArtifact(dist, archive string) (release.Image, error) {
	data, err := os.ReadFile(archive)
	if err != nil {
		return release.Image{}, err
	}
	chart, err := release.Chart(dist)
	if err != nil {
		return release.Image{}, err
	}
	path, err := layout.FromPath(filepath.Join(dist, chart.Layout))
	if err != nil {
		return release.Image{}, err
	}
	digest, err := v1.NewHash(chart.Digest)
	if err != nil {
		return release.Image{}, err
	}
	artifact, err := path.Image(digest)
	if err != nil {
		return release.Image{}, err
	}
	manifest, err := artifact.Manifest()
	if err != nil {
		return release.Image{}, err
	}
	sum := sha256.Sum256(data)
	if string(manifest.Config.MediaType) != helmConfigMediaType || len(manifest.Layers) != 1 ||
		string(manifest.Layers[0].MediaType) != helmChartMediaType || manifest.Layers[0].Digest.Hex != hex.EncodeToString(sum[:]) {
		return release.Image{}, fmt.Errorf("the chart's OCI artifact is not %s as helm push makes it", filepath.Base(archive))
	}
	return chart, nil
}

// checkOLMBundle wants the OLM bundle's CSV to run the controller, and list it in
// relatedImages, by its digest.
func checkOLMBundle(dist, digest string) error {
	path := filepath.Join(dist, "bundle", "manifests", "llsd.clusterserviceversion.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var csv struct {
		Spec struct {
			Install struct {
				Spec struct {
					Deployments []struct {
						Spec struct {
							Template struct {
								Spec struct {
									Containers []struct{ Image string } `json:"containers"`
								} `json:"spec"`
							} `json:"template"`
						} `json:"spec"`
					} `json:"deployments"`
				} `json:"spec"`
			} `json:"install"`
			RelatedImages []struct{ Image string } `json:"relatedImages"`
		} `json:"spec"`
	}
	if err := yaml.Unmarshal(data, &csv); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	images := []string{}
	for _, r := range csv.Spec.RelatedImages {
		images = append(images, r.Image)
	}
	for _, d := range csv.Spec.Install.Spec.Deployments {
		for _, c := range d.Spec.Template.Spec.Containers {
			images = append(images, c.Image)
		}
	}
	if len(images) != 2 || slices.ContainsFunc(images, func(image string) bool { return !strings.HasSuffix(image, "/llsd-controller@"+digest) }) {
		return fmt.Errorf("%s: runs and relates %v, not llsd-controller by its digest %s", path, images, digest)
	}
	return nil
}

// checkSignatures verifies offline, with the release's key, what hack/sign wrote: each file's
// signature, the provenance of every archive and image, each image's signature and SBOM
// attestation.
func checkSignatures(dist string, digests map[string]string) error {
	key, err := release.PublicKey(dist)
	if err != nil {
		return err
	}
	files, err := release.SignedFiles(dist)
	if err != nil {
		return err
	}
	want := map[string]bool{}
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			return err
		}
		sig, err := os.ReadFile(filepath.Join(dist, name+".sig"))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		if err := release.VerifyDigest(key, sum, string(sig)); err != nil {
			return fmt.Errorf("%s.sig: %w", name, err)
		}
		want[name+"@"+hex.EncodeToString(sum[:])] = true
	}
	artifacts, err := release.Artifacts(dist)
	if err != nil {
		return err
	}
	for _, img := range artifacts {
		if img.Name != release.ChartRepository && digests[img.Name] != img.Digest {
			return fmt.Errorf("images.txt names %s %s, its layout %s", img.Name, img.Digest, digests[img.Name])
		}
		if err := checkImageSignatures(dist, key, img); err != nil {
			return fmt.Errorf("%s: %w", img.Name, err)
		}
		want[img.Reference()+"@"+strings.TrimPrefix(img.Digest, "sha256:")] = true
	}
	data, err := os.ReadFile(filepath.Join(dist, release.ProvenanceFile))
	if err != nil {
		return err
	}
	st, err := release.VerifyEnvelope(key, data)
	if err != nil {
		return fmt.Errorf("%s: %w", release.ProvenanceFile, err)
	}
	for _, s := range st.Subject {
		delete(want, s.Name+"@"+s.Digest["sha256"])
	}
	if st.PredicateType != release.SLSAPredicate || len(want) > 0 {
		return fmt.Errorf("%s: a %s statement that leaves out %v", release.ProvenanceFile, st.PredicateType, slices.Sorted(maps.Keys(want)))
	}
	return nil
}

// checkImageSignatures verifies an image's (or the chart artifact's) cosign signature and
// attestations in its layout.
func checkImageSignatures(dist string, key *ecdsa.PublicKey, img release.Image) error {
	sigLayer, annotations, err := onlyLayer(dist, img, img.SignatureTag())
	if err != nil {
		return err
	}
	if !bytes.Equal(sigLayer, release.SimpleSigning(img)) {
		return errors.New("the signature signs another payload than this image's")
	}
	if err := release.VerifyBlob(key, sigLayer, annotations[release.SignatureAnnotation]); err != nil {
		return err
	}
	attestations, err := layersOf(dist, img, img.AttestationTag())
	if err != nil {
		return err
	}
	var predicates []string
	for _, layer := range attestations {
		st, err := release.VerifyEnvelope(key, layer.data)
		if err != nil {
			return err
		}
		if len(st.Subject) != 1 || "sha256:"+st.Subject[0].Digest["sha256"] != img.Digest {
			return fmt.Errorf("a %s attestation about %v, not this image", st.PredicateType, st.Subject)
		}
		predicates = append(predicates, st.PredicateType)
	}
	want := []string{release.SLSAPredicate, release.CycloneDXPredicate}
	if sbom, err := release.ImageSBOM(dist, img); err == nil && sbom == nil {
		want = want[:1] // the chart: provenance only
	}
	if !slices.Equal(predicates, want) {
		return fmt.Errorf("the attestations are %v, not %v", predicates, want)
	}
	return nil
}

// layer is a layer's content and annotations.
type layer struct {
	data        []byte
	annotations map[string]string
}

// onlyLayer is the one layer of the image tagged tag in img's layout.
func onlyLayer(dist string, img release.Image, tag string) ([]byte, map[string]string, error) {
	layers, err := layersOf(dist, img, tag)
	if err != nil {
		return nil, nil, err
	}
	if len(layers) != 1 {
		return nil, nil, fmt.Errorf("%s holds %d layers, not one", tag, len(layers))
	}
	return layers[0].data, layers[0].annotations, nil
}

// layersOf are the layers of the image tagged tag in img's layout.
func layersOf(dist string, img release.Image, tag string) ([]layer, error) {
	path, err := layout.FromPath(filepath.Join(dist, img.Layout))
	if err != nil {
		return nil, err
	}
	index, err := path.ImageIndex()
	if err != nil {
		return nil, err
	}
	manifest, err := index.IndexManifest()
	if err != nil {
		return nil, err
	}
	at := slices.IndexFunc(manifest.Manifests, func(d v1.Descriptor) bool { return d.Annotations[release.RefNameAnnotation] == tag })
	if at < 0 {
		return nil, fmt.Errorf("no %s beside the image", tag)
	}
	image, err := index.Image(manifest.Manifests[at].Digest)
	if err != nil {
		return nil, err
	}
	m, err := image.Manifest()
	if err != nil {
		return nil, err
	}
	layers, err := image.Layers()
	if err != nil {
		return nil, err
	}
	out := make([]layer, len(layers))
	for i, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		if closeErr := rc.Close(); err == nil {
			err = closeErr
		}
		if err != nil {
			return nil, err
		}
		out[i] = layer{data: data, annotations: m.Layers[i].Annotations}
	}
	return out, nil
}
