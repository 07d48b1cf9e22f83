# llsd's two images, each one static binary on scratch, running as nobody:
#
#   podman build --target function -t llsd:dev .                     the KRM function and CLI
#   podman build --target controller -t llsd-controller:dev .        the in-cluster controller
#
# (or docker build; needs the golang image.) Where the golang image cannot be pulled (air-gapped
# machines, this project's CI), `make image` / `make controller-image` compile with the local Go
# toolchain and replace the build stage with a named build context holding out/llsd,
# out/llsd-controller and out/passwd: podman build --build-context build=bin/image ...
ARG GO_IMAGE=docker.io/library/golang:1.26

FROM ${GO_IMAGE} AS build
# The version stamped into the binaries (llsd version, every render receipt, the controller's log).
ARG VERSION=devel
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN mkdir -p /out && cp hack/image/passwd /out/passwd && \
    for cmd in llsd=./cmd/llsd llsd-controller=./cmd/llsd-controller; do \
      CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X github.com/llamastack/llsd/internal/version.version=${VERSION}" \
        -o /out/${cmd%%=*} ${cmd#*=}; \
    done

FROM scratch AS controller
COPY --from=build /out/passwd /etc/passwd
COPY --from=build /out/llsd-controller /usr/local/bin/llsd-controller
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/llsd-controller"]

# The default target: the KRM function.
FROM scratch AS function
# kustomize and kpt run functions as the user nobody, which must resolve inside the image.
COPY --from=build /out/passwd /etc/passwd
COPY --from=build /out/llsd /usr/local/bin/llsd
# The Argo CD plugin runs `llsd render` by name in this image. kpt fn doc runs the image with
# --help, which then prints the function's documentation rather than the command line's.
ENV PATH=/usr/local/bin LLSD_HELP=function
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/llsd"]

# The Argo CD config-management plugin sidecar (make argocd-cmp-image; a release's
# llsd-argocd-cmp): the function image with the plugin's configuration where argocd-cmp-server
# reads it, so the sidecar needs no ConfigMap (examples/argocd/repo-server-patch.yaml).
FROM function AS argocd-cmp
COPY examples/argocd/plugin.yaml /home/argocd/cmp-server/config/plugin.yaml

# The default target (podman build . without --target): the KRM function.
FROM function
