# llsd — build, test and generate.
#
# Tools are built from the Go module proxy at pinned versions into a cache outside the clone
# ($(LLSD_CACHE)), so a fresh clone on the same machine reuses them and a new machine builds them.

SHELL := /usr/bin/env bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
# The toolchain: go.mod's `toolchain` line is the Go that releases are built with and that
# vulncheck judges (standard-library fixes the controller's webhook server calls). make never
# fetches a toolchain by itself: it builds with the Go on PATH (any 1.26), and the targets that
# ship or judge (verify, vulncheck, release-snapshot) stop in one line when that Go is older,
# naming the fix. GOTOOLCHAIN=go1.26.x on the command line fetches that one from the module proxy.
export GOTOOLCHAIN ?= local
GO_PINNED := $(shell sed -n 's/^toolchain //p' go.mod)
GO_LOCAL   = $(shell GOTOOLCHAIN=$(GOTOOLCHAIN) $(GO) env GOVERSION)
# older-go: true when the Go that builds is older than go.mod's toolchain.
older-go = [ "$$(printf '%s\n%s\n' '$(GO_PINNED)' '$(GO_LOCAL)' | sort -V | head -1)" != '$(GO_PINNED)' ]
LLSD_CACHE ?= $(HOME)/.cache/llsd
BIN       := bin
# The version stamped into the binary: the nearest tag, else the commit (-dirty with local edits).
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS   := -s -w -X github.com/llamastack/llsd/internal/version.version=$(VERSION)

# Pinned tool versions (each builds with Go 1.26; see hack/*/go.mod).
ENVTEST_K8S_VERSION  ?= 1.34.4
ENVTEST_ETCD_VERSION ?= 3.6.16
CONTROLLER_GEN_VERSION := $(shell grep 'sigs.k8s.io/controller-tools v' hack/tools/go.mod | awk '{print $$2}')

# The cache key covers the go.sum of each tool module: a changed pin is a new directory.
ENVTEST_KEY    := $(shell cat hack/envtest-assets/etcd/go.sum hack/envtest-assets/kube-apiserver/go.sum | sha256sum | cut -c1-12)
ENVTEST_ASSETS := $(LLSD_CACHE)/envtest/k8s-$(ENVTEST_K8S_VERSION)_etcd-$(ENVTEST_ETCD_VERSION)_$(ENVTEST_KEY)
ENVTEST_K8S_MINOR := $(word 2,$(subst ., ,$(ENVTEST_K8S_VERSION)))
K8S_VERSION_PKG := k8s.io/component-base/version
K8S_LDFLAGS := -s -w -X $(K8S_VERSION_PKG).gitVersion=v$(ENVTEST_K8S_VERSION) \
  -X $(K8S_VERSION_PKG).gitMajor=1 -X $(K8S_VERSION_PKG).gitMinor=$(ENVTEST_K8S_MINOR) \
  -X $(K8S_VERSION_PKG).gitTreeState=clean -X $(K8S_VERSION_PKG).buildDate=1970-01-01T00:00:00Z

# Podman settings for the container-mode tests (runc, fixed ulimits: what works in a sandbox
# without CAP_SYS_RESOURCE). Set CONTAINERS_CONF= to use your own.
export CONTAINERS_CONF ?= $(CURDIR)/hack/image/containers.conf

TOOLS_KEY      := $(shell sha256sum hack/tools/go.sum | cut -c1-12)
CONTROLLER_GEN := $(LLSD_CACHE)/tools/$(TOOLS_KEY)/controller-gen
KUSTOMIZE_KEY  := $(shell sha256sum hack/kustomize/go.sum | cut -c1-12)
KUSTOMIZE      := $(LLSD_CACHE)/tools/kustomize-$(KUSTOMIZE_KEY)/kustomize
GOLANGCI_KEY   := $(shell sha256sum hack/golangci-lint/go.sum | cut -c1-12)
GOLANGCI_LINT  := $(LLSD_CACHE)/tools/golangci-lint-$(GOLANGCI_KEY)/golangci-lint
VULN_KEY       := $(shell sha256sum hack/govulncheck/go.sum | cut -c1-12)
GOVULNCHECK    := $(LLSD_CACHE)/tools/govulncheck-$(VULN_KEY)/govulncheck
VULN_INDEXDB   := $(LLSD_CACHE)/tools/govulncheck-$(VULN_KEY)/indexdb
VULN_DB        := $(LLSD_CACHE)/tools/govulncheck-$(VULN_KEY)/db

# The binaries: name=package. One build line for every target that builds them.
BINARIES := llsd=./cmd/llsd llsd-controller=./cmd/llsd-controller
# build-binaries DIR: builds every binary into DIR, static, with the version stamped.
define build-binaries
	for b in $(BINARIES); do CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(1)/$${b%%=*} $${b#*=}; done
endef

# tool-build DIR PACKAGE: builds a pinned tool of the module in DIR into $@, atomically: a
# temporary name of its own, then a rename, so that concurrent runs never see half a binary.
define tool-build
	mkdir -p $(@D)
	tmp=$$(mktemp $(@D)/.build.XXXXXX) && (cd $(1) && CGO_ENABLED=0 $(GO) build -trimpath $(2) -o $$tmp $(3)) && mv -f $$tmp $@
endef

# The modules of hack/ with tests of their own (each pins what it tests with: Helm, OLM's API,
# Kyverno, actionlint), linted and tested by make lint and make test.
TEST_MODULES := hack/chart hack/olm hack/kyverno hack/workflows

# The one skip make test allows: the tests of inputs others wrote read them beside the clone
# (../shared, or $LLSD_SHARED_DIR), never from the repository; without them they skip, and this
# says so once, at the end of the run.
SHARED_DIR = $${LLSD_SHARED_DIR:-$(CURDIR)/../shared}
define announce-shared-skip
	@test -d "$(SHARED_DIR)/wild-llsd" || echo "make test: TestWildLLSDs, TestWildLLSDsAreAccepted and TestTheRealServerRunsThePublicFiles skipped: the public files they read are not beside the clone ($(SHARED_DIR)/wild-llsd); TestPatternsThePublicFilesTaught ran what they taught"
	@test -d "$(SHARED_DIR)/ogxserver" || echo "make test: TestPublicOGXServers skipped: the successor operator's public OGXServer samples are not beside the clone ($(SHARED_DIR)/ogxserver); TestOGXServerDefaults and TestOGXServerIsCheckedAsTheSuccessorChecksIt ran what they taught"
	@test -d "$(SHARED_DIR)/servers" || echo "make test: TestTheRealServerStartsWhatLLSDRenders, TestTheRealServerRunsTheDocsRecipes, TestTheRealServerEnforcesAuthentication, TestTheRealServerAsksTheAPIServer, TestTheRealServerReachesTheServicesUsersPick and TestTheRealServerRefusesABrokenConfig skipped: the servers' source archives are not beside the clone ($(SHARED_DIR)/servers)"
	@test -d "$(SHARED_DIR)/llama-stack" || echo "make test: TestServerDataEqualsTheReference and TestStartupCasesEqualTheReference skipped: the server data and references they compare the repository with are not beside the clone ($(SHARED_DIR)/llama-stack)"
endef

.PHONY: help
help: ## Show this help.
	@grep -hE '^[a-zA-Z_-]+:.*?## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*?## "}; {printf "  %-16s %s\n", $$1, $$2}'

##@ Build

.PHONY: build
build: ## Build bin/llsd, the KRM function and CLI (static).
	@$(older-go) && echo "note: building with $(GO_LOCAL), older than $(GO_PINNED) (go.mod's toolchain, with standard-library security fixes): fine to try llsd; release binaries come from make release-snapshot" >&2 || true
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/llsd ./cmd/llsd

.PHONY: controller
controller: ## Build bin/llsd-controller, the conversion webhook and status writer (static).
	@$(if $(filter install,$(MAKECMDGOALS)),false,$(older-go)) && echo "note: building with $(GO_LOCAL), older than $(GO_PINNED) (go.mod's toolchain, with standard-library fixes its webhook server needs): use make GOTOOLCHAIN=$(GO_PINNED) controller for a cluster" >&2 || true
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/llsd-controller ./cmd/llsd-controller

# toolchain stops a target that ships binaries or judges the code when the Go is older than
# go.mod's toolchain.
.PHONY: toolchain
toolchain:
	@if $(older-go); then echo "make $(MAKECMDGOALS): needs $(GO_PINNED) (go.mod's toolchain, with the standard-library security fixes), and the Go on PATH is $(GO_LOCAL): install it, or run make GOTOOLCHAIN=$(GO_PINNED) $(MAKECMDGOALS), which fetches it from the Go module proxy (about 80 MB, once)" >&2; exit 1; fi

# PREFIX is where make install puts the binaries ($(PREFIX)/bin): ~/.local by default, which
# most shells have on PATH; PREFIX=/usr/local for every user (as root).
PREFIX ?= $(HOME)/.local

.PHONY: install
install: build controller $(KUSTOMIZE) ## Install llsd, llsd-controller and the pinned kustomize the examples use into $(PREFIX)/bin.
	install -d '$(PREFIX)/bin'
	install -m 0755 '$(BIN)/llsd' '$(BIN)/llsd-controller' '$(KUSTOMIZE)' '$(PREFIX)/bin/'
	@$(older-go) && echo "installed: llsd-controller was built with $(GO_LOCAL), older than $(GO_PINNED) (go.mod's toolchain, with standard-library fixes its webhook server needs): fine to try it; for a cluster, make GOTOOLCHAIN=$(GO_PINNED) install, which fetches that Go from the module proxy and installs what it builds" >&2 || true
	@case ":$$PATH:" in *":$(PREFIX)/bin:"*) ;; *) echo "add $(PREFIX)/bin to PATH: export PATH=\"$(PREFIX)/bin:\$$PATH\"";; esac

CONTAINER_TOOL   ?= podman
IMAGE            ?= localhost/llsd:dev
CONTROLLER_IMAGE ?= localhost/llsd-controller:dev
ARGOCD_CMP_IMAGE ?= localhost/llsd-argocd-cmp:dev

# Both images come from one Dockerfile (targets function and controller); the local binaries
# replace its build stage, so no golang image is needed.
.PHONY: image-binaries
image-binaries:
	rm -rf $(BIN)/image && mkdir -p $(BIN)/image/out
	$(call build-binaries,$(BIN)/image/out)
	cp hack/image/passwd $(BIN)/image/out/passwd

.PHONY: image
image: image-binaries ## Build the KRM function image ($(IMAGE)) from the local binary.
	$(CONTAINER_TOOL) build --build-context build=$(BIN)/image --target function -t $(IMAGE) .

.PHONY: controller-image
controller-image: image-binaries ## Build the controller image ($(CONTROLLER_IMAGE)) from the local binary.
	$(CONTAINER_TOOL) build --build-context build=$(BIN)/image --target controller -t $(CONTROLLER_IMAGE) .

.PHONY: argocd-cmp-image
argocd-cmp-image: image-binaries ## Build the Argo CD plugin sidecar image ($(ARGOCD_CMP_IMAGE)): llsd with the plugin's configuration.
	$(CONTAINER_TOOL) build --build-context build=$(BIN)/image --target argocd-cmp -t $(ARGOCD_CMP_IMAGE) .

.PHONY: demo
demo: ## Render every example package with the embedded distributions (offline) into out/demo/, and say what each became.
	@$(older-go) && echo "note: building with $(GO_LOCAL), older than $(GO_PINNED) (go.mod's toolchain, with standard-library security fixes): fine to try llsd; release binaries come from make release-snapshot" >&2 || true
	@echo "building bin/llsd ..."
	@CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/llsd ./cmd/llsd
	@echo "rendering each example package offline with llsd render into out/demo/:"
	@mkdir -p out/demo
	@# each package's files but its expected output; the Argo CD application takes its destination's namespace
	@for d in $(DEMO_PACKAGES); do \
	  name=$$(echo $$d | cut -d/ -f2- | tr / _); \
	  ARGOCD_APP_NAMESPACE=$$(case $$d in *argocd*) echo ai;; esac) $(BIN)/llsd render $$(ls $$d/*.yaml | grep -v /expected.yaml) > out/demo/$$name.yaml; \
	  echo "out/demo/$$name.yaml: $$(grep -c '^kind:' out/demo/$$name.yaml) objects ($$(grep '^kind:' out/demo/$$name.yaml | cut -d' ' -f2 | paste -sd' '))"; \
	done

# DEMO_PACKAGES are the example packages make demo renders: every one of examples/.
DEMO_PACKAGES := examples/kustomize/transformer examples/kustomize/generator examples/kpt examples/argocd/app \
  examples/openshift/stack examples/kserve/kustomize examples/kserve/kpt examples/llm-d/kustomize examples/llm-d/kpt \
  examples/ogxserver/kustomize examples/ogxserver/kpt

##@ Release

# goreleaser and cyclonedx-gomod, pinned in hack/release and built from the module proxy.
RELEASE_KEY      := $(shell sha256sum hack/release/go.sum | cut -c1-12)
RELEASE_TOOLS    := $(LLSD_CACHE)/tools/release-$(RELEASE_KEY)
GORELEASER       := $(RELEASE_TOOLS)/goreleaser
CYCLONEDX_GOMOD  := $(RELEASE_TOOLS)/cyclonedx-gomod
# Where the release's images are published; the install bundle names them there by digest.
RELEASE_REGISTRY ?= ghcr.io/llamastack
# What goreleaser and the image build take from the commit, so a rebuild is byte-identical.
RELEASE_ENV = LLSD_VERSION=$(VERSION) LLSD_COMMIT_TIMESTAMP=$$(git log -1 --format=%ct) \
  LLSD_COMMIT_DATE=$$(git log -1 --format=%cI) PATH=$(RELEASE_TOOLS):$$PATH \
  GORELEASER_CURRENT_TAG=$$(git describe --tags --abbrev=0 2>/dev/null || echo v0.0.0)

.PHONY: release-snapshot
release-snapshot: toolchain $(GORELEASER) $(CYCLONEDX_GOMOD) $(KUSTOMIZE) ## dist/: archives for linux and darwin on amd64 and arm64, SHA256SUMS, SBOMs, two-architecture images (OCI layouts), install.yaml, the Helm chart and the OLM bundle by digest, its bundle and catalog images, signatures, provenance and SBOM attestations (a throwaway key); pushed only to a registry in the process, and pulled back.
	$(RELEASE_ENV) $(GORELEASER) release --snapshot --clean --skip=publish
	mkdir -p dist/schemas && cp schemas/*.json dist/schemas/
	$(RELEASE_ENV) hack/release/images.sh dist $(VERSION) $(RELEASE_REGISTRY) > dist/images.txt
	KUSTOMIZE=$(KUSTOMIZE) hack/release/install-bundle.sh dist/images.txt $(RELEASE_REGISTRY) dist
	cd hack/chart && LLSD_COMMIT_DATE=$$(git log -1 --format=%cI) $(GO) run ./package ../../charts/llsd-controller ../../dist/images.txt $(RELEASE_REGISTRY) $(VERSION) ../../dist/charts
	cd hack/olm && $(GO) run ./gen $(KUSTOMIZE) ../../examples/install $(VERSION) $(RELEASE_REGISTRY)/llsd-controller@$$(awk '$$1 == "llsd-controller" {print $$2}' ../../dist/images.txt) ../../dist/bundle
	mkdir -p dist/olm && cd hack/olm && LLSD_COMMIT_DATE=$$(git log -1 --format=%cI) $(GO) run ./image ../../dist/bundle $(RELEASE_REGISTRY) \
	  $$(cd ../.. && $(GO) run ./hack/releasecheck tags $(VERSION) | paste -sd, -) ../../dist > ../../dist/olm/images.txt
	$(GO) run ./hack/sign dist
	$(GO) run ./hack/releasecheck dist
	$(GO) run ./hack/publish dist  # to a registry in this process, pulled back: what release-publish does to RELEASE_REGISTRY

.PHONY: release-publish
release-publish: ## Push dist/ (make release-snapshot with RELEASE_REGISTRY set) to RELEASE_REGISTRY by digest, with its tags; writes dist/published.txt for keyless signing (the tag workflow runs it).
	$(GO) run ./hack/publish dist $(RELEASE_REGISTRY)

.PHONY: release-sign-keyless
release-sign-keyless: ## Sign and attest what release-publish pushed with the running workflow's identity (cosign keyless; the tag workflow only: it needs the workflow's OIDC token).
	hack/release/sign-keyless.sh dist

.PHONY: prepare-release
prepare-release: ## Make the tree prepare release RELEASE=vX.Y.Z: the chart's version and appVersion, and the image tags the examples and docs name (a tag's release check requires it).
	@test -n "$(RELEASE)" || { echo "prepare-release: name the release: make prepare-release RELEASE=v0.2.0" >&2; exit 1; }
	$(GO) run ./hack/releasecheck prepare $(RELEASE)

.PHONY: release-reproducible
release-reproducible: ## Run release-snapshot twice and fail unless the binaries, images and the chart's OCI artifact are byte-identical.
	$(MAKE) release-snapshot
	mkdir -p $(BIN) && cp dist/release.sha256 $(BIN)/release-first.sha256
	$(MAKE) release-snapshot
	diff -u $(BIN)/release-first.sha256 dist/release.sha256 && echo "release-reproducible: two builds of $(VERSION) are byte-identical"

$(GORELEASER):
	$(call tool-build,hack/release,-ldflags '-s -w',github.com/goreleaser/goreleaser/v2)

$(CYCLONEDX_GOMOD):
	$(call tool-build,hack/release,-ldflags '-s -w',github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod)

##@ Code generation

.PHONY: generate
generate: $(CONTROLLER_GEN) $(KUSTOMIZE) ## Regenerate deepcopy code, the CRD in crds/, docs/api-reference.md, the JSON Schemas in schemas/ and the Helm chart's templates.
	$(CONTROLLER_GEN) object:headerFile=hack/boilerplate.go.txt paths=./pkg/api/...
	$(CONTROLLER_GEN) crd:crdVersions=v1 paths=./pkg/api/... output:crd:artifacts:config=crds/bases
	$(GO) run ./hack/crdpatch crds/bases/llamastack.io_llamastackdistributions.yaml crds/llamastack.io_llamastackdistributions.yaml pkg/api/v1alpha2/zz_generated.bounds.go
	rm -rf crds/bases
	$(GO) run ./hack/apidocs crds/llamastack.io_llamastackdistributions.yaml > docs/api-reference.md
	$(GO) run ./hack/jsonschema crds/llamastack.io_llamastackdistributions.yaml schemas
	cd hack/chart && $(GO) run ./gen $(KUSTOMIZE) ../../examples/install ../../charts/llsd-controller

.PHONY: verify
verify: toolchain generate vulncheck ## Fail when generated files are stale, go.mod is not tidy or the code calls a known vulnerability.
	@git diff --exit-code -- crds pkg/api docs/api-reference.md charts schemas || { echo "generated files are stale: run 'make generate' and commit the result" >&2; exit 1; }
	@test -z "$$(git status --porcelain -- crds pkg/api docs/api-reference.md charts schemas)" || { git status --porcelain -- crds pkg/api docs/api-reference.md charts schemas; echo "untracked generated files: run 'make generate' and commit them" >&2; exit 1; }
	@$(GO) mod tidy -diff || { echo "go.mod or go.sum is not tidy: run 'go mod tidy' and commit the result" >&2; exit 1; }

.PHONY: vulncheck
vulncheck: toolchain $(GOVULNCHECK) $(VULN_DB) ## govulncheck against the Go vulnerability database pinned in hack/govulncheck (no host but the module proxy).
	$(GOVULNCHECK) -db file://$(VULN_DB) ./...

$(GOVULNCHECK):
	$(call tool-build,hack/govulncheck,-ldflags '-s -w',golang.org/x/vuln/cmd/govulncheck)

$(VULN_INDEXDB):
	$(call tool-build,hack/govulncheck,-ldflags '-s -w',golang.org/x/vulndb/cmd/indexdb)

# The database: golang.org/x/vulndb's OSV files at the pinned commit, indexed; built in a
# directory of its own and renamed, so that concurrent runs never see half of it.
$(VULN_DB): $(VULN_INDEXDB)
	osv=$$(cd hack/govulncheck && $(GO) mod download -json golang.org/x/vulndb | sed -n 's/^\t"Dir": "\(.*\)",$$/\1/p')/data/osv && \
	tmp=$$(mktemp -d $(@D)/.db.XXXXXX) && $(VULN_INDEXDB) -vulns $$osv -out $$tmp && \
	{ mv -T $$tmp $@ 2>/dev/null || rm -rf $$tmp; }

$(CONTROLLER_GEN):
	$(call tool-build,hack/tools,,sigs.k8s.io/controller-tools/cmd/controller-gen)

##@ Test

.PHONY: test
test: lint envtest-assets kustomize ## Everything, with the race detector: unit tests, the envtest suites (real kube-apiserver + etcd), the real-tool tests (kustomize, kpt, podman) and the real servers (root, debootstrap); a missing tool fails with what to install.
	@mkdir -p out && rm -f out/real-server.md
	LLSD_STRICT=1 LLSD_REAL_SERVER_REPORT=$(CURDIR)/out/real-server.md KUBEBUILDER_ASSETS=$(ENVTEST_ASSETS) KUSTOMIZE=$(KUSTOMIZE) $(GO) test -race -count=1 -timeout 30m ./...
	@if [ -f out/real-server.md ]; then echo "make test: what the real servers did with the configs llsd renders (docs/real-server.md):"; cat out/real-server.md; fi
	for m in $(TEST_MODULES); do (cd $$m && KUBEBUILDER_ASSETS=$(ENVTEST_ASSETS) KUSTOMIZE=$(KUSTOMIZE) $(GO) test -race -count=1 ./...); done
	$(call announce-shared-skip)

.PHONY: test-unit
test-unit: ## Unit tests only, fast: no internal/e2e, no API server, kustomize, kpt or podman (make test runs those).
	@echo "unit tests only: the API server, kustomize, kpt, podman and real-server suites skip (make test runs them)"
	LLSD_TEST_UNIT=1 $(GO) test -short $$($(GO) list ./... | grep -v /internal/e2e)

.PHONY: lint
lint: $(GOLANGCI_LINT) ## golangci-lint (.golangci.yml: gofmt, goimports, go vet, staticcheck, gosec, ...), also of the modules hack/chart, hack/olm, hack/kyverno and hack/workflows.
	$(GOLANGCI_LINT) run ./...
	for m in $(TEST_MODULES); do (cd $$m && $(GOLANGCI_LINT) run ./...); done

$(GOLANGCI_LINT):
	$(call tool-build,hack/golangci-lint,-ldflags '-s -w',github.com/golangci/golangci-lint/v2/cmd/golangci-lint)

.PHONY: fuzz
fuzz: ## Run each fuzz target for FUZZTIME (default 30s); FuzzRender holds every rendered server to the start-up rules, the launcher and redaction targets grep for a sentinel secret.
	$(GO) test ./pkg/api/v1alpha1 -run '^$$' -fuzz FuzzRoundTrip -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/config -run '^$$' -fuzz FuzzGenerate -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/config -run '^$$' -fuzz FuzzLauncherNeverPrintsTheSecret -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/redact -run '^$$' -fuzz FuzzRedact -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/pipeline -run '^$$' -fuzz FuzzRender -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./pkg/api/v1alpha1 -run '^$$' -fuzz FuzzConversionNeverEchoesACredential -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/cli -run '^$$' -fuzz FuzzFrontEndsNeverShowACredential -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/fastcodec -run '^$$' -fuzz FuzzEmitterMatchesYAMLv3 -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./pkg/api -run '^$$' -fuzz FuzzDecodeNode -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/fastcodec -run '^$$' -fuzz FuzzNodesMatchTheYAMLRoundTrip -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/fastcodec -run '^$$' -fuzz FuzzKubeObjectFromJSON -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/fastcodec -run '^$$' -fuzz FuzzKubeObjectFromJSONWithStrings -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/krm -run '^$$' -fuzz FuzzResultsText -fuzztime $${FUZZTIME:-30s}
	$(GO) test ./internal/krm -run '^$$' -fuzz FuzzReadResourceList -fuzztime $${FUZZTIME:-30s}

.PHONY: bench
bench: $(KUSTOMIZE) ## Run the benchmarks and print llsd next to the identity KRM function, with ratios, and llsd with and without its fast paths (docs/benchmarks.md).
	$(GO) test $$($(GO) list ./pkg/... ./internal/... | grep -v /internal/e2e) -run '^$$' -bench . -benchmem -count $${BENCHCOUNT:-5}
	$(GO) test ./internal/e2e -run '^$$' -bench BenchmarkProcess -count $${BENCHCOUNT:-5} | $(GO) run ./hack/benchreport
	KUSTOMIZE=$(KUSTOMIZE) $(GO) test ./internal/e2e -run '^$$' -bench BenchmarkFastPaths -count $${BENCHCOUNT:-5}

.PHONY: golden
golden: kustomize ## Rewrite the expected files of every golden suite (config, objects, KRM function, examples); review the diff before committing.
	WRITE_GOLDEN_OUTPUT=1 $(GO) test -count=1 ./internal/config ./internal/render ./internal/krm -run TestGolden
	WRITE_GOLDEN_OUTPUT=1 $(GO) test -count=1 ./internal/cli -run TestCatalogEntry
	WRITE_GOLDEN_OUTPUT=1 KUSTOMIZE=$(KUSTOMIZE) $(GO) test -count=1 ./internal/e2e -run 'TestExamples|TestArgoCDPluginGenerate'
	WRITE_GOLDEN_OUTPUT=1 $(GO) test -count=1 ./internal/testsupport/servercheck -run TestStartupCasesEqualTheReference

.PHONY: kustomize
kustomize: $(KUSTOMIZE) ## Build kustomize (pinned in hack/kustomize) for the real-tool tests.
	@echo "KUSTOMIZE=$(KUSTOMIZE)"

$(KUSTOMIZE):
	$(call tool-build,hack/kustomize,-ldflags '-s -w',sigs.k8s.io/kustomize/kustomize/v5)

.PHONY: envtest-assets
envtest-assets: $(ENVTEST_ASSETS)/etcd $(ENVTEST_ASSETS)/kube-apiserver ## Build kube-apiserver and etcd from the module proxy.
	@echo "KUBEBUILDER_ASSETS=$(ENVTEST_ASSETS)"

# No file prerequisites on purpose: a fresh clone has new mtimes; the directory name is the cache key.
$(ENVTEST_ASSETS)/etcd:
	$(call tool-build,hack/envtest-assets/etcd,-ldflags '-s -w',go.etcd.io/etcd/server/v3)

$(ENVTEST_ASSETS)/kube-apiserver:
	$(call tool-build,hack/envtest-assets/kube-apiserver,-ldflags '$(K8S_LDFLAGS)',k8s.io/kubernetes/cmd/kube-apiserver)
