#!/usr/bin/env bash
# images.sh DIST VERSION REGISTRY: the function, controller and Argo CD plugin sidecar images for linux/amd64 and
# linux/arm64 from the binaries goreleaser built in DIST, each pair as one manifest list, written
# as an OCI layout to DIST/images/<name> (nothing is pushed). The images hold only files (a
# static binary and /etc/passwd on scratch), so no emulation is needed for the other
# architecture; their times are the commit's (LLSD_COMMIT_TIMESTAMP), so a rebuild gives the same
# digests. Prints "<name> <digest of the manifest list>" per image.
#
# Publishing keeps the digest: skopeo copy --all --preserve-digests oci:DIST/images/<name>:TAG
# docker://REGISTRY/<name>:TAG for each tag (or podman manifest push --all --format oci): the
# version, and for a release vX.Y.Z also vX.Y and vX.
set -euo pipefail
dist=$1 version=$2 registry=$3
tool=${CONTAINER_TOOL:-podman}
: "${LLSD_COMMIT_TIMESTAMP:?the commit time, for reproducible layers}"

for image in llsd:function llsd-controller:controller llsd-argocd-cmp:argocd-cmp; do
	name=${image%%:*} target=${image#*:}
	list=$registry/$name:$version
	$tool manifest rm "$list" >/dev/null 2>&1 || true
	$tool manifest create "$list" >/dev/null
	for arch in amd64 arm64; do
		ctx=$dist/image-context-$arch
		rm -rf "$ctx" && mkdir -p "$ctx/out"
		cp "$dist"/llsd_linux_"$arch"_*/llsd "$dist"/llsd-controller_linux_"$arch"_*/llsd-controller "$ctx/out/"
		cp hack/image/passwd "$ctx/out/passwd"
		$tool build --quiet --platform "linux/$arch" --timestamp "$LLSD_COMMIT_TIMESTAMP" \
			--build-context build="$ctx" --target "$target" --manifest "$list" . >/dev/null
	done
	rm -rf "${dist:?}/images/$name" && mkdir -p "$dist/images"
	# the version, and for a release vX.Y.Z the vX.Y and vX it moves (internal/release.Tags)
	for tag in $(${GO:-go} run ./hack/releasecheck tags "$version"); do
		$tool manifest push --all --format oci --quiet "$list" "oci:$dist/images/$name:$tag" >/dev/null
	done
	digest=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["manifests"][0]["digest"])' "$dist/images/$name/index.json")
	echo "$name $digest"
done
