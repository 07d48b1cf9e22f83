#!/usr/bin/env bash
# sign-keyless.sh DIST: signs and attests a published release with the identity of the workflow
# that runs it (cosign keyless: Fulcio certifies the GitHub Actions OIDC token, Rekor logs it).
# Run by the tag workflow after make release-publish, as make release-sign-keyless:
#
#   - every reference of DIST/published.txt (images, the chart's artifact, the OLM images):
#     a cosign signature, and an SLSA provenance attestation (DIST/provenance.predicate.json,
#     the predicate hack/sign also signs offline); an image of a binary also the CycloneDX
#     SBOM of that binary;
#   - SHA256SUMS (which names every archive and SBOM) and the chart archive: a Sigstore bundle
#     beside each (<file>.sigstore.json; cosign verify-blob --bundle).
#
# Verify: cosign verify <ref>@<digest> --certificate-oidc-issuer https://token.actions.githubusercontent.com
#   --certificate-identity-regexp '^https://github.com/<owner>/<repo>/.github/workflows/release.yaml@refs/tags/v'
set -euo pipefail
dist=$1
cosign=${COSIGN:-cosign}
[[ -s $dist/published.txt ]] || { echo "sign-keyless.sh: $dist/published.txt is missing: run make release-publish first" >&2; exit 1; }

while read -r ref; do
	"$cosign" sign --yes "$ref"
	"$cosign" attest --yes --type slsaprovenance1 --predicate "$dist/provenance.predicate.json" "$ref"
	name=${ref%@*} && name=${name##*/}
	case $name in
	llsd | llsd-argocd-cmp) sbom=$(ls "$dist"/llsd_*_linux_amd64.cdx.json) ;;
	llsd-controller) sbom=$(ls "$dist"/llsd-controller_*_linux_amd64.cdx.json) ;;
	*) sbom= ;; # the chart and the OLM images: manifests, no software of their own
	esac
	[[ -z $sbom ]] || "$cosign" attest --yes --type cyclonedx --predicate "$sbom" "$ref"
done < "$dist/published.txt"

for file in "$dist"/SHA256SUMS "$dist"/charts/*.tgz; do
	"$cosign" sign-blob --yes --bundle "$file.sigstore.json" "$file" > /dev/null
done
