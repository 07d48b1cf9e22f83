# The llsd KRM function image: one static binary on scratch, running as nobody.
#
#   podman build -t llsd:dev .        (or docker build; needs the golang image)
#
# Where the golang image cannot be pulled (air-gapped machines, this project's CI), `make image`
# compiles with the local Go toolchain and replaces the build stage with a named build context
# holding out/llsd and out/passwd: podman build --build-context build=bin/image .
ARG GO_IMAGE=docker.io/library/golang:1.26

FROM ${GO_IMAGE} AS build
# The version stamped into the binary (llsd version, every render receipt).
ARG VERSION=devel
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN mkdir -p /out && cp hack/image/passwd /out/passwd && \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X github.com/llamastack/llsd/pkg/cli.version=${VERSION}" -o /out/llsd ./fn

FROM scratch
# kustomize and kpt run functions as the user nobody, which must resolve inside the image.
COPY --from=build /out/passwd /etc/passwd
COPY --from=build /out/llsd /usr/local/bin/llsd
# The Argo CD plugin runs `llsd render` by name in this image.
ENV PATH=/usr/local/bin
USER 65534:65534
ENTRYPOINT ["/usr/local/bin/llsd"]
