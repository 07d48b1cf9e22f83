// SPDX-License-Identifier: Apache-2.0

package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// The render receipt: annotations a render writes on the LlamaStackDistribution it emits,
// from which the controller derives status. For example
//
//	metadata:
//	  annotations:
//	    llamastack.io/config-map: chat-config-3f2a9c1b7d
//	    llamastack.io/config-hash: 3f2a9c1b7d...      # also on the pod template
//	    llamastack.io/server-version: "0.7"
//	    llamastack.io/image: docker.io/llamastack/distribution-starter:0.7.1
//	    llamastack.io/base-config: embedded starter/0.7.yaml
//	    llamastack.io/config-source: embedded
//	    llamastack.io/provider-count: "12"
//	    llamastack.io/resource-count: "3"
//	    llamastack.io/renderer-version: v0.4.0
//	    llamastack.io/spec-hash: 9c1f0e2d4b6a8c0e
const (
	AnnotationConfigMap       = "llamastack.io/config-map"
	AnnotationConfigHash      = "llamastack.io/config-hash"
	AnnotationServerVersion   = "llamastack.io/server-version"
	AnnotationImage           = "llamastack.io/image"
	AnnotationBaseConfig      = "llamastack.io/base-config"
	AnnotationConfigSource    = "llamastack.io/config-source"
	AnnotationProviderCount   = "llamastack.io/provider-count"
	AnnotationResourceCount   = "llamastack.io/resource-count"
	AnnotationRendererVersion = "llamastack.io/renderer-version"
	AnnotationSpecHash        = "llamastack.io/spec-hash"
)

// ReceiptKeys are all receipt annotations: a new render replaces every one of them.
var ReceiptKeys = []string{AnnotationConfigMap, AnnotationConfigHash, AnnotationServerVersion, AnnotationImage,
	AnnotationBaseConfig, AnnotationConfigSource, AnnotationProviderCount, AnnotationResourceCount,
	AnnotationRendererVersion, AnnotationSpecHash}

// ConfigSource is where the config a server runs comes from.
type ConfigSource string

const (
	// ConfigSourceEmbedded: llsd's copy of the distribution's own config.
	ConfigSourceEmbedded ConfigSource = "embedded"
	// ConfigSourceLabel: the config in the image's labels.
	ConfigSourceLabel ConfigSource = "oci-label"
	// ConfigSourceOverride: the user's own config.yaml (spec.overrideConfig).
	ConfigSourceOverride ConfigSource = "override"
	// ConfigSourceConfigMap: the image's config from a ConfigMap (spec.distribution.baseConfig).
	ConfigSourceConfigMap ConfigSource = "configmap"
	// ConfigSourceImage: no config.yaml from llsd; the image runs its own.
	ConfigSourceImage ConfigSource = "image"
)

// Receipt is what one render produced.
type Receipt struct {
	// ConfigMap is the name of the ConfigMap the server reads its config from.
	ConfigMap string
	// ConfigHash identifies the config; the pod template carries it too.
	ConfigHash string
	// ServerVersion is the server version the config was generated for ("" for an override).
	ServerVersion string
	Image         string
	// BaseConfig names the base config for people: "embedded starter/0.7.yaml".
	BaseConfig   string
	ConfigSource ConfigSource
	// ProviderCount and ResourceCount count the providers and resources the server loads
	// whatever its environment.
	ProviderCount, ResourceCount int
	RendererVersion              string
	// SpecHash is SpecHash of the rendered spec: an object whose spec hashes otherwise was
	// edited after its render.
	SpecHash string
}

// ReadReceipt reads the receipt of a rendered object's annotations; ok is false when the
// object was not rendered by llsd.
func ReadReceipt(annotations map[string]string) (r Receipt, ok bool) {
	// An image that runs its own config has no ConfigMap; its receipt says so.
	if annotations[AnnotationConfigMap] == "" && ConfigSource(annotations[AnnotationConfigSource]) != ConfigSourceImage {
		return Receipt{}, false
	}
	count := func(key string) int { n, _ := strconv.Atoi(annotations[key]); return n }
	return Receipt{
		ConfigMap:       annotations[AnnotationConfigMap],
		ConfigHash:      annotations[AnnotationConfigHash],
		ServerVersion:   annotations[AnnotationServerVersion],
		Image:           annotations[AnnotationImage],
		BaseConfig:      annotations[AnnotationBaseConfig],
		ConfigSource:    ConfigSource(annotations[AnnotationConfigSource]),
		ProviderCount:   count(AnnotationProviderCount),
		ResourceCount:   count(AnnotationResourceCount),
		RendererVersion: annotations[AnnotationRendererVersion],
		SpecHash:        annotations[AnnotationSpecHash],
	}, true
}

// Annotations writes the receipt as annotations, leaving out what is empty (an override has
// no server version, base config or counts).
func (r Receipt) Annotations() map[string]string {
	out := map[string]string{}
	set := func(key, value string) {
		if value != "" {
			out[key] = value
		}
	}
	set(AnnotationConfigMap, r.ConfigMap)
	set(AnnotationConfigHash, r.ConfigHash)
	set(AnnotationServerVersion, r.ServerVersion)
	set(AnnotationImage, r.Image)
	set(AnnotationBaseConfig, r.BaseConfig)
	set(AnnotationConfigSource, string(r.ConfigSource))
	if r.ConfigSource != ConfigSourceOverride && r.ConfigSource != ConfigSourceImage {
		set(AnnotationProviderCount, strconv.Itoa(r.ProviderCount))
		set(AnnotationResourceCount, strconv.Itoa(r.ResourceCount))
	}
	set(AnnotationRendererVersion, r.RendererVersion)
	set(AnnotationSpecHash, r.SpecHash)
	return out
}

// SpecHash identifies a canonical spec: sha256 (16 hex) of its JSON with sorted keys, so the
// spec the API server returns hashes the same as the one rendered.
func SpecHash(spec *v1alpha2.LlamaStackDistributionSpec) (string, error) {
	data, err := json.Marshal(spec)
	if err != nil {
		return "", err
	}
	var tree any // through a generic tree: map keys sorted, embedded JSON (settings) normalised
	if err := json.Unmarshal(data, &tree); err != nil {
		return "", err
	}
	if data, err = json.Marshal(tree); err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8]), nil
}
