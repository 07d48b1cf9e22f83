// SPDX-License-Identifier: Apache-2.0

package release_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/release"
)

func sign(t *testing.T, key *ecdsa.PrivateKey, data []byte) string {
	sum := sha256.Sum256(data)
	sig, err := ecdsa.SignASN1(rand.Reader, key, sum[:])
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(sig)
}

// A blob signature verifies with the key that made it, and not for other data or another key.
func TestVerifyBlob(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	other, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	sig := sign(t, key, []byte("llsd_linux_amd64.tar.gz"))
	assert.NoError(t, release.VerifyBlob(&key.PublicKey, []byte("llsd_linux_amd64.tar.gz"), sig))
	assert.Error(t, release.VerifyBlob(&key.PublicKey, []byte("llsd_linux_amd64.tar.gz tampered"), sig))
	assert.Error(t, release.VerifyBlob(&other.PublicKey, []byte("llsd_linux_amd64.tar.gz"), sig))
}

// A DSSE envelope verifies over its pre-authentication encoding (the payload type signed
// with the payload), and gives back the statement it holds.
func TestVerifyEnvelope(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	payload, err := json.Marshal(release.Statement{Type: release.InTotoStatement, PredicateType: release.SLSAPredicate,
		Subject: []release.Subject{{Name: "llsd", Digest: map[string]string{"sha256": "00"}}}})
	require.NoError(t, err)
	envelope := func(payloadType string) []byte {
		data, err := json.Marshal(release.Envelope{PayloadType: payloadType, Payload: base64.StdEncoding.EncodeToString(payload),
			Signatures: []release.EnvelopeSignature{{Sig: sign(t, key, release.PAE(release.InTotoPayloadType, payload))}}})
		require.NoError(t, err)
		return data
	}
	st, err := release.VerifyEnvelope(&key.PublicKey, envelope(release.InTotoPayloadType))
	require.NoError(t, err)
	assert.Equal(t, "llsd", st.Subject[0].Name)
	_, err = release.VerifyEnvelope(&key.PublicKey, envelope("text/plain"))
	assert.Error(t, err, "the payload type is signed too")
}

// The signature of an image is cosign's simple-signing payload for it, by digest, and its
// signature and attestation tags are cosign's.
func TestImageNames(t *testing.T) {
	img := release.Image{Name: "llsd", Digest: "sha256:abc", Registry: "ghcr.io/llamastack"}
	assert.Equal(t, "ghcr.io/llamastack/llsd@sha256:abc", img.Reference())
	assert.Equal(t, "sha256-abc.sig", img.SignatureTag())
	assert.Equal(t, "sha256-abc.att", img.AttestationTag())
	assert.JSONEq(t, `{"critical":{"identity":{"docker-reference":"ghcr.io/llamastack/llsd"},"image":{"docker-manifest-digest":"sha256:abc"},`+
		`"type":"cosign container image signature"},"optional":null}`, string(release.SimpleSigning(img)))
}

// A release's images carry its version and the minor and major tags that follow it; anything
// else carries its version only, so no snapshot moves a tag a pipeline follows.
func TestTags(t *testing.T) {
	for _, tc := range []struct {
		reason, version string
		want            []string
	}{
		{reason: "a release", version: "v1.4.2", want: []string{"v1.4.2", "v1.4", "v1"}},
		{reason: "a first release of a major version", version: "v0.1.0", want: []string{"v0.1.0", "v0.1", "v0"}},
		{reason: "a release candidate", version: "v1.5.0-rc.1", want: []string{"v1.5.0-rc.1"}},
		{reason: "a snapshot (git describe)", version: "v1.4.2-3-gabcdef0", want: []string{"v1.4.2-3-gabcdef0"}},
		{reason: "build metadata", version: "v1.4.2+build.1", want: []string{"v1.4.2+build.1"}},
		{reason: "not semver", version: "dev", want: []string{"dev"}},
		{reason: "short forms are not releases", version: "v1.4", want: []string{"v1.4"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, release.Tags(tc.version))
		})
	}
}
