// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/kubeexpand"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// envReference matches the server's ${env.NAME...} substitution. The server replaces it
// everywhere in config.yaml with the pod's variable, and the pod's variables hold decoded
// secrets (LLSD_*), so a user value must not carry one: model: "${env.LLSD_STORAGE_SQL_PASSWORD}"
// would publish a password as a model id. There is no escape.
var envReference = lazyre.New(`\$\{env\.([^}:]*)`)

// checkUserValues refuses ${env. in every value of the spec that lands in config.yaml, and a
// credential written where it would be stored in clear. In settings, ${env.X} may read a
// variable the spec sets itself in spec.workload.overrides.env: with a plain value anywhere,
// from a Secret (valueFrom.secretKeyRef) only at a credential key, where a secret belongs.
func (g *generator) checkUserValues() {
	var topLevel bool // whether a settings value is a config key of its own, which secretRefs can set
	check := func(path *field.Path, value string, settings bool, key string) {
		for _, m := range envReference().FindAllStringSubmatch(redact.Decoded(value), -1) {
			// A variable the pod sets to a plain value is the user's own, in settings and
			// elsewhere: refused only when a Secret decides it, or nothing sets it.
			if g.plainOverride(m[1]) || settings && redact.IsCredentialKey(key) && g.secretOverride(m[1]) {
				continue
			}
			fix := "set the variable in ⟦spec.workload.overrides.env⟧ with a plain value (not from a Secret) and name it here, or write the value itself"
			if strings.HasPrefix(m[1], "LLSD_") {
				fix = "LLSD_* variables carry the secrets of the spec and are never read by a value"
			} else if HoldsASecret(m[1]) {
				fix = secretsHeld(m[1]) + " of the spec's Secrets, and is never read by a value"
			}
			g.refused.variables = true
			g.refuse(path, "", field.Invalid(path, value, fmt.Sprintf(
				"the server replaces ${env.%s} with the pod's variable, and the pod's variables hold decoded secrets: %s",
				m[1], fix)))
			return
		}
		if p := PlaceholderIn(value); p != "" {
			if !settings && urlField().MatchString(path.String()) {
				// the server would connect to the literal text: refused here, once
				g.refuse(path, "", field.Invalid(path, redact.URL(value), placeholderFix(p)))
				return
			}
			g.warn(path, "%s", placeholderFix(p))
		}
		if settings {
			g.checkClearCredential(path, key, value, topLevel)
		}
	}
	if r := g.spec.Resources; r != nil {
		for i, m := range r.Models {
			p := resourcesPath.Child("models").Index(i)
			check(p.Child("name"), m.Name, false, "")
			check(p.Child("providerModelId"), m.ProviderModelID, false, "")
			check(p.Child("quantization"), m.Quantization, false, "")
		}
		for i, s := range r.Shields {
			check(resourcesPath.Child("shields").Index(i), s, false, "")
		}
		for i, m := range r.MCPServers {
			p := resourcesPath.Child("mcpServers").Index(i)
			check(p.Child("url"), m.URL, false, "")
			check(p.Child("label"), m.Label, false, "")
		}
	}
	if vs := g.spec.VectorStores; vs != nil {
		check(vectorStoresPath.Child("defaultEmbeddingModel"), vs.DefaultEmbeddingModel, false, "")
	}
	walkSettings := func(settings *field.Path, tree map[string]any) {
		configyaml.WalkStrings(tree, func(at configyaml.Path, s string) {
			topLevel = len(at) == 1
			check(fieldPath(settings, at), s, true, lastKey(at))
		})
	}
	for _, list := range g.spec.Providers.APIs() {
		for i, p := range list.Providers {
			path := field.NewPath("spec", "providers", string(list.Name)).Index(i)
			check(path.Child("endpoint"), p.Endpoint, false, "")
			walkSettings(path.Child("settings"), g.settings(p, path.Child("settings")))
		}
	}
	for _, list := range g.spec.ExternalProviders.APIs() {
		for i, ref := range list.Providers {
			settings := field.NewPath("spec", "externalProviders", string(list.Name)).Index(i).Child("settings")
			walkSettings(settings, g.settings(v1alpha2.ProviderSpec{Settings: ref.Settings}, settings))
		}
	}
	walkSpecStrings(storagePath, g.spec.Storage, func(path *field.Path, s string) { check(path, s, false, "") })
	walkSpecStrings(authenticationPath, g.spec.Authentication, func(path *field.Path, s string) { check(path, s, false, "") })
	g.checkOverrideEnvCredentials()
}

// walkSpecStrings visits every string of a part of the spec (spec.storage, spec.authentication)
// but the Secret references: each lands in config.yaml or names what the server opens (a host,
// a namespace, a table, a CA file, an issuer). The part is walked as its JSON, so a string
// field its API gains later is visited without a line here (TestEveryStorageStringIsChecked
// sets each of storage's to a secret's ${env.}).
func walkSpecStrings[T any](base *field.Path, part *T, visit func(path *field.Path, s string)) {
	if part == nil {
		return
	}
	tree, err := runtime.DefaultUnstructuredConverter.ToUnstructured(part)
	if err != nil {
		panic(err) // a typed spec always converts
	}
	configyaml.WalkStrings(tree, func(at configyaml.Path, s string) {
		path := base
		for _, step := range at {
			if step == "secretKeyRef" {
				return // a Secret's name and key, which config.yaml never holds
			}
			if i, ok := step.(int); ok {
				path = path.Index(i)
			} else {
				path = path.Child(step.(string))
			}
		}
		visit(path, s)
	})
}

// urlField is a spec field that names where the server connects: an endpoint, a URL, a host.
var urlField = lazyre.New(`(?i)(endpoint|url|host)$`)

// refusals are the user values checkUserValues refused: the fields, and the credentials
// written in clear among them.
type refusals struct {
	paths   []string
	secrets []string
	// variables: a value reads the pod's variables. What the config means then is not what the
	// user meant, and generating it would only report the variables as missing.
	variables bool
}

// refuse adds err, the refusal of the value at path; secret is the value when it is a
// credential, else "".
func (g *generator) refuse(path *field.Path, secret string, err *field.Error) {
	g.errs = append(g.errs, err)
	g.refused.paths = append(g.refused.paths, path.String())
	if secret != "" {
		// also the parts of a URL that hold the credential, which an error may show alone
		g.refused.secrets = append(g.refused.secrets, secret)
		for _, part := range redact.Hidden(secret) {
			if len(part) >= minHiddenPart {
				g.refused.secrets = append(g.refused.secrets, part)
			}
		}
	}
}

// minHiddenPart is the shortest part of a URL masked on its own: a shorter one (a user
// name "a") would mask ordinary words of the messages.
const minHiddenPart = 4

// after returns the refusals followed by the errors found after them (errs[n:]), less those
// at or below a refused field, which would only say again what its refusal says, and with a
// refused credential hidden wherever another error would show it.
func (r refusals) after(errs field.ErrorList, n int) field.ErrorList {
	out := errs[:n:n]
	for _, e := range errs[n:] {
		if !r.covers(e.Field) {
			out = append(out, r.hide(e))
		}
	}
	return out
}

func (r refusals) covers(path string) bool {
	return slices.ContainsFunc(r.paths, func(p string) bool { return v1alpha2.Within(path, p) })
}

func (r refusals) hide(e *field.Error) *field.Error {
	c := *e
	for _, secret := range r.secrets {
		c.Detail = strings.ReplaceAll(c.Detail, secret, redact.Mask)
		if c.BadValue != nil && strings.Contains(fmt.Sprint(c.BadValue), secret) {
			c.BadValue = field.OmitValueType{}
		}
	}
	return &c
}

// checkClearCredential refuses a settings value that is a credential: the value of a
// credential key at any depth (network.headers.Authorization, an external provider's
// api_key), a URL with user info or a credential-looking parameter (a proxy, base_url), a
// private key. Settings are written into a ConfigMap in clear.
func (g *generator) checkClearCredential(path *field.Path, key, value string, topLevel bool) {
	fix := "put it in a Secret, read the Secret into a variable with ⟦spec.workload.overrides.env⟧[].valueFrom.secretKeyRef " +
		"and write ${env.<that variable>} here"
	if topLevel {
		fix = fmt.Sprintf("put it in secretRefs.%s (or apiKey) to read it from a Secret", key)
	}
	switch clearCredentialOf(key, value) {
	case credentialAtKey:
		g.refuse(path, value, field.Forbidden(path, fmt.Sprintf(
			"%s is a credential, and settings are written into a ConfigMap in clear: %s", key, fix)))
	case credentialInURL:
		g.refuse(path, value, field.Invalid(path, redact.URL(value), fmt.Sprintf(
			"holds a credential (user info or a token parameter), and settings are written into a ConfigMap in clear: "+
				"remove it from the URL, and %s", fix)))
	case privateKey:
		g.refuse(path, value, field.Forbidden(path, "is a private key, and settings are written into a ConfigMap in "+
			"clear: mount it from a Secret with ⟦spec.workload.overrides.volumes⟧ and write its file's path here"))
	case noCredential:
	}
}

// clearCredential is what credential a config value written in clear is.
type clearCredential int

const (
	noCredential    clearCredential = iota
	credentialAtKey                 // the value of a credential key (api_key, password, ...), not a file path
	credentialInURL                 // user info or a token parameter of a URL
	privateKey                      // a PEM private key
)

// clearCredentialOf classifies the value written at key; a variable's reference is no
// credential in clear.
func clearCredentialOf(key, value string) clearCredential {
	switch {
	case value == "" || envReference().MatchString(value):
		return noCredential
	case redact.IsCredentialKey(key) && !strings.HasPrefix(value, "/"):
		return credentialAtKey
	case redact.HasCredentials(value):
		return credentialInURL
	case strings.Contains(value, "PRIVATE KEY-----"):
		return privateKey
	}
	return noCredential
}

// checkOverrideEnvCredentials refuses a plain overrides.env value that is a URL holding a
// credential: the Deployment stores it in clear. One that is a placeholder gets a warning.
func (g *generator) checkOverrideEnvCredentials() {
	if g.spec.Workload == nil || g.spec.Workload.Overrides == nil {
		return
	}
	_, warnings := OverrideEnvProblems(g.spec.Workload.Overrides.Env)
	g.warnings = append(g.warnings, warnings...)
	for i, e := range g.spec.Workload.Overrides.Env {
		if e.ValueFrom == nil && redact.HasCredentials(e.Value) {
			path := overridesEnvPath.Index(i).Child("value")
			g.refuse(path, e.Value, envCredentialError(path, e.Value)) // the value itself, kept out of every other message
		}
	}
}

// OverrideEnvProblems are the problems of plain spec.workload.overrides.env values, whatever
// config the server runs (llsd's, or the user's own): a URL holding a credential, which the
// Deployment would store in clear, is an error; a placeholder a template left (${INFERENCE_MODEL},
// <your-model>) a warning.
func OverrideEnvProblems(env []corev1.EnvVar) (field.ErrorList, []Warning) {
	var errs field.ErrorList
	var warnings []Warning
	for i, e := range env {
		if e.ValueFrom != nil {
			continue
		}
		path := overridesEnvPath.Index(i).Child("value")
		if p := PlaceholderIn(e.Value); p != "" {
			warnings = append(warnings, Warning{Field: path.String(), Message: placeholderFix(p)})
		}
		if redact.HasCredentials(e.Value) {
			errs = append(errs, envCredentialError(path, e.Value))
		}
	}
	return errs, warnings
}

// envCredentialError refuses a plain variable whose value is a URL with a credential, shown
// redacted.
func envCredentialError(path *field.Path, value string) *field.Error {
	return field.Invalid(path, redact.URL(value), "holds a credential (user info or a token parameter), which the Deployment "+
		"would store in clear: remove it from the URL and pass it in another variable with valueFrom.secretKeyRef")
}

// lastKey is the last map key of a settings path ("" for a list item).
func lastKey(at configyaml.Path) string {
	for i := len(at) - 1; i >= 0; i-- {
		if k, ok := at[i].(string); ok {
			return k
		}
	}
	return ""
}

// plainOverride reports whether spec.workload.overrides.env sets name with a plain value.
func (g *generator) plainOverride(name string) bool {
	return g.plainVariable(name, map[string]plainness{})
}

// plainness is what plainVariable knows of a variable while it walks their references.
type plainness int

const (
	plainUnknown plainness = iota
	plainWalking           // a reference back to it is a cycle: not plain
	plainYes
	plainNo
)

// plainVariable reports whether overrides.env sets name to a plain value whose every $(VAR)
// is itself such a variable (a plain value that expands a variable of a Secret holds the
// Secret's value), each variable decided once: a variable that names itself, or a cycle, is
// not plain (it was an endless recursion).
func (g *generator) plainVariable(name string, seen map[string]plainness) bool {
	switch seen[name] {
	case plainYes:
		return true
	case plainNo, plainWalking:
		return false
	}
	seen[name] = plainWalking
	plain := g.overrideVar(name, func(e corev1.EnvVar) bool {
		return e.ValueFrom == nil && !slices.ContainsFunc(kubeexpand.References(e.Value), func(ref string) bool {
			return HoldsASecret(ref) || !g.plainVariable(ref, seen)
		})
	})
	seen[name] = plainNo
	if plain {
		seen[name] = plainYes
	}
	return plain
}

// secretOverride reports whether spec.workload.overrides.env sets name from a Secret key.
func (g *generator) secretOverride(name string) bool {
	return g.overrideVar(name, func(e corev1.EnvVar) bool { return e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil })
}

func (g *generator) overrideVar(name string, kind func(corev1.EnvVar) bool) bool {
	return !HoldsASecret(name) && slices.ContainsFunc(g.overrideEnv(), func(e corev1.EnvVar) bool { return e.Name == name && kind(e) })
}

// fieldPath is the spec field of a value at path inside the field base (settings[a][0]).
func fieldPath(base *field.Path, path configyaml.Path) *field.Path {
	for _, step := range path {
		if i, ok := step.(int); ok {
			base = base.Index(i)
		} else {
			base = base.Key(step.(string))
		}
	}
	return base
}
