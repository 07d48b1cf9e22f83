// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// Result is a generated config and what the server container needs to run it.
type Result struct {
	// Config is config.yaml; Tree the same config as a tree, which later steps read instead of
	// parsing Config again (they must not change it).
	Config []byte
	Tree   map[string]any
	// Env are the container's environment variables: secrets as secretKeyRefs, sorted by name.
	Env []corev1.EnvVar
	// EnvFields names the spec field each variable of Env comes from.
	EnvFields map[string]string
	// SharedStateMissing lists the storage backends of the server's own stores that keep
	// their data in the pod (sqlite): each replica would have its own registry and
	// conversations. ReplicaLocalData lists the providers that keep files in the pod.
	SharedStateMissing, ReplicaLocalData []string
	// Launcher is the start-up launcher (a Python script, run by the server image's own
	// python3) when a storage secret must be split into the fields the server reads; nil
	// otherwise. See StartCommand.
	Launcher []byte
	// Version is the llama-stack server version the config is written for.
	Version distribution.Version
	// ProviderCount counts the enabled providers; ResourceCount the registered resources.
	ProviderCount, ResourceCount int
	// Authentication is what the server asks of its callers.
	Authentication Authentication
	// Warnings are things the user should know that do not stop the render.
	Warnings []Warning
}

// Warning is a non-fatal finding about a field: the API's one type of warning, so that what
// decoding and rendering find is said alike.
type Warning = api.Warning

// generator holds the state of one generation.
type generator struct {
	spec *v1alpha2.LlamaStackDistributionSpec
	dist *distribution.Resolved
	prof *profile.Profile
	cfg  map[string]any
	// shipped are the provider types of the base config per API: what the image installs.
	shipped map[string]map[string]bool
	// crIDs are the ids of spec.providers per server API, in list order.
	crIDs    map[string][]string
	env      envVars
	launcher launcherNeeds
	// removed are the server APIs spec.disabled removed, with their index in it.
	removed map[string]int
	// replaced are the base's providers of each unrouted API whose list the spec replaces.
	replaced map[string][]map[string]any
	errs     field.ErrorList
	refused  refusals
	warnings []Warning
}

// Generate writes the config.yaml of obj on the base config of dist, which it edits in place
// (dist.Base is Resolve's private copy: resolve again to generate again). obj must be
// defaulted and valid (v1alpha2.Default, v1alpha2.Validate); errors name the field to fix.
func Generate(obj *v1alpha2.LlamaStackDistribution, dist *distribution.Resolved) (*Result, field.ErrorList) {
	if err := dist.Profile.Load(); err != nil {
		return nil, field.ErrorList{field.InternalError(field.NewPath("spec", "distribution"), err)}
	}
	g := &generator{
		spec:    &obj.Spec,
		dist:    dist,
		prof:    dist.Profile,
		cfg:     dist.Base, // Resolve's private copy: generation edits it in place
		crIDs:   map[string][]string{},
		removed: map[string]int{},
		env:     envVars{},
		shipped: shippedTypes(dist.Base),
	}
	// A value that reads the pod's variables stops everything: what follows would only repeat
	// it. After a credential in clear, which means what it says, generation goes on so that
	// every problem is reported at once.
	if g.checkUserValues(); g.refused.variables {
		return nil, g.errs
	}
	refused := len(g.errs)
	for _, step := range []func(){
		g.enableDistributionProviders,
		g.addDistributionProviders,
		g.rejectUnsupported,
		g.applyStorage,
		g.applyProviders,
		g.applyExternalProviders,
		g.checkDistributionProviders,
		g.applyDisabled,
		g.checkDependencies,
		g.applyModels,
		g.applyShields,
		g.fixDefaultShield,
		g.applyTools,
		g.applyMCPServers,
		g.applyVectorStores,
		g.applyServer,
		g.applyAuthentication,
		g.applyServerSettings,
		g.applyStatePaths,
		g.checkBackendReferences,
		g.checkLocalStorage,
		g.checkPostgresCredentials,
		g.warnLoopBoundPostgres,
		g.checkNullDefaults,
		g.checkRequiredEnv,
		g.warnEnvEndpoints,
		g.checkEnvValues,
		g.checkEnvShields,
		g.warnOllamaModels,
	} {
		step()
	}
	if len(g.errs) > 0 {
		return nil, g.refused.after(g.errs, refused)
	}
	out, err := configyaml.Marshal(g.cfg)
	if err != nil {
		return nil, field.ErrorList{field.InternalError(field.NewPath("spec"), err)}
	}
	providers, resources := counts(g.cfg)
	env := g.env.list()
	return &Result{
		Config:             out,
		Tree:               g.cfg,
		Env:                env,
		EnvFields:          g.env.fields(),
		SharedStateMissing: localBackends(g.cfg),
		ReplicaLocalData:   localProviders(g.prof, g.cfg),
		Launcher:           g.launcher.script(),
		Version:            dist.Version,
		ProviderCount:      providers,
		ResourceCount:      resources,
		Authentication:     AuthenticationOf(g.cfg, slices.Concat(env, g.overrideEnv())),
		Warnings:           g.warnings,
	}, nil
}

func (g *generator) warn(path *field.Path, format string, args ...any) {
	g.warnings = append(g.warnings, Warning{Field: path.String(), Message: fmt.Sprintf(format, args...)})
}

// rejectUnsupported stops on spec fields llsd cannot render into a working config.
func (g *generator) rejectUnsupported() {
	for _, list := range g.spec.Providers.APIs() {
		if api := list.Name.ServerName(); len(list.Providers) > 0 && !g.prof.HasAPI(api) {
			g.errs = append(g.errs, field.Invalid(field.NewPath("spec", "providers", string(list.Name)), list.Providers[0].Provider,
				withoutAPI(g.prof, api, wording.Field("spec.providers."+string(list.Name)))))
		}
	}
	for _, list := range g.spec.ExternalProviders.APIs() {
		if api := list.Name.ServerName(); len(list.Providers) > 0 && !g.prof.HasAPI(api) {
			g.errs = append(g.errs, field.Invalid(field.NewPath("spec", "externalProviders", string(list.Name)), list.Providers[0].ProviderID,
				withoutAPI(g.prof, api, wording.Field("spec.externalProviders."+string(list.Name)))))
		}
	}
	if r := g.spec.Resources; r != nil && len(r.Shields) > 0 && !g.prof.HasAPI("safety") {
		g.errs = append(g.errs, field.Invalid(field.NewPath("spec", "resources", "shields"), r.Shields[0],
			withoutAPI(g.prof, "safety", "⟦spec.resources.shields⟧")))
	}
}

// withoutAPI is the message about a field that asks a server without api for it: what
// replaced the API, and the fix.
func withoutAPI(p *profile.Profile, api, field string) string {
	msg := p.WithoutAPI(api) + "; remove " + field
	if other := p.ServerWithAPI(api); other != "" {
		msg += ", or " + other
	}
	return msg
}

// counts returns the providers and registered resources the server will load whatever
// the environment: entries whose provider_id is a literal, not an ${env...} condition.
func counts(cfg map[string]any) (providers, resources int) {
	for _, api := range slices.Sorted(maps.Keys(mapAt(cfg, "providers"))) {
		for _, entry := range providerList(cfg, api) {
			if isLiteral(entry["provider_id"]) {
				providers++
			}
		}
	}
	for _, list := range mapAt(cfg, "registered_resources") {
		items, _ := list.([]any)
		for _, item := range items {
			if entry, ok := item.(map[string]any); ok && isLiteral(entry["provider_id"]) {
				resources++
			}
		}
	}
	return providers, resources
}
