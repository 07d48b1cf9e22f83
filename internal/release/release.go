// SPDX-License-Identifier: Apache-2.0

// Package release holds what signing a release and checking it share: which files and images
// are signed, the formats cosign reads (blob signatures, simple-signing payloads, DSSE
// envelopes of in-toto statements) and their offline verification with the release's key.
// hack/sign writes them, hack/releasecheck verifies them.
package release

import (
	"bufio"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/go-containerregistry/pkg/v1/layout"
	"golang.org/x/mod/semver"
)

// Files, media types and annotations, as cosign names them.
const (
	PublicKeyFile           = "cosign.pub"
	ProvenanceFile          = "provenance.intoto.json"
	ProvenancePredicateFile = "provenance.predicate.json"
	InTotoPayloadType       = "application/vnd.in-toto+json"
	InTotoStatement         = "https://in-toto.io/Statement/v1"
	SLSAPredicate           = "https://slsa.dev/provenance/v1"
	CycloneDXPredicate      = "https://cyclonedx.org/bom"
	SimpleSigningMediaType  = "application/vnd.dev.cosign.simplesigning.v1+json"
	DSSEMediaType           = "application/vnd.dsse.envelope.v1+json"
	SignatureAnnotation     = "dev.cosignproject.cosign/signature"
	PredicateTypeAnnotation = "predicateType"
	RefNameAnnotation       = "org.opencontainers.image.ref.name"
)

// Subject is what an in-toto statement is about.
type Subject struct {
	Name   string            `json:"name"`
	Digest map[string]string `json:"digest"`
}

// Statement is an in-toto statement.
type Statement struct {
	Type          string    `json:"_type"`
	Subject       []Subject `json:"subject"`
	PredicateType string    `json:"predicateType"`
	Predicate     any       `json:"predicate"`
}

// Envelope is a DSSE envelope.
type Envelope struct {
	PayloadType string              `json:"payloadType"`
	Payload     string              `json:"payload"`
	Signatures  []EnvelopeSignature `json:"signatures"`
}

// EnvelopeSignature is one signature of an envelope.
type EnvelopeSignature struct {
	Sig string `json:"sig"`
}

// Image is one image of the release: its name, the digest of its manifest list, and the
// registry it is named for.
type Image struct {
	Name, Digest, Registry string
	// Layout is the OCI layout holding it, relative to dist: images/<name>, or
	// charts/oci/llsd-controller for the Helm chart.
	Layout string
}

// ChartName is the Helm chart's name; ChartRepository its OCI artifact's repository under the
// registry.
const (
	ChartName       = "llsd-controller"
	ChartRepository = "charts/" + ChartName
)

// ChartArchive is the release's Helm chart archive, dist/charts/llsd-controller-<version>.tgz,
// and the chart's version its name says.
func ChartArchive(dist string) (path, version string, err error) {
	archives, _ := filepath.Glob(filepath.Join(dist, "charts", ChartName+"-*.tgz"))
	if len(archives) != 1 {
		return "", "", fmt.Errorf("%s/charts holds %d %s charts, not one", dist, len(archives), ChartName)
	}
	return archives[0], strings.TrimSuffix(strings.TrimPrefix(filepath.Base(archives[0]), ChartName+"-"), ".tgz"), nil
}

// Chart is the Helm chart's OCI artifact (hack/chart/package): the manifest of the layout
// dist/charts/oci/llsd-controller tagged with the chart's version; signed as the images are.
func Chart(dist string) (Image, error) {
	_, version, err := ChartArchive(dist)
	if err != nil {
		return Image{}, err
	}
	registry, err := registryOf(dist)
	if err != nil {
		return Image{}, err
	}
	dir := filepath.Join("charts", "oci", ChartName)
	path, err := layout.FromPath(filepath.Join(dist, dir))
	if err != nil {
		return Image{}, fmt.Errorf("the chart's OCI artifact: %w", err)
	}
	index, err := path.ImageIndex()
	if err != nil {
		return Image{}, err
	}
	manifest, err := index.IndexManifest()
	if err != nil {
		return Image{}, err
	}
	for _, d := range manifest.Manifests {
		if d.Annotations[RefNameAnnotation] == version {
			return Image{Name: ChartRepository, Digest: d.Digest.String(), Registry: registry, Layout: dir}, nil
		}
	}
	return Image{}, fmt.Errorf("%s holds no chart artifact tagged %s", filepath.Join(dist, dir), version)
}

// Artifacts are what a release signs in OCI layouts: its images, its chart's artifact and its
// OLM images.
func Artifacts(dist string) ([]Image, error) {
	images, err := Images(dist)
	if err != nil {
		return nil, err
	}
	chart, err := Chart(dist)
	if err != nil {
		return nil, err
	}
	olm, err := OLMImages(dist)
	if err != nil {
		return nil, err
	}
	return slices.Concat(images, []Image{chart}, olm), nil
}

// OLM's images of a release (hack/olm/image): the bundle and the file-based catalog, by
// DIST/olm/images.txt, in the layouts olm/bundle and olm/catalog.
const (
	BundleImage  = "llsd-bundle"
	CatalogImage = "llsd-catalog"
)

// OLMImages are the release's OLM bundle and catalog images.
func OLMImages(dist string) ([]Image, error) {
	registry, err := registryOf(dist)
	if err != nil {
		return nil, err
	}
	lines, err := imageLines(filepath.Join(dist, "olm", "images.txt"))
	if err != nil {
		return nil, err
	}
	var images []Image
	for _, name := range []string{BundleImage, CatalogImage} {
		at := slices.IndexFunc(lines, func(l imageLine) bool { return l.name == name })
		if at < 0 {
			return nil, fmt.Errorf("%s/olm/images.txt names no %s", dist, name)
		}
		images = append(images, Image{Name: name, Digest: lines[at].digest, Registry: registry, Layout: filepath.Join("olm", strings.TrimPrefix(name, "llsd-"))})
	}
	return images, nil
}

// imageLine is a line of images.txt: an image and its digest.
type imageLine struct{ name, digest string }

// imageLines reads "<name> <digest>" lines, in order.
func imageLines(path string) ([]imageLine, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []imageLine
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		name, digest, ok := strings.Cut(line, " ")
		if !ok || !strings.HasPrefix(digest, "sha256:") {
			return nil, fmt.Errorf("%s: %q is no <name> <digest> line", path, line)
		}
		lines = append(lines, imageLine{name, digest})
	}
	return lines, nil
}

// Reference is the image by digest.
func (i Image) Reference() string { return i.Registry + "/" + i.Name + "@" + i.Digest }

// SignatureTag and AttestationTag are the tags cosign gives an image's signature and
// attestations: sha256-<hex>.sig, .att.
func (i Image) SignatureTag() string   { return strings.Replace(i.Digest, ":", "-", 1) + ".sig" }
func (i Image) AttestationTag() string { return strings.Replace(i.Digest, ":", "-", 1) + ".att" }

// SignedFiles are SHA256SUMS and the files it names (the archives and their SBOMs), and the
// Helm chart's archive.
func SignedFiles(dist string) ([]string, error) {
	f, err := os.Open(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	files := []string{"SHA256SUMS"}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if _, name, ok := strings.Cut(sc.Text(), "  "); ok {
			files = append(files, name)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	chart, _, err := ChartArchive(dist) // the Helm chart's archive, which goreleaser does not make
	if err != nil {
		return nil, err
	}
	return append(files, filepath.Join("charts", filepath.Base(chart))), nil
}

// Images are the release's images, from images.sh's output (DIST/images.txt) and the registry
// install.yaml names them for.
func Images(dist string) ([]Image, error) {
	registry, err := registryOf(dist)
	if err != nil {
		return nil, err
	}
	lines, err := imageLines(filepath.Join(dist, "images.txt"))
	if err != nil {
		return nil, err
	}
	var images []Image
	for _, l := range lines {
		images = append(images, Image{Name: l.name, Digest: l.digest, Registry: registry, Layout: filepath.Join("images", l.name)})
	}
	return images, nil
}

// registryOf is the registry the release's install.yaml names the controller in.
func registryOf(dist string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dist, "install.yaml"))
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(data), "\n") {
		image, _ := strings.CutPrefix(strings.TrimSpace(line), "image: ")
		if registry, _, ok := strings.Cut(image, "/llsd-controller@"); ok {
			return registry, nil
		}
	}
	return "", fmt.Errorf("%s/install.yaml runs no llsd-controller by digest", dist)
}

// PAE is DSSE's pre-authentication encoding, which the envelope's signature signs.
func PAE(payloadType string, payload []byte) []byte {
	return fmt.Appendf(nil, "DSSEv1 %d %s %d %s", len(payloadType), payloadType, len(payload), payload)
}

// SimpleSigning is the payload cosign signs for an image.
func SimpleSigning(img Image) []byte {
	data, _ := json.Marshal(map[string]any{ // maps of strings always marshal
		"critical": map[string]any{
			"identity": map[string]string{"docker-reference": img.Registry + "/" + img.Name},
			"image":    map[string]string{"docker-manifest-digest": img.Digest},
			"type":     "cosign container image signature",
		},
		"optional": nil,
	})
	return data
}

// ProvenancePredicate is the SLSA provenance of the release in dist: how it was built, from
// which commit.
func ProvenancePredicate(dist string) map[string]any {
	var meta struct{ Version, Commit, Date string }
	if data, err := os.ReadFile(filepath.Join(dist, "metadata.json")); err == nil {
		_ = json.Unmarshal(data, &meta) // what it lacks stays empty
	}
	const build = "https://github.com/llamastack/llsd/blob/main/Makefile#release-snapshot"
	return map[string]any{
		"buildDefinition": map[string]any{
			"buildType":          build,
			"externalParameters": map[string]string{"version": meta.Version},
			"resolvedDependencies": []map[string]any{{"uri": "git+https://github.com/llamastack/llsd",
				"digest": map[string]string{"gitCommit": meta.Commit}}},
		},
		"runDetails": map[string]any{"builder": map[string]string{"id": build}, "metadata": map[string]string{"startedOn": meta.Date}},
	}
}

// ImageSBOM is the SBOM of an image's binary (linux/amd64): the function's for the function
// and the Argo CD sidecar image, the controller's for the controller; nil for the chart.
func ImageSBOM(dist string, img Image) (json.RawMessage, error) {
	if img.Name == ChartRepository || img.Name == BundleImage || img.Name == CatalogImage {
		return nil, nil // manifests, values and catalogs, no software of their own
	}
	binary := "llsd"
	if img.Name == "llsd-controller" {
		binary = "llsd-controller"
	}
	matches, _ := filepath.Glob(filepath.Join(dist, binary+"_*_linux_amd64.cdx.json"))
	if len(matches) != 1 {
		return nil, fmt.Errorf("%s: %d SBOMs of %s for linux/amd64, not one", dist, len(matches), binary)
	}
	return os.ReadFile(matches[0])
}

// PublicKey reads the release's public key.
func PublicKey(dist string) (*ecdsa.PublicKey, error) {
	data, err := os.ReadFile(filepath.Join(dist, PublicKeyFile))
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, fmt.Errorf("%s holds no PEM key", PublicKeyFile)
	}
	key, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	ecKey, ok := key.(*ecdsa.PublicKey)
	if !ok {
		return nil, errors.New(PublicKeyFile + " is no ECDSA key")
	}
	return ecKey, nil
}

// VerifyBlob checks a cosign blob signature (base64 of an ASN.1 ECDSA signature of the
// SHA-256 of data).
func VerifyBlob(key *ecdsa.PublicKey, data []byte, signature string) error {
	return VerifyDigest(key, sha256.Sum256(data), signature)
}

// VerifyDigest is VerifyBlob for data whose SHA-256 the caller has already.
func VerifyDigest(key *ecdsa.PublicKey, sum [sha256.Size]byte, signature string) error {
	sig, err := base64.StdEncoding.DecodeString(strings.TrimSpace(signature))
	if err != nil {
		return err
	}
	if !ecdsa.VerifyASN1(key, sum[:], sig) {
		return errors.New("the signature does not verify with the release's key")
	}
	return nil
}

// VerifyEnvelope checks a DSSE envelope's signature and returns its statement.
func VerifyEnvelope(key *ecdsa.PublicKey, data []byte) (Statement, error) {
	var env Envelope
	var st Statement
	if err := json.Unmarshal(data, &env); err != nil {
		return st, err
	}
	payload, err := base64.StdEncoding.DecodeString(env.Payload)
	if err != nil {
		return st, err
	}
	if len(env.Signatures) != 1 {
		return st, fmt.Errorf("the envelope has %d signatures, not one", len(env.Signatures))
	}
	if err := VerifyBlob(key, PAE(env.PayloadType, payload), env.Signatures[0].Sig); err != nil {
		return st, err
	}
	if env.PayloadType != InTotoPayloadType {
		return st, fmt.Errorf("the envelope holds %s, not an in-toto statement", env.PayloadType)
	}
	return st, json.Unmarshal(payload, &st)
}

// FileSHA256 is the hex SHA-256 of a file's content, as SHA256SUMS writes it.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Tags are the tags a release's images carry: its version and, for a release vX.Y.Z (no
// pre-release, no build), vX.Y and vX too, which each later release of that minor or major
// version moves. So a pipeline may follow a major version (image: ghcr.io/llamastack/llsd:v1),
// and a kpt that resolves a Kptfile's semver tag: constraint (from 1.0.0-beta.61.1) finds
// vX.Y.Z among the tags. A snapshot or pre-release carries its version only.
func Tags(version string) []string {
	if !semver.IsValid(version) || semver.Prerelease(version) != "" || semver.Build(version) != "" || semver.Canonical(version) != version {
		return []string{version}
	}
	return []string{version, semver.MajorMinor(version), semver.Major(version)}
}
