// SPDX-License-Identifier: Apache-2.0

package kyverno

import (
	"os"
	"path/filepath"
	"testing"

	kyvernov1 "github.com/kyverno/kyverno/api/kyverno/v1"
	"github.com/kyverno/kyverno/ext/wildcard"
	"github.com/kyverno/kyverno/pkg/utils/image"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// matchingRules are the verifyImages entries of policy whose imageReferences match ref, as
// Kyverno matches them: the reference read by its image parser, written back as image@digest
// or image:tag, against each pattern with its wildcard matcher.
func matchingRules(t *testing.T, policy *kyvernov1.ClusterPolicy, ref string) []kyvernov1.ImageVerification {
	info, err := image.GetImageInfo(ref, nil)
	require.NoError(t, err, ref)
	var out []kyvernov1.ImageVerification
	for _, rule := range policy.Spec.Rules {
		for _, v := range rule.VerifyImages {
			for _, pattern := range v.ImageReferences {
				if wildcard.Match(pattern, info.String()) {
					out = append(out, v)
					break
				}
			}
		}
	}
	return out
}

// The signature policy checks every reference of llsd's three images, and refuses a reference
// by tag, which could move after it was verified (F8 of round five: it matched digests only,
// so the repository's own llsd-argocd-cmp:latest sidecar was admitted unverified). Images of
// others are none of its business.
func TestKyvernoPolicyChecksEveryReference(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "admission", "kyverno-llsd-images.yaml"))
	require.NoError(t, err)
	var policy kyvernov1.ClusterPolicy
	require.NoError(t, yaml.UnmarshalStrict(data, &policy), "every field is one of Kyverno's")
	const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, name := range []string{"llsd", "llsd-controller", "llsd-argocd-cmp"} {
		repo := "ghcr.io/llamastack/" + name
		for _, ref := range []string{repo + "@" + digest, repo + ":v1.2.3@" + digest} {
			rules := matchingRules(t, &policy, ref)
			assert.NotEmpty(t, rules, "%s is verified", ref)
		}
		for _, ref := range []string{repo, repo + ":latest", repo + ":v1.2.3"} {
			rules := matchingRules(t, &policy, ref)
			require.NotEmpty(t, rules, "%s is matched", ref)
			for _, rule := range rules {
				refused := rule.VerifyDigest && !rule.MutateDigest
				assert.True(t, refused || rule.MutateDigest, "%s by tag is refused (verifyDigest) or pinned to the verified digest (mutateDigest)", ref)
			}
		}
	}
	for _, other := range []string{"ghcr.io/llamastack/llsd-other:v1", "quay.io/llamastack/llsd:v1", "docker.io/library/busybox:1", "ghcr.io/llamastack/llsdx@" + digest} {
		assert.Empty(t, matchingRules(t, &policy, other), other)
	}
}
