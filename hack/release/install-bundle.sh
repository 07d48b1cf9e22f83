#!/usr/bin/env bash
# install-bundle.sh IMAGES REGISTRY OUT: a release's manifests that name its images by digest:
# OUT/install.yaml (the CRD, llsd-controller with self-signed webhook certificates and its
# webhook configuration: examples/install/self-signed) and OUT/argocd-repo-server-patch.yaml
# (the Argo CD plugin sidecar of examples/argocd). IMAGES is images.sh's output ("<name>
# <digest>" lines); kustomize is $KUSTOMIZE.
set -euo pipefail
images=$1 registry=$2 out=$3
digest() { awk -v n="$1" '$1 == n {print $2}' "$images"; }
controller=$(digest llsd-controller) cmp=$(digest llsd-argocd-cmp)
[[ $controller == sha256:* && $cmp == sha256:* ]] || { echo "install-bundle.sh: no digests in $images" >&2; exit 1; }

# A copy keeps the examples' layout (the base names ../../../crds) and leaves the clone as it is.
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
mkdir -p "$work/examples" "$work/controller" "$work/argocd"
cp -r crds "$work/" && cp -r examples/install "$work/examples/"
cat > "$work/controller/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../examples/install/self-signed]
images:
  - {name: ghcr.io/llamastack/llsd-controller, newName: $registry/llsd-controller, digest: $controller}
EOF
cp examples/argocd/repo-server-patch.yaml "$work/argocd/"
cat > "$work/argocd/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [repo-server-patch.yaml]
images:
  - {name: ghcr.io/llamastack/llsd-argocd-cmp, newName: $registry/llsd-argocd-cmp, digest: $cmp}
EOF
{
	echo "# llsd install bundle: the CRD, llsd-controller and its webhook configuration; kubectl apply --server-side -f install.yaml"
	"$KUSTOMIZE" build "$work/controller"
} > "$out/install.yaml"
{
	echo "# The llsd config-management plugin sidecar for argocd-repo-server (a strategic-merge patch; see examples/argocd)"
	"$KUSTOMIZE" build "$work/argocd"
} > "$out/argocd-repo-server-patch.yaml"
