// SPDX-License-Identifier: Apache-2.0

// Command sign signs a release in DIST offline, as cosign would and cosign verifies it: with a
// key pair made for this run (a snapshot's; a real release signs keyless through its CI's
// identity instead, docs/getting-started.md), it writes
//
//   - DIST/cosign.pub, the public key;
//
//   - <file>.sig beside SHA256SUMS and every file it names: the base64 ECDSA signature of the
//     file (cosign verify-blob --key cosign.pub --signature <file>.sig <file>);
//
//   - DIST/provenance.intoto.json: an in-toto statement with an SLSA provenance predicate for
//     every archive and image, in a signed DSSE envelope (cosign verify-blob-attestation);
//
//   - into each image's OCI layout, beside the image, its cosign signature image
//     (sha256-<digest>.sig) and its attestations (sha256-<digest>.att: its SLSA provenance and the
//     CycloneDX SBOM of its binary), which skopeo copies with the image (cosign verify,
//     cosign verify-attestation --type slsaprovenance1 or cyclonedx).
//
//     go run ./hack/sign DIST
package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/static"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/llamastack/llsd/internal/release"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: sign DIST")
		os.Exit(2)
	}
	if err := sign(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "sign:", err)
		os.Exit(1)
	}
}

func sign(dist string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	public, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dist, release.PublicKeyFile), pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: public}), 0o644); err != nil {
		return err
	}
	files, err := release.SignedFiles(dist)
	if err != nil {
		return err
	}
	var subjects []release.Subject
	for _, name := range files {
		data, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		sig, err := signDigest(key, sum)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dist, name+".sig"), []byte(sig), 0o644); err != nil {
			return err
		}
		subjects = append(subjects, release.Subject{Name: name, Digest: map[string]string{"sha256": hex.EncodeToString(sum[:])}})
	}
	predicate := release.ProvenancePredicate(dist)
	artifacts, err := release.Artifacts(dist)
	if err != nil {
		return err
	}
	for _, img := range artifacts {
		if err := signImage(dist, key, img, predicate); err != nil {
			return err
		}
		subjects = append(subjects, release.Subject{Name: img.Reference(), Digest: map[string]string{"sha256": strings.TrimPrefix(img.Digest, "sha256:")}})
	}
	// The predicate alone, which a release's keyless attestations carry (hack/release/sign-keyless.sh).
	data, err := json.MarshalIndent(predicate, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dist, release.ProvenancePredicateFile), data, 0o644); err != nil {
		return err
	}
	statement, err := json.Marshal(release.Statement{Type: release.InTotoStatement, Subject: subjects, PredicateType: release.SLSAPredicate, Predicate: predicate})
	if err != nil {
		return err
	}
	envelope, err := dsse(key, release.InTotoPayloadType, statement)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dist, release.ProvenanceFile), envelope, 0o644)
}

// signBytes is cosign's blob signature: base64 of the ASN.1 ECDSA signature of the SHA-256.
func signBytes(key *ecdsa.PrivateKey, data []byte) (string, error) {
	return signDigest(key, sha256.Sum256(data))
}

// signDigest is signBytes for data whose SHA-256 the caller has already.
func signDigest(key *ecdsa.PrivateKey, sum [sha256.Size]byte) (string, error) {
	sig, err := ecdsa.SignASN1(rand.Reader, key, sum[:])
	return base64.StdEncoding.EncodeToString(sig), err
}

// dsse is a signed DSSE envelope of payload.
func dsse(key *ecdsa.PrivateKey, payloadType string, payload []byte) ([]byte, error) {
	sig, err := signBytes(key, release.PAE(payloadType, payload))
	if err != nil {
		return nil, err
	}
	return json.Marshal(release.Envelope{PayloadType: payloadType, Payload: base64.StdEncoding.EncodeToString(payload),
		Signatures: []release.EnvelopeSignature{{Sig: sig}}})
}

// signImage writes the image's cosign signature and attestations (provenance, and the SBOM of
// an image of a binary) into its OCI layout: an image's, or the Helm chart artifact's.
func signImage(dist string, key *ecdsa.PrivateKey, img release.Image, provenance map[string]any) error {
	path, err := layout.FromPath(filepath.Join(dist, img.Layout))
	if err != nil {
		return err
	}
	payload := release.SimpleSigning(img)
	sig, err := signBytes(key, payload)
	if err != nil {
		return err
	}
	signature, err := layered(mutate.Addendum{Layer: static.NewLayer(payload, release.SimpleSigningMediaType),
		Annotations: map[string]string{release.SignatureAnnotation: sig}})
	if err != nil {
		return err
	}
	if err := replace(path, signature, img.SignatureTag()); err != nil {
		return err
	}
	subject := []release.Subject{{Name: img.Reference(), Digest: map[string]string{"sha256": strings.TrimPrefix(img.Digest, "sha256:")}}}
	sbom, err := release.ImageSBOM(dist, img)
	if err != nil {
		return err
	}
	statements := []release.Statement{{Type: release.InTotoStatement, PredicateType: release.SLSAPredicate, Subject: subject, Predicate: provenance}}
	if sbom != nil {
		statements = append(statements, release.Statement{Type: release.InTotoStatement, PredicateType: release.CycloneDXPredicate, Subject: subject, Predicate: sbom})
	}
	var layers []mutate.Addendum
	for _, st := range statements {
		statement, err := json.Marshal(st)
		if err != nil {
			return err
		}
		envelope, err := dsse(key, release.InTotoPayloadType, statement)
		if err != nil {
			return err
		}
		// cosign reads an attestation's signature from its envelope, and wants the layer's
		// signature annotation there, empty
		layers = append(layers, mutate.Addendum{Layer: static.NewLayer(envelope, release.DSSEMediaType),
			Annotations: map[string]string{release.PredicateTypeAnnotation: st.PredicateType, release.SignatureAnnotation: ""}})
	}
	attestations, err := layered(layers...)
	if err != nil {
		return err
	}
	return replace(path, attestations, img.AttestationTag())
}

// layered is an OCI image of the layers with their annotations, as cosign writes its
// signatures and attestations.
func layered(layers ...mutate.Addendum) (v1.Image, error) {
	return mutate.Append(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layers...)
}

// replace puts img into the layout under tag, in place of an earlier one of that tag.
func replace(path layout.Path, img v1.Image, tag string) error {
	if err := path.RemoveDescriptors(func(d v1.Descriptor) bool { return d.Annotations[release.RefNameAnnotation] == tag }); err != nil {
		return err
	}
	if err := path.AppendImage(img, layout.WithAnnotations(map[string]string{release.RefNameAnnotation: tag})); err != nil {
		return err
	}
	return nil
}
