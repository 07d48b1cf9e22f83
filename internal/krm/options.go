// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/suggest"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Render options are a function config of this group and kind:
//
//	apiVersion: fn.llamastack.io/v1alpha1
//	kind: RenderOptions
//	metadata: {name: llsd}
//	spec:
//	  imageOverrides: {starter: registry.internal/llamastack/distribution-starter:0.7.1}
//	  ingress: {className: nginx, domain: apps.example.com, controllerNamespace: ingress-nginx}
//	  registry: {enabled: false, insecureHosts: []}
const (
	OptionsAPIVersion = "fn.llamastack.io/v1alpha1"
	OptionsKind       = "RenderOptions"
)

// RenderOptions is the function config that tunes a render.
type RenderOptions struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   map[string]any    `json:"metadata,omitempty"`
	Spec       RenderOptionsSpec `json:"spec"`
}

// RenderOptionsSpec are the options.
type RenderOptionsSpec struct {
	// ImageOverrides maps distribution names to images (mirrors, air-gapped registries).
	ImageOverrides map[string]string `json:"imageOverrides,omitempty"`
	// Distributions adds distribution names llsd's catalog does not have, each with its
	// image (rh-dev: quay.io/...): distribution.name resolves to that image, as
	// distribution.image would (base config from the image's labels or
	// distribution.baseConfig, or the image's own config when the spec generates nothing).
	Distributions map[string]string `json:"distributions,omitempty"`
	// Platform is the cluster's flavour: kubernetes (the default) or openshift, where pods
	// leave their user and group to the namespace's security context constraints and
	// exposed servers get a Route instead of an Ingress.
	Platform string `json:"platform,omitempty"`
	// PodSecurity is the most privileged Pod Security Standard the rendered pods may meet:
	// restricted (the default), baseline or privileged. A spec whose overrides need more
	// (a hostPath volume, an unconfined AppArmor profile) is refused; within it, a warning.
	PodSecurity string `json:"podSecurity,omitempty"`
	// ControllerNamespace is where llsd-controller runs (llsd-system): the NetworkPolicy of a
	// server lets it in to read the server's version and providers' health.
	ControllerNamespace string `json:"controllerNamespace,omitempty"`
	// RequireAuthentication refuses to expose (Ingress or Route) a server whose config
	// authenticates nobody; without it that is a warning. A RenderOptions below one that sets
	// it cannot unset it.
	RequireAuthentication bool `json:"requireAuthentication,omitempty"`
	// OpenShiftAI names the OpenShift AI or Open Data Hub release the cluster runs: rh-dev
	// renders for it, and the platform's conventions apply (its trusted CA bundle, its
	// dashboard let through NetworkPolicies, platform openshift).
	OpenShiftAI *OpenShiftAIOptions `json:"openshiftAI,omitempty"`
	// Praxis is the cluster's Praxis gateway, whose headers an OGXServer in Praxis mode
	// believes when it names no gateway itself (the successor operator's praxis-peer
	// ConfigMap): unset, openshift-ingress and app=payload-processing.
	Praxis   PraxisOptions   `json:"praxis,omitempty"`
	Ingress  IngressOptions  `json:"ingress,omitempty"`
	Registry RegistryOptions `json:"registry,omitempty"`
	Limits   LimitOptions    `json:"limits,omitempty"`
}

// OpenShiftAIOptions are the render options of OpenShift AI and Open Data Hub clusters.
type OpenShiftAIOptions struct {
	// Release is a release of distribution.Releases: "3.4", "3.5", "odh-3.5".
	Release string `json:"release"`
}

// PraxisOptions name the Praxis gateway's pods.
type PraxisOptions struct {
	// Namespace is the gateway's namespace.
	Namespace string `json:"namespace,omitempty"`
	// PodLabels are the gateway pods' labels, key=value.
	PodLabels []string `json:"podLabels,omitempty"`
}

// LimitOptions bound the work of a render; zero fields take the defaults.
type LimitOptions struct {
	pipeline.Limits
	// LLSDs is the most LlamaStackDistributions one render takes (2,000).
	LLSDs int `json:"llsds,omitempty"`
}

// DefaultMaxLLSDs is the default of LimitOptions.LLSDs.
const DefaultMaxLLSDs = 2000

// IngressOptions shape the Ingress and NetworkPolicy of exposed servers.
type IngressOptions struct {
	ClassName           string `json:"className,omitempty"`
	Domain              string `json:"domain,omitempty"`
	ControllerNamespace string `json:"controllerNamespace,omitempty"`
}

// RegistryOptions allow reading base configs from image labels (internal/oci). Off by default:
// an offline render never touches the network.
type RegistryOptions struct {
	// Enabled reads each distribution image's config labels; they take precedence over the
	// embedded configs. Results are cached by digest in $LLSD_CACHE_DIR or ~/.cache/llsd/oci.
	Enabled bool `json:"enabled,omitempty"`
	// InsecureHosts are registries (host:port) reached over plain HTTP.
	InsecureHosts []string `json:"insecureHosts,omitempty"`
}

// OptionsObject writes options as the RenderOptions document of a function config, with the
// metadata (name, file annotations) of like, the document they came from.
func OptionsObject(o RenderOptions, like *fn.KubeObject) (*fn.KubeObject, error) {
	o.APIVersion, o.Kind = OptionsAPIVersion, OptionsKind
	obj, err := ManifestObject(o)
	if err != nil {
		return nil, err
	}
	for k, v := range like.GetAnnotations() {
		if err := obj.SetAnnotation(k, v); err != nil {
			return nil, err
		}
	}
	return obj, obj.SetName(like.GetName())
}

// ParseOptions reads a RenderOptions document strictly: a misspelled option is an error,
// not ignored.
func ParseOptions(data []byte) (RenderOptions, error) {
	var o RenderOptions
	if err := yaml.UnmarshalStrict(data, &o); err != nil {
		if m := unknownOption().FindStringSubmatch(err.Error()); m != nil {
			return o, fmt.Errorf("%s %s: unknown field %q%s: the options are %s", OptionsKind, OptionsAPIVersion, m[1],
				nearestOption(m[1]), strings.Join(optionFields(), ", "))
		}
		return o, fmt.Errorf("%s %s: %w", OptionsKind, OptionsAPIVersion, err)
	}
	return o, o.Validate()
}

// nearestOption is " (did you mean spec.X?)" for the option whose last name is nearest to name.
func nearestOption(name string) string {
	byName := map[string]string{} // each name of a path (ingress, className) to its path
	for _, f := range optionFields() {
		parts := strings.Split(f, ".")
		for i, part := range parts {
			byName[part] = strings.Join(parts[:i+1], ".")
		}
	}
	if n, ok := suggest.Nearest(name, slices.Sorted(maps.Keys(byName))); ok {
		return " (did you mean spec." + byName[n] + "?)"
	}
	return ""
}

// podLabelProblems are what is wrong with a pod label written key=value.
func podLabelProblems(label string) []string {
	key, value, ok := strings.Cut(label, "=")
	if !ok {
		return []string{"write a label as key=value"}
	}
	return append(k8svalidation.IsQualifiedName(key), k8svalidation.IsValidLabelValue(value)...)
}

// unknownOption finds the field of a strict decoder's error.
var unknownOption = lazyre.New(`unknown field "([^"]+)"`)

// optionFields are the field paths of RenderOptions' spec, as Options and the limits name them.
func optionFields() []string {
	fields := make([]string, 0, len(Options)+3)
	for _, o := range Options {
		fields = append(fields, o.Field)
	}
	return append(fields, "limits.llsds", "limits.settingsBytes", "limits.settingsDepth")
}

// Validate refuses options that would render objects the API server rejects, and image
// overrides of distributions the catalog does not have (a typo would be ignored).
func (o RenderOptions) Validate() error {
	var problems []string
	check := func(field, value string, rule func(string) []string) {
		if value == "" {
			return
		}
		for _, p := range rule(value) {
			problems = append(problems, fmt.Sprintf("spec.%s %q: %s", field, value, p))
		}
	}
	if p := o.Spec.Platform; p != "" && p != "kubernetes" && p != render.PlatformOpenShift {
		problems = append(problems, fmt.Sprintf("spec.platform %q: use kubernetes or openshift", p))
	}
	if ai := o.Spec.OpenShiftAI; ai != nil {
		if _, ok := distribution.ReleaseNamed(ai.Release); !ok {
			problems = append(problems, fmt.Sprintf("spec.openshiftAI.release %q: no release llsd knows%s: use one of %s",
				ai.Release, suggest.DidYouMean(ai.Release, distribution.ReleaseNames()), strings.Join(distribution.ReleaseNames(), ", ")))
		}
		if o.Spec.Platform == "kubernetes" {
			problems = append(problems, "spec.openshiftAI: OpenShift AI and Open Data Hub run on OpenShift: remove spec.platform: kubernetes")
		}
	}
	if p := o.Spec.PodSecurity; p != "" && !slices.Contains([]string{render.PodSecurityRestricted, render.PodSecurityBaseline, render.PodSecurityPrivileged}, p) {
		problems = append(problems, fmt.Sprintf("spec.podSecurity %q: use restricted, baseline or privileged", p))
	}
	check("ingress.domain", o.Spec.Ingress.Domain, k8svalidation.IsDNS1123Subdomain)
	check("ingress.className", o.Spec.Ingress.ClassName, k8svalidation.IsDNS1123Subdomain)
	check("ingress.controllerNamespace", o.Spec.Ingress.ControllerNamespace, k8svalidation.IsDNS1123Label)
	check("controllerNamespace", o.Spec.ControllerNamespace, k8svalidation.IsDNS1123Label)
	check("praxis.namespace", o.Spec.Praxis.Namespace, k8svalidation.IsDNS1123Label)
	for _, label := range o.Spec.Praxis.PodLabels {
		check("praxis.podLabels", label, podLabelProblems)
	}
	limits := map[string]int{"llsds": o.Spec.Limits.LLSDs, "settingsBytes": o.Spec.Limits.SettingsBytes,
		"settingsDepth": o.Spec.Limits.SettingsDepth}
	for _, name := range slices.Sorted(maps.Keys(limits)) {
		if v := limits[name]; v < 0 {
			problems = append(problems, fmt.Sprintf("spec.limits.%s %d: a limit is a positive number (0 or unset: the default)", name, v))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(o.Spec.Distributions)) {
		switch {
		case slices.Contains(distribution.Names(), name):
			problems = append(problems, fmt.Sprintf("spec.distributions[%s]: llsd's catalog has this distribution: set its image in spec.imageOverrides", name))
		case len(k8svalidation.IsDNS1123Label(name)) > 0:
			problems = append(problems, fmt.Sprintf("spec.distributions[%s]: a distribution name is a DNS label (lowercase letters, digits, '-')", name))
		case o.Spec.Distributions[name] == "":
			problems = append(problems, fmt.Sprintf("spec.distributions[%s]: no image: write name: registry/image:tag", name))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(o.Spec.ImageOverrides)) {
		if !slices.Contains(distribution.Names(), name) {
			problems = append(problems, fmt.Sprintf("spec.imageOverrides[%s]: no distribution has this name%s: use one of %s",
				name, suggest.DidYouMean(name, distribution.Names()), strings.Join(distribution.Names(), ", ")))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s %s: %s", OptionsKind, OptionsAPIVersion, strings.Join(problems, "; "))
	}
	return nil
}

// PipelineOptions turns render options into the pipeline's.
func (o RenderOptions) PipelineOptions(version string) pipeline.Options {
	dist := distribution.Options{ImageOverrides: o.Spec.ImageOverrides, Distributions: o.Spec.Distributions}
	cache := &oci.Cache{Dir: oci.DefaultCacheDir()}
	var providers oci.ProviderReader = oci.OfflineCache{Cache: cache}
	if o.Spec.Registry.Enabled {
		client := &oci.Client{InsecureHosts: o.Spec.Registry.InsecureHosts, Cache: cache}
		dist.Labels, providers = client, client
	}
	opts := pipeline.Options{
		Providers:    providers,
		Distribution: dist,
		Render: render.Options{
			IngressClassName:           o.Spec.Ingress.ClassName,
			IngressDomain:              o.Spec.Ingress.Domain,
			IngressControllerNamespace: o.Spec.Ingress.ControllerNamespace,
			Platform:                   o.Spec.Platform,
			PodSecurity:                o.Spec.PodSecurity,
			ControllerNamespace:        o.Spec.ControllerNamespace,
			RequireAuthentication:      o.Spec.RequireAuthentication,
		},
		RendererVersion: version,
		Limits:          o.Spec.Limits.Limits,
		Praxis:          v1alpha2.PodsPeer{Namespace: o.Spec.Praxis.Namespace, Labels: o.Spec.Praxis.PodLabels},
	}
	if ai := o.Spec.OpenShiftAI; ai != nil {
		opts.Distribution.OpenShiftAIRelease = ai.Release
		r, _ := distribution.ReleaseNamed(ai.Release) // Validate refused a release llsd does not know
		opts.Render.OpenShiftAI, opts.Render.DashboardNamespace = true, r.DashboardNamespace()
		opts.Render.Platform = render.PlatformOpenShift
	}
	return opts
}

// Environment variables that set render options on top of the function config, for
// `llsd render` (Argo CD passes a plugin's env with the ARGOCD_ENV_ prefix, accepted too but
// for the platformOptions).
const (
	EnvImageOverrides      = "LLSD_IMAGE_OVERRIDES"
	EnvDistributions       = "LLSD_DISTRIBUTIONS"
	EnvIngressClass        = "LLSD_INGRESS_CLASS"
	EnvIngressDomain       = "LLSD_INGRESS_DOMAIN"
	EnvIngressControllerNS = "LLSD_INGRESS_CONTROLLER_NAMESPACE"
	EnvPlatform            = "LLSD_PLATFORM"
	EnvPodSecurity         = "LLSD_POD_SECURITY"
	EnvRegistryEnabled     = "LLSD_REGISTRY_ENABLED"
	EnvRegistryInsecure    = "LLSD_REGISTRY_INSECURE_HOSTS"
	EnvControllerNamespace = "LLSD_CONTROLLER_NAMESPACE"
	EnvOpenShiftAIRelease  = "LLSD_OPENSHIFT_AI_RELEASE"
	EnvRequireAuth         = "LLSD_REQUIRE_AUTHENTICATION"
	EnvPraxisNamespace     = "LLSD_PRAXIS_NAMESPACE"
	EnvPraxisPodLabels     = "LLSD_PRAXIS_POD_LABELS"
)

// Option is one render option as every front end sets it: a field of RenderOptions' spec, an
// environment variable, a key of a ConfigMap function config. The usage text, --doc and the
// ConfigMap reader are made from Options, so none of them can forget one.
type Option struct {
	Field string // under RenderOptions' spec
	Env   string
	Key   string // of a ConfigMap function config
	Value string // how the variable or key writes a value
	Doc   string
}

// Options are the render options, in the order the help lists them. Limits (spec.limits) are
// set in RenderOptions only.
var Options = []Option{
	{"imageOverrides", EnvImageOverrides, "imageOverrides", "name=image,...",
		"the image of a catalog distribution (a mirror, an air-gapped registry)"},
	{"distributions", EnvDistributions, "distributions", "name=image,...",
		"distribution names the catalog lacks (rh-dev), each with its image"},
	{"ingress.className", EnvIngressClass, "ingressClass", "name", "the IngressClass of exposed servers"},
	{"ingress.domain", EnvIngressDomain, "ingressDomain", "domain", "exposed servers get the host <name>.<namespace>.<domain>"},
	{"ingress.controllerNamespace", EnvIngressControllerNS, "ingressControllerNamespace", "namespace",
		"the NetworkPolicy admits the ingress controller from this namespace"},
	{"platform", EnvPlatform, "platform", "kubernetes|openshift",
		"openshift: no fixed user and group (the SCC assigns them), a Route instead of an Ingress"},
	{"podSecurity", EnvPodSecurity, "podSecurity", "restricted|baseline|privileged",
		"the most privileged Pod Security Standard rendered pods may meet (restricted)"},
	{"registry.enabled", EnvRegistryEnabled, "registryEnabled", "true|false",
		"read base configs from the images' labels (network; cached by digest)"},
	{"registry.insecureHosts", EnvRegistryInsecure, "registryInsecureHosts", "host:port,...", "registries reached over plain HTTP"},
	{"controllerNamespace", EnvControllerNamespace, "controllerNamespace", "namespace",
		"where llsd-controller runs (llsd-system): NetworkPolicies let it read the servers' health"},
	{"requireAuthentication", EnvRequireAuth, "requireAuthentication", "true|false",
		"refuse to expose a server that authenticates nobody (a warning otherwise)"},
	{"openshiftAI.release", EnvOpenShiftAIRelease, "openshiftAIRelease", strings.Join(distribution.ReleaseNames(), "|"),
		"the OpenShift AI or Open Data Hub release of the cluster: rh-dev's image and config, the platform's CA bundle and dashboard (implies platform openshift)"},
	{"praxis.namespace", EnvPraxisNamespace, "praxisNamespace", "namespace",
		"the Praxis gateway's namespace, admitted to OGXServers in Praxis mode that name none (openshift-ingress)"},
	{"praxis.podLabels", EnvPraxisPodLabels, "praxisPodLabels", "key=value,...",
		"the Praxis gateway pods' labels (app=payload-processing)"},
}

// OptionsHelp lists the options for a usage text: each field, its variable and ConfigMap key,
// and what it does.
func OptionsHelp() string {
	var b strings.Builder
	for _, o := range Options {
		fmt.Fprintf(&b, "  spec.%s: %s\n      %s\n      (%s; ConfigMap key %s)\n", o.Field, o.Value, o.Doc, o.Env, o.Key)
	}
	return b.String()
}

// optionsFromConfigMap reads render options from a ConfigMap's data, as the KRM function
// catalog configures its functions: data: {platform: openshift, imageOverrides: "starter=..."}.
// A key llsd does not know is an error with the nearest key.
func optionsFromConfigMap(data map[string]string) (RenderOptions, error) {
	keys := make([]string, 0, len(Options))
	for _, o := range Options {
		keys = append(keys, o.Key)
	}
	slices.Sort(keys)
	for k := range data {
		if !slices.Contains(keys, k) {
			return RenderOptions{}, fmt.Errorf("the function config ConfigMap has key %q, which is no llsd option%s: its keys are %s",
				k, suggest.DidYouMean(k, keys), strings.Join(keys, ", "))
		}
	}
	return RenderOptions{}.withSettings("the function config ConfigMap", func(env string) (string, string) {
		for _, o := range Options {
			if o.Env == env {
				return data[o.Key], o.Key
			}
		}
		return "", ""
	})
}

// platformOptions are the options that loosen what a render lets through (the Pod Security
// Standard, the images distribution names and rh-dev stand for, the registries the renderer
// reaches out to, whether an exposed server must authenticate): the platform's to set, so Argo
// CD's ARGOCD_ENV_ form of them, which an Application's author writes, is refused, a variable
// of the renderer's environment pins them (set even to ""), and every source below may only
// tighten them (precedence.go).
var platformOptions = []string{EnvPodSecurity, EnvImageOverrides, EnvDistributions, EnvRegistryEnabled, EnvRegistryInsecure,
	EnvOpenShiftAIRelease, EnvRequireAuth, EnvPraxisNamespace, EnvPraxisPodLabels}

// MisspeltVariables says which variables of environ (NAME=value) look like a variable of a
// render option misspelt (LLSD_PLATFOM for LLSD_PLATFORM, also in Argo CD's ARGOCD_ENV_ form),
// which llsd would otherwise ignore without a word; others are named in extra (the variables
// llsd reads outside the options). Only near misses are said: another program's LLSD_ variable
// is none of llsd's business.
func MisspeltVariables(environ []string, extra ...string) []string {
	known := slices.Clone(extra)
	for _, o := range Options {
		known = append(known, o.Env)
	}
	var out []string
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		bare := strings.TrimPrefix(name, argoCDPrefix)
		if !strings.HasPrefix(bare, "LLSD_") || slices.Contains(known, bare) {
			continue
		}
		if near, ok := suggest.Nearest(bare, known); ok {
			out = append(out, fmt.Sprintf("%s is no variable llsd reads (did you mean %s?): it is ignored", name, strings.TrimSuffix(name, bare)+near))
		}
	}
	slices.Sort(out)
	return out
}

// PlatformOptions are the variables of the platform's options, which a sidecar that renders
// others' repositories sets, each of them, to pin it.
func PlatformOptions() []string { return slices.Clone(platformOptions) }

// argoCDPrefix is what Argo CD puts before the variables of an Application's plugin env.
const argoCDPrefix = "ARGOCD_ENV_"

// Tighten returns the options of a source (child) below another (o) by the precedence rule
// (precedence.go): child's settings on top, its unset ones o's, but it may only tighten the
// platform's options — a
// stricter Pod Security Standard, lower limits, the same image mappings, no registry reads the
// options above do not allow — and an error says which it would loosen. A tenant's directory
// cannot allow a hostPath volume, map a distribution to an image of its choice or reach out to
// registries the platform's options leave alone.
func (o RenderOptions) Tighten(child RenderOptions) (RenderOptions, error) {
	var problems []string
	out := child
	// What is not the platform's is the nearest source's that sets it.
	out.Spec.Platform = cmp.Or(child.Spec.Platform, o.Spec.Platform)
	out.Spec.ControllerNamespace = cmp.Or(child.Spec.ControllerNamespace, o.Spec.ControllerNamespace)
	out.Spec.Ingress.ClassName = cmp.Or(child.Spec.Ingress.ClassName, o.Spec.Ingress.ClassName)
	out.Spec.Ingress.Domain = cmp.Or(child.Spec.Ingress.Domain, o.Spec.Ingress.Domain)
	out.Spec.Ingress.ControllerNamespace = cmp.Or(child.Spec.Ingress.ControllerNamespace, o.Spec.Ingress.ControllerNamespace)
	if rank(child.Spec.PodSecurity) > rank(o.Spec.PodSecurity) {
		problems = append(problems, fmt.Sprintf("spec.podSecurity %s is looser than %s above it", podSecurityOf(child), podSecurityOf(o)))
	}
	if child.Spec.PodSecurity == "" {
		out.Spec.PodSecurity = o.Spec.PodSecurity
	}
	for _, images := range []struct {
		field        string
		above, below map[string]string
	}{{"imageOverrides", o.Spec.ImageOverrides, child.Spec.ImageOverrides}, {"distributions", o.Spec.Distributions, child.Spec.Distributions}} {
		for _, name := range slices.Sorted(maps.Keys(images.below)) {
			if images.below[name] != images.above[name] {
				problems = append(problems, fmt.Sprintf("spec.%s[%s] maps a name the options above do not map so", images.field, name))
			}
		}
	}
	out.Spec.ImageOverrides, out.Spec.Distributions = o.Spec.ImageOverrides, o.Spec.Distributions
	if child.Spec.Registry.Enabled && !o.Spec.Registry.Enabled {
		problems = append(problems, "spec.registry.enabled turns on registry reads the options above leave off")
	}
	out.Spec.Registry.Enabled = o.Spec.Registry.Enabled // false is unset: the platform's choice stands
	for _, host := range child.Spec.Registry.InsecureHosts {
		if !slices.Contains(o.Spec.Registry.InsecureHosts, host) {
			problems = append(problems, fmt.Sprintf("spec.registry.insecureHosts adds %s", host))
		}
	}
	if child.Spec.Registry.InsecureHosts == nil {
		out.Spec.Registry.InsecureHosts = o.Spec.Registry.InsecureHosts
	}
	switch {
	case child.Spec.OpenShiftAI == nil:
		out.Spec.OpenShiftAI = o.Spec.OpenShiftAI
	case o.Spec.OpenShiftAI == nil || child.Spec.OpenShiftAI.Release != o.Spec.OpenShiftAI.Release:
		// The release decides the image rh-dev runs, as imageOverrides does.
		problems = append(problems, fmt.Sprintf("spec.openshiftAI.release %s is not the release the options above name (%s)",
			child.Spec.OpenShiftAI.Release, releaseOf(o)))
	}
	// The gateway whose headers the servers believe is the platform's to name: a tenant's own pods
	// named here could say who the caller is.
	if p := child.Spec.Praxis; (p.Namespace != "" && p.Namespace != o.Spec.Praxis.Namespace) ||
		(p.PodLabels != nil && !slices.Equal(p.PodLabels, o.Spec.Praxis.PodLabels)) {
		problems = append(problems, "spec.praxis names another gateway than the options above: the gateway whose headers the "+
			"servers believe is the platform's")
	}
	out.Spec.Praxis = o.Spec.Praxis
	out.Spec.RequireAuthentication = o.Spec.RequireAuthentication || child.Spec.RequireAuthentication // false is unset
	out.Spec.Limits = tighterLimits(o.Spec.Limits, child.Spec.Limits)
	if len(problems) > 0 {
		return o, fmt.Errorf("options below others may only tighten the platform's options: %s", strings.Join(problems, "; "))
	}
	return out, nil
}

// releaseOf names the OpenShift AI release of options, for a message.
func releaseOf(o RenderOptions) string {
	if o.Spec.OpenShiftAI == nil {
		return "none"
	}
	return o.Spec.OpenShiftAI.Release
}

// rank orders the Pod Security Standards from the strictest (unset: restricted).
func rank(podSecurity string) int {
	return slices.Index([]string{render.PodSecurityRestricted, render.PodSecurityBaseline, render.PodSecurityPrivileged},
		cmp.Or(podSecurity, render.PodSecurityRestricted))
}

func podSecurityOf(o RenderOptions) string {
	return cmp.Or(o.Spec.PodSecurity, render.PodSecurityRestricted)
}

// tighterLimits keeps, for each limit, the lower of the two (zero: the default).
func tighterLimits(above, below LimitOptions) LimitOptions {
	lower := func(a, b, def int) int {
		a, b = cmp.Or(a, def), cmp.Or(b, def)
		return min(a, b)
	}
	return LimitOptions{LLSDs: lower(above.LLSDs, below.LLSDs, DefaultMaxLLSDs), Limits: pipeline.Limits{
		SettingsBytes: lower(above.SettingsBytes, below.SettingsBytes, pipeline.DefaultSettingsBytes),
		SettingsDepth: lower(above.SettingsDepth, below.SettingsDepth, pipeline.DefaultSettingsDepth)}}
}

// withSettings returns the options with settings on top, each looked up by the name of its
// environment variable: lookup returns the value and the name the user wrote it under (the
// variable, or a ConfigMap function config's key), which the errors name.
func (o RenderOptions) withSettings(source string, lookup func(env string) (value, writtenAs string)) (RenderOptions, error) {
	var used []string
	get := func(env string) (string, string) {
		v, as := lookup(env)
		if v != "" {
			used = append(used, as)
		}
		return v, as
	}
	for _, m := range []struct {
		env    string
		images *map[string]string
	}{{EnvImageOverrides, &o.Spec.ImageOverrides}, {EnvDistributions, &o.Spec.Distributions}} {
		v, as := get(m.env)
		if v == "" {
			continue
		}
		merged := maps.Clone(*m.images)
		if merged == nil {
			merged = map[string]string{}
		}
		for _, pair := range strings.Split(v, ",") {
			name, image, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok || name == "" || image == "" {
				return o, fmt.Errorf("%s: %q is not name=image", as, pair)
			}
			merged[name] = image
		}
		*m.images = merged
	}
	if v, as := get(EnvRegistryEnabled); v != "" {
		enabled, err := strconv.ParseBool(v)
		if err != nil {
			return o, fmt.Errorf("%s: %q is not true or false", as, v)
		}
		o.Spec.Registry.Enabled = enabled
	}
	if v, _ := get(EnvRegistryInsecure); v != "" {
		o.Spec.Registry.InsecureHosts = append(o.Spec.Registry.InsecureHosts, commaList(v)...)
	}
	if v, as := get(EnvRequireAuth); v != "" {
		required, err := strconv.ParseBool(v)
		if err != nil {
			return o, fmt.Errorf("%s: %q is not true or false", as, v)
		}
		o.Spec.RequireAuthentication = required
	}
	if v, _ := get(EnvOpenShiftAIRelease); v != "" {
		o.Spec.OpenShiftAI = &OpenShiftAIOptions{Release: v}
	}
	if v, _ := get(EnvPraxisPodLabels); v != "" {
		o.Spec.Praxis.PodLabels = commaList(v) // a selector: the one on top replaces the one below
	}
	for env, field := range map[string]*string{
		EnvIngressClass: &o.Spec.Ingress.ClassName, EnvIngressDomain: &o.Spec.Ingress.Domain,
		EnvIngressControllerNS: &o.Spec.Ingress.ControllerNamespace, EnvPlatform: &o.Spec.Platform,
		EnvPodSecurity: &o.Spec.PodSecurity, EnvControllerNamespace: &o.Spec.ControllerNamespace,
		EnvPraxisNamespace: &o.Spec.Praxis.Namespace,
	} {
		if v, _ := get(env); v != "" {
			*field = v
		}
	}
	if err := o.Validate(); err != nil && len(used) > 0 {
		slices.Sort(used)
		return o, fmt.Errorf("with the render options of %s (%s): %w", source, strings.Join(used, ", "), err)
	} else if err != nil {
		return o, err
	}
	return o, nil
}

// commaList reads the list a variable writes as "a, b".
func commaList(v string) []string {
	items := strings.Split(v, ",")
	for i, item := range items {
		items[i] = strings.TrimSpace(item)
	}
	return items
}
