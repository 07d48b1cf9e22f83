// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"cmp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/testsupport/yamlbomb"
	"github.com/llamastack/llsd/pkg/api"
)

// ownConfig is a config of the user's whose server.auth provider has type typ.
func ownConfig(typ string) string {
	return "version: 2\nimage_name: own\napis: [inference]\n" +
		"providers: {inference: [{provider_id: vllm, provider_type: remote::vllm, config: {base_url: \"http://vllm:8000/v1\"}}]}\n" +
		"server:\n  auth:\n    provider_config: {type: \"" + typ + "\"}\n"
}

// requireAuthentication decides on the config as the pod runs it, and fails closed (F3-F5 of
// round five): the key the command runs, every key when the command takes its file from a
// variable; the provider type as the kubelet expands $(VAR) and the server substitutes each
// ${env...}; a type that may resolve empty counts as none; a config llsd cannot read is an
// error naming what to put in the package. An Ingress without TLS in front of a server that
// authenticates carries bearer tokens in clear.
func TestRequireAuthenticationFailsClosed(t *testing.T) {
	const nobody = "authenticates nobody"
	for _, tc := range []struct {
		reason   string
		spec     string            // more of the LLSD's spec
		data     map[string]string // ConfigMap own, in the package (nil: not)
		expose   string            // networking.expose; a host with a certificate unless set
		optional bool              // without the option: a warning instead of the error
		want     string            // "" to render
	}{
		{reason: "the config's own provider", data: map[string]string{"config.yaml": ownConfig("kubernetes")}},
		{reason: "two references of a variable nothing sets", data: map[string]string{"config.yaml": ownConfig("${env.A:+kuber}${env.A:+netes}")},
			want: nobody},
		{reason: "the same variable set in the pod", spec: "  workload: {overrides: {env: [{name: A, value: \"1\"}]}}\n",
			data: map[string]string{"config.yaml": ownConfig("${env.A:+kuber}${env.A:+netes}")}},
		{reason: "a variable the kubelet expands to nothing",
			spec: "  workload: {overrides: {env: [{name: E, value: \"\"}, {name: AUTH_ISSUER, value: \"$(E)\"}]}}\n",
			data: map[string]string{"config.yaml": ownConfig("${env.AUTH_ISSUER:+kubernetes}")}, want: nobody},
		{reason: "a variable an optional reference may leave unset",
			spec: "  workload: {overrides: {env: [{name: AUTH_ISSUER, valueFrom: {configMapKeyRef: {name: idp, key: issuer, optional: true}}}]}}\n",
			data: map[string]string{"config.yaml": ownConfig("${env.AUTH_ISSUER:+kubernetes}")}, want: nobody},
		{reason: "a default the server falls back to", spec: "  workload: {overrides: {env: [{name: T, valueFrom: {secretKeyRef: {name: s, key: t}}}]}}\n",
			data: map[string]string{"config.yaml": ownConfig("${env.T:=kubernetes}")}},
		{reason: "the command may run another key", spec: "  workload: {overrides: {command: [ogx, run, \"/etc/llama-stack/$(F)\"], env: [{name: F, value: open.yaml}]}}\n",
			data: map[string]string{"config.yaml": ownConfig("kubernetes"), "open.yaml": ownConfig("")}, want: nobody},
		{reason: "the ConfigMap is not in the package", want: "llsd cannot read the config it runs (ConfigMap own, spec.overrideConfig, is not in the package: add it beside the LLSD)"},
		{reason: "the ConfigMap is not in the package, without the option", optional: true},
		{reason: "tokens in clear", data: map[string]string{"config.yaml": ownConfig("kubernetes")}, expose: "{hostname: chat.example.com}",
			want: "the server authenticates its callers, and the Ingress in front of it has no TLS: their bearer tokens would cross the network in clear"},
		{reason: "tokens in clear, without the option", data: map[string]string{"config.yaml": ownConfig("kubernetes")}, expose: "{hostname: chat.example.com}",
			optional: true, want: "warning: spec.networking.expose: the server authenticates its callers, and the Ingress in front of it has no TLS"},
		{reason: "a cert-manager issuer and no TLS section", data: map[string]string{"config.yaml": ownConfig("kubernetes")}, optional: true,
			expose: "{hostname: chat.example.com, annotations: {cert-manager.io/cluster-issuer: letsencrypt}}",
			want:   "warning: spec.networking.expose.annotations[cert-manager.io/cluster-issuer]: cert-manager issues a certificate for the Secret an Ingress's TLS section names, and this Ingress has none"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			expose := tc.expose
			if expose == "" {
				expose = "{hostname: chat.example.com, tlsSecretName: chat-tls}"
			}
			doc := "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: chat, namespace: ai}\nspec:\n" +
				"  distribution: {name: starter}\n  overrideConfig: {configMapName: own}\n  networking: {expose: " + expose + "}\n" + tc.spec
			decoded, errs := api.DecodeObject([]byte(doc))
			require.Empty(t, errs)
			opts := pipeline.Options{RendererVersion: "test", Render: render.Options{RequireAuthentication: !tc.optional}}
			if tc.data != nil {
				opts.ConfigMaps = map[string]map[string]string{"ai/own": tc.data}
			}
			res, errs := pipeline.RenderDecoded(decoded, opts)
			var problems []string
			for _, e := range errs {
				problems = append(problems, e.Error())
			}
			if res != nil {
				for _, w := range res.Warnings {
					problems = append(problems, "warning: "+w.Field+": "+w.Message)
				}
			}
			all := strings.Join(problems, "\n")
			if tc.want == "" {
				assert.Empty(t, errs)
				assert.NotContains(t, all, nobody)
				return
			}
			assert.Contains(t, all, tc.want)
			if !tc.optional {
				require.NotEmpty(t, errs, "an error under requireAuthentication")
				assert.Contains(t, errs.ToAggregate().Error(), tc.want)
			}
		})
	}
}

// Every reader of a config in a ConfigMap measures its aliases before it expands them: the
// key the server runs, the other keys a command could run, a base config (round five: the
// alias bounds on every reader). A billion laughs is refused with the fix, quickly, never
// expanded.
func TestConfigMapConfigsBoundTheirAliases(t *testing.T) {
	bomb := "version: 2\nimage_name: own\napis: [inference]\nserver: {port: 8321}\nx: {" + yamlbomb.Laughs(9) + "}\n"
	for _, tc := range []struct {
		reason, spec string
		data         map[string]string
		require      bool   // the render option requireAuthentication
		want         string // the refusal, unless it is the reader's own
	}{
		{reason: "the key the server runs", spec: "  overrideConfig: {configMapName: own}\n", data: map[string]string{"config.yaml": bomb}},
		{reason: "a key a command could run, exposed under requireAuthentication", spec: "  overrideConfig: {configMapName: own}\n" +
			"  workload: {overrides: {command: [ogx, run, \"/etc/llama-stack/$(F)\"], env: [{name: F, value: other.yaml}]}}\n" +
			"  networking: {expose: {hostname: chat.example.com, tlsSecretName: chat-tls}}\n",
			data: map[string]string{"config.yaml": ownConfig("kubernetes"), "other.yaml": bomb}, require: true,
			want: "key other.yaml of ConfigMap own, which the command may run, is no YAML llsd reads (its aliases (*name) expand it to more than"},
		{reason: "a base config", spec: "  distribution: {image: quay.io/example/custom:1, serverVersion: \"0.7\", baseConfig: {configMapName: own}}\n",
			data: map[string]string{"config.yaml": bomb}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			spec := tc.spec
			if !strings.Contains(spec, "distribution:") {
				spec = "  distribution: {name: starter}\n" + spec
			}
			decoded, errs := api.DecodeObject([]byte("apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\n" +
				"metadata: {name: chat, namespace: ai}\nspec:\n" + spec))
			require.Empty(t, errs)
			_, errs = pipeline.RenderDecoded(decoded, pipeline.Options{RendererVersion: "test",
				ConfigMaps: map[string]map[string]string{"ai/own": tc.data}, Render: render.Options{RequireAuthentication: tc.require}})
			require.NotEmpty(t, errs)
			assert.Contains(t, errs.ToAggregate().Error(), cmp.Or(tc.want, "its aliases (*name) expand it to more than"))
		})
	}
}
