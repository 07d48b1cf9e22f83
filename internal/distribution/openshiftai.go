// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/suggest"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// RHDev is the distribution name OpenShift AI (RHOAI) and Open Data Hub (ODH) give their own
// build of the server: their operator fork accepts it (and, where the platform sets
// RELATED_IMAGE_RH_DISTRIBUTION, nothing else) and maps it to the release's image. (An
// OGXServer's rh, Open Data Hub's other name for it, is read as rh-dev: api.RHAlias.)
const RHDev = api.RHDev

// Release is one OpenShift AI or Open Data Hub release's rh-dev: its image, the server it runs
// and how the image runs it. Where the facts come from is in Evidence; the image's config,
// for the releases llsd generates configs for, is distributions/rh-dev/<Name>.yaml (written
// from the image's config by hack/openshiftai).
type Release struct {
	// Name is what the render option openshiftAI.release takes: "3.4", "3.4.0", "odh-3.5".
	Name string
	// Row names the release in the release table the facts were gathered in.
	Row string
	// Image is the image the release deploys for rh-dev: by digest where the release's
	// operator bundle pins one, else the tag its operator named.
	Image string
	// Server is the server's product and release: "llama-stack 0.7.1", "OGX 1.2.4".
	Server string
	// Layout is how the image runs the server.
	Layout profile.Layout
	// ReconcilesLLSD: the release's operator reconciles LlamaStackDistributions (from 3.5
	// OpenShift AI's operator reconciles OGXServers and only adopts them).
	ReconcilesLLSD bool
	// Config names the image's own config, which llsd's base config for the release was made
	// from, in the snapshot of the release's distribution repository.
	Config string
}

// DefaultRelease is the release rh-dev renders for without the render option: the newest
// whose operator still reconciles LlamaStackDistributions.
const DefaultRelease = "3.4"

// DefaultOGXServerRelease is the release an OGXServer's rh-dev renders for without the render
// option: the newest generally available release whose operator reconciles OGXServers.
const DefaultOGXServerRelease = "3.5"

// The images' layouts (the distributions' Containerfiles of each release): user 1001 with
// HOME /opt/app-root/src, the state under ~/.llama/distributions/rh (~/.ogx/... for OGX),
// where the operator fork mounts its volume (DefaultMountPath since rhoai-2.23, 666bac2).
func rhLayout(stateDir, imageConfig string, runConfigPath bool, start ...string) profile.Layout {
	return profile.Layout{Home: rhHome, StateDir: rhHome + "/" + stateDir + "/distributions/rh", CacheDir: rhHome + "/.cache",
		Start: start, RunConfigPath: runConfigPath, ImageConfig: imageConfig, SetsHome: true}
}

const (
	rhHome           = "/opt/app-root/src"
	rhCore           = "registry.redhat.io/rhoai/odh-llama-stack-core-rhel9@sha256:"
	rhOGX            = "registry.redhat.io/rhoai/odh-ogx-core-rhel9@sha256:"
	odhImage         = "quay.io/opendatahub/llama-stack"
	rhEntrypoint     = "/opt/app-root/entrypoint.sh" // llama stack run $RUN_CONFIG_PATH when the file exists
	runYAML          = "/opt/app-root/run.yaml"
	configYAML       = "/opt/app-root/config.yaml"
	serverModule022  = "llama_stack.distribution.server.server"
	serverModule0222 = "llama_stack.core.server.server"
)

var (
	// Up to 2.23 (0.2.10-0.2.14): python -m llama_stack.distribution.server.server --config <file>.
	layout02 = rhLayout(".llama", runYAML, false, "python", "-m", serverModule022, "--config", profile.ConfigPlaceholder)
	// 2.24 and 2.25 (0.2.18-0.2.22): the module moved and takes the file positionally.
	layout0218 = rhLayout(".llama", runYAML, false, "python", "-m", serverModule0222, profile.ConfigPlaceholder)
	// 3.0: llama stack run <file>.
	layout03 = rhLayout(".llama", runYAML, false, "llama", "stack", "run", profile.ConfigPlaceholder)
	// 3.2: entrypoint.sh runs $RUN_CONFIG_PATH; 3.3 and 3.4 renamed the config config.yaml.
	layout32 = rhLayout(".llama", runYAML, true, rhEntrypoint)
	layout33 = rhLayout(".llama", configYAML, true, rhEntrypoint)
	// 3.4 keeps tiktoken's encodings in ~/.cache/tiktoken (TIKTOKEN_CACHE_DIR), under the cache
	// llsd mounts: they are copied into it first.
	layout34 = seedsCache(layout33)
	// OGX: 3.5-ea.1 runs ogx stack run <file>, later releases ogx run --insecure <file>.
	layoutOGX10 = seedsCache(rhLayout(".ogx", configYAML, false, "ogx", "stack", "run", profile.ConfigPlaceholder))
	layoutOGX11 = seedsCache(rhLayout(".ogx", configYAML, false, "ogx", "run", "--insecure", profile.ConfigPlaceholder))
)

// seedsCache: the images keep tiktoken's encodings in ~/.cache/tiktoken (TIKTOKEN_CACHE_DIR,
// OpenShift AI 3.4 and later).
func seedsCache(l profile.Layout) profile.Layout {
	l.SeedsCache = true
	return l
}

// Releases are the OpenShift AI and Open Data Hub releases llsd knows rh-dev of, oldest first.
// Images are the operator bundles' RELATED_IMAGE_ODH_LLAMA_STACK_CORE_IMAGE (from 3.5
// RELATED_IMAGE_ODH_OGX_CORE_IMAGE) of red-hat-data-services/RHOAI-Build-Config at each
// release branch; the server releases are what the distribution's build pinned (for 2.23 to
// 3.0 the nearest public build: the shipped images were built from a private repository).
// Odd z-streams with another digest have a release of their own ("3.4.0"); the minor's name
// is its newest known build.
var Releases = []Release{
	{Name: "2.22", Row: "RHOAI 2.22 (dev preview)", Image: odhImage + ":odh", Server: "llama-stack 0.2.10", Layout: layout02, ReconcilesLLSD: true},
	{Name: "2.23", Row: "RHOAI 2.23.0", Image: rhCore + "43b60b1ee6f66fec38fe2ffbbe08dca8541ef162332e4bd8e422ecd24ee02646",
		Server: "llama-stack 0.2.14", Layout: layout02, ReconcilesLLSD: true},
	{Name: "2.24", Row: "RHOAI 2.24.0", Image: rhCore + "1a8e24818d79fe9c5a627ae075b00c5fccce72af46314746761e85519fa733e7",
		Server: "llama-stack 0.2.18", Layout: layout0218, ReconcilesLLSD: true},
	{Name: "2.25.0", Row: "RHOAI 2.25.0", Image: rhCore + "86f8d82f589b4044ce9ac30cb62b4611951d2c383e669c8e2dc5bc74e69e6c86",
		Server: "llama-stack 0.2.22", Layout: layout0218, ReconcilesLLSD: true},
	{Name: "2.25", Row: "RHOAI 2.25.11 (tip)", Image: rhCore + "c72da1b93cafc31c44ce3fdbfa4a7cb4155f4a0fa24ebb09713f8fc45ef83833",
		Server: "llama-stack 0.2.22", Layout: layout0218, ReconcilesLLSD: true},
	{Name: "3.0", Row: "RHOAI 3.0.0", Image: rhCore + "5152949e47a9e0172b00242fc187102d6e1a348d1469edbe8a3890441dad86fa",
		Server: "llama-stack 0.3.0", Layout: layout03, ReconcilesLLSD: true},
	{Name: "3.2", Row: "RHOAI 3.2.0/3.2.1", Image: rhCore + "a9e415ce30b0a61ae35ef43870b03ccb193074fdbd02683757f1908343266837",
		Server: "llama-stack 0.3.5", Layout: layout32, ReconcilesLLSD: true},
	{Name: "3.3.0", Row: "RHOAI 3.3.0/3.3.1", Image: rhCore + "b38ff9e79e95fd549632288d2e482e0dca7a99ab943dd173c9e63050b11037fc",
		Server: "llama-stack 0.4.1", Layout: layout33, ReconcilesLLSD: true},
	{Name: "3.3", Row: "RHOAI 3.3.5 (tip)", Image: rhCore + "6711522c70e9593e7e477f86bbc01df1930e5312f4f7a128d8b25c294e9ca389",
		Server: "llama-stack 0.4.1", Layout: layout33, ReconcilesLLSD: true},
	{Name: "3.4-ea.1", Row: "RHOAI 3.4.0-ea.1", Image: rhCore + "140ab8d55f5ea58c76295cb3d84c4faed3124eb9f6db32020c9a07e2d8b8991c",
		Server: "llama-stack 0.5.0", Layout: layout34, ReconcilesLLSD: true},
	{Name: "3.4-ea.2", Row: "RHOAI 3.4.0-ea.2", Image: rhCore + "858c1b491c6fab53d85f0685200e7349dfb8d844c571977ee0f49160c64df400",
		Server: "llama-stack 0.5.0", Layout: layout34, ReconcilesLLSD: true},
	{Name: "3.4.0", Row: "RHOAI 3.4.0/3.4.1", Image: rhCore + "d0375eb3cb815b9e750efaee4809715b3ebf64a126ca179dc3da8b9b1f36443a",
		Server: "llama-stack 0.7.1", Layout: layout34, ReconcilesLLSD: true,
		Config: "red-hat-data-services+llama-stack-distribution/b958bff588f14b9c51ec7a00153c44309384d641/distribution__config.yaml"},
	{Name: "3.4", Row: "RHOAI 3.4.4 (tip)", Image: rhCore + "be82f455d597351c6e50447b26a8e388705897995483ce33b76c3154510eef69",
		Server: "llama-stack 0.7.1", Layout: layout34, ReconcilesLLSD: true,
		Config: "red-hat-data-services+ogx-distribution/ae6e6ca1c6517a503df622d62fee914c2e475c8d/distribution__config.yaml"},
	{Name: "3.5-ea.1", Row: "RHOAI 3.5.0-ea.1", Image: rhOGX + "4a994fdaa3c8c5cd7a6a4107af7cf63569ec81abd23a2183dd8b4327b15c481b",
		Server: "OGX 1.0.2", Layout: layoutOGX10,
		Config: "red-hat-data-services+ogx-distribution/51306a1beb5fbf3787c6ee6342b448bacd18f374/distribution__config.yaml"},
	{Name: "3.5-ea.2", Row: "RHOAI 3.5.0-ea.2", Image: rhOGX + "27df7f3293b3cd8539d9f67b96c594f9c45111bed5d95802bb560491dae99976",
		Server: "OGX 1.1.3", Layout: layoutOGX11,
		Config: "red-hat-data-services+ogx-distribution/4a496b6124368b78289ee3be770f3197daa7b6a0/distribution__config.yaml"},
	{Name: "3.5", Row: "RHOAI 3.5.x (tip)", Image: rhOGX + "dc941e03121ee07ccc0540e598b11d24e97c125a3455ad66b4f0532f567e046e",
		Server: "OGX 1.2.4", Layout: layoutOGX11,
		Config: "red-hat-data-services+ogx-distribution/7e43a574c4f1f69fdbc3b4c1bce01f8bc3796fd0/distribution__config.yaml"},
	{Name: "3.6-ea", Row: "RHOAI 3.6.0-ea.1/ea.2", Image: rhOGX + "fb1eeca39758733e151ad142751e9a2d49cbae72764d7b4f952bc926c73ee786",
		Server: "OGX 1.2.1", Layout: layoutOGX11,
		Config: "red-hat-data-services+ogx-distribution/7e87a799ef40c2baff9511e8e58d63c3147aa7eb/distribution__config.yaml"},
	// Open Data Hub: the image of opendatahub-io/llama-stack-k8s-operator's odh overlay
	// (params.env RELATED_IMAGE_RH_DISTRIBUTION) at the commit each opendatahub-operator
	// release pins; 2.35 to 3.3 named a moving tag (:latest) and have no release here.
	{Name: "odh-2.30", Row: "ODH v2.30/v2.31", Image: odhImage + ":odh", Server: "llama-stack 0.2.14", Layout: layout02, ReconcilesLLSD: true},
	{Name: "odh-2.31", Row: "ODH v2.30/v2.31", Image: odhImage + ":odh", Server: "llama-stack 0.2.14", Layout: layout02, ReconcilesLLSD: true},
	{Name: "odh-2.32", Row: "ODH v2.32/v2.33", Image: odhImage + ":0178233dd63f022886ffd237874d9c9ccb8e892d", Server: "llama-stack 0.2.14",
		Layout: layout02, ReconcilesLLSD: true},
	{Name: "odh-2.33", Row: "ODH v2.32/v2.33", Image: odhImage + ":0178233dd63f022886ffd237874d9c9ccb8e892d", Server: "llama-stack 0.2.14",
		Layout: layout02, ReconcilesLLSD: true},
	{Name: "odh-2.34", Row: "ODH v2.34", Image: odhImage + ":4fe54d312afbd4a4f5446a6f284c2428ba7b3a91", Server: "llama-stack 0.2.14",
		Layout: layout02, ReconcilesLLSD: true},
	{Name: "odh-3.4", Row: "ODH v3.4.0-ea.1/ea.2/v3.4.0", Image: odhImage + "@sha256:fe1f2a343ab7fd2134953bce4cd384563363b672e731d9cc7a9549ddf80691dd",
		Layout: layout34, ReconcilesLLSD: true},
	{Name: "odh-3.5", Row: "ODH v3.5", Image: "quay.io/opendatahub/odh-ogx-core:latest", Server: "OGX 1.2.2", Layout: layoutOGX11,
		Config: "opendatahub-io+ogx-distribution/release-3.5/distribution__config.yaml"},
}

// ReleaseOfImage finds the (first) release that pins an image.
func ReleaseOfImage(image string) (Release, bool) {
	i := slices.IndexFunc(Releases, func(r Release) bool { return r.Image == image })
	if i < 0 {
		return Release{}, false
	}
	return Releases[i], true
}

// ReleaseNamed finds a release by its name.
func ReleaseNamed(name string) (Release, bool) {
	i := slices.IndexFunc(Releases, func(r Release) bool { return r.Name == name })
	if i < 0 {
		return Release{}, false
	}
	return Releases[i], true
}

// ReleaseNames lists the releases' names, oldest first.
func ReleaseNames() []string {
	names := make([]string, len(Releases))
	for i, r := range Releases {
		names[i] = r.Name
	}
	return names
}

// ReleasesRunning names the releases whose server is of version v (major.minor), oldest first.
func ReleasesRunning(v Version) []string { return ReleasesWithin(v, Exactly) }

// ReleasesWithin are the names of the releases whose server version is v (Exactly), v or
// earlier (AtMost) or v or later (AtLeast), in the order of Releases.
func ReleasesWithin(v Version, bound int) []string {
	var names []string
	for _, r := range Releases {
		c := r.Version().Compare(v)
		if c == 0 || bound != Exactly && c == bound {
			names = append(names, r.Name)
		}
	}
	return names
}

// Product is the platform the release belongs to, for messages.
func (r Release) Product() string {
	if strings.HasPrefix(r.Name, "odh-") {
		return "Open Data Hub " + strings.TrimPrefix(r.Name, "odh-")
	}
	return "OpenShift AI " + r.Name
}

// DashboardNamespace is where the release's dashboard runs: OpenShift AI's applications
// namespace, or Open Data Hub's.
func (r Release) DashboardNamespace() string {
	if strings.HasPrefix(r.Name, "odh-") {
		return "opendatahub"
	}
	return "redhat-ods-applications"
}

// Version is the server version the release runs (major.minor), "" when unknown.
func (r Release) Version() Version {
	_, release, _ := strings.Cut(r.Server, " ")
	if v, ok := VersionFromTag(release); ok {
		return v
	}
	return ""
}

// Profile is llsd's profile of the release's server version: nil when llsd has none (llama-stack
// before 0.6) or the version is unknown.
func (r Release) Profile() *profile.Profile {
	p, ok := profile.For(r.Version())
	if !ok {
		return nil
	}
	return p
}

// describe is the release for messages: "OpenShift AI 3.4 (llama-stack 0.7.1, image ...)".
func (r Release) describe() string {
	server := cmp.Or(r.Server, "an unknown server release")
	return fmt.Sprintf("%s (%s, image %s)", r.Product(), server, r.Image)
}

// BaseConfigFile is the embedded base config of a release, "" when llsd has none.
func (r Release) BaseConfigFile() string {
	if r.Config == "" || r.Profile() == nil {
		return ""
	}
	return RHDev + "/" + r.Name + ".yaml"
}

var releasePath = field.NewPath("spec", "distribution", "name")

// releaseImage reads distribution.image naming the rh-dev image of a release (the Open Data
// Hub demos name quay.io/opendatahub/llama-stack:odh) as rh-dev of that release: its layout
// decides where the server finds a config, which the official images' does not describe. An
// image with a base config of the user's stays an image.
func releaseImage(spec v1alpha2.DistributionSpec, opts Options) (v1alpha2.DistributionSpec, Options) {
	if spec.Image == "" || spec.BaseConfig != nil {
		return spec, opts
	}
	if r, ok := ReleaseOfImage(spec.Image); ok {
		spec.Name, spec.Image, opts.OpenShiftAIRelease = RHDev, "", r.Name
	}
	return spec, opts
}

// openShiftAIRelease picks the release of a render: the option's, else the default (an
// OGXServer's is DefaultOGXServerRelease) with a warning that names the option.
func openShiftAIRelease(opts Options) (Release, string, *field.Error) {
	if opts.OpenShiftAIRelease == "" {
		name, reconciled := DefaultRelease, "LlamaStackDistributions"
		if opts.OGXServer {
			name, reconciled = DefaultOGXServerRelease, "OGXServers"
		}
		r, _ := ReleaseNamed(name)
		return r, fmt.Sprintf("%s is OpenShift AI's and Open Data Hub's distribution: llsd renders it for %s, the newest release whose "+
			"operator reconciles %s; name the release your cluster runs with the render option openshiftAI.release "+
			"(LLSD_OPENSHIFT_AI_RELEASE; one of %s)", RHDev, r.describe(), reconciled, strings.Join(ReleaseNames(), ", ")), nil
	}
	r, ok := ReleaseNamed(opts.OpenShiftAIRelease)
	if !ok {
		return Release{}, "", field.Invalid(releasePath, RHDev, fmt.Sprintf("the render option openshiftAI.release names %q, which llsd does not know%s: use one of %s",
			opts.OpenShiftAIRelease, suggest.DidYouMean(opts.OpenShiftAIRelease, ReleaseNames()), strings.Join(ReleaseNames(), ", ")))
	}
	return r, "", nil
}

// resolveRHDev resolves distribution.name rh-dev for the release of the render: the image's
// config as llsd's base when llsd has it and the release's server, else (a spec that asks
// llsd to generate nothing) the config the image runs itself.
func resolveRHDev(spec v1alpha2.DistributionSpec, opts Options) (*Resolved, *field.Error) {
	r, note, ferr := openShiftAIRelease(opts)
	if ferr != nil {
		return nil, ferr
	}
	if spec.ServerVersion != "" && r.Version() != "" && Version(spec.ServerVersion) != r.Version() {
		return nil, field.Invalid(distributionPath.Child("serverVersion"), spec.ServerVersion, fmt.Sprintf(
			"%s runs %s: remove serverVersion, or render for the release that runs %s (render option openshiftAI.release)",
			r.Product(), r.Server, spec.ServerVersion))
	}
	base, err := rhDevBase(r)
	if err != nil {
		return nil, field.InternalError(distributionPath, err)
	}
	var res *Resolved
	switch {
	case base != nil:
		res = newResolved(RHDev, r.Image, Entry{}, r.Version(), r.Product(), base, api.ConfigSourceEmbedded, "embedded "+RHDev+"/"+r.Name+".yaml")
		res.DistroName = "rh"
	case opts.ImageOwnConfig:
		res = runtimeOf(r)
		res.ConfigSource = api.ConfigSourceImage
		res.Warn(fmt.Sprintf("%s runs the config of its image (%s), which llsd cannot check: llsd has no facts "+
			"of %s; render for a release llsd generates configs for (openshiftAI.release: %s) to have it checked", r.describe(),
			r.Layout.ImageConfig, cmp.Or(r.Server, "its server"), DefaultRelease))
	default:
		return nil, field.Invalid(releasePath, RHDev, fmt.Sprintf("llsd generates configs for the releases whose server it knows (%s), and %s "+
			"runs %s: render for one of them (render option openshiftAI.release), or give the config yourself (⟦spec.overrideConfig⟧, "+
			"v1alpha1 spec.server.userConfig)", strings.Join(generatedReleases(), ", "), r.Product(), cmp.Or(r.Server, "a server release nobody recorded")))
	}
	res.Layout, res.Release, res.Server, res.DashboardNamespace = r.Layout, r.Product(), r.Server, r.DashboardNamespace()
	if note != "" {
		res.Warnings = append([]api.Warning{{Field: distributionPath.String(), Message: note}}, res.Warnings...)
	}
	return res, nil
}

// rhDevRuntime resolves rh-dev without a base config (the spec brings its own config.yaml):
// the release of the render's image, version and layout.
func rhDevRuntime(opts Options) (*Resolved, *field.Error) {
	r, note, ferr := openShiftAIRelease(opts)
	if ferr != nil {
		return nil, ferr
	}
	res := runtimeOf(r)
	res.ProviderPackages = opts.ProviderPackages
	if note != "" {
		res.Warn(note)
	}
	return res, nil
}

// runtimeOf resolves a release without a base config: its image, version and layout.
func runtimeOf(r Release) *Resolved {
	prof := r.Profile()
	source := r.Product()
	if prof == nil {
		// the port variable and the like of the oldest profile; nothing is checked against it
		prof, source = profile.All()[0], ""
	}
	return &Resolved{Name: RHDev, Image: r.Image, Version: prof.Version, Profile: prof, VersionSource: source, Layout: r.Layout, DistroName: "rh",
		Release: r.Product(), Server: r.Server, DashboardNamespace: r.DashboardNamespace()}
}

// generatedReleases names the releases llsd has a base config of.
func generatedReleases() []string {
	var names []string
	for _, r := range Releases {
		if r.BaseConfigFile() != "" {
			names = append(names, r.Name)
		}
	}
	return names
}

// rhDevBase is a private copy of a release's embedded base config, nil when llsd has none.
func rhDevBase(r Release) (map[string]any, error) {
	file := r.BaseConfigFile()
	if file == "" {
		return nil, nil
	}
	data, err := distributions.FS.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return configyaml.UnmarshalMap(data)
}
