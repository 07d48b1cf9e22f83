// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// The labels llsd reads and writes.
const (
	LabelBase64  = "io.llamastack.config.base64"
	LabelLayer   = "io.llamastack.config.layer"
	LabelPath    = "io.llamastack.config.path"
	LabelVersion = "io.llamastack.config.version"

	// llama-stack 0.8+ (OGX) images: com.ogx.config.<file>=<base64>, the default file named here.
	ogxDefaultConfig = "com.ogx.distribution.default-config"
	ogxConfigPrefix  = "com.ogx.config."
	ogxVersion       = "com.ogx.distribution.version"
)

// MaxInline is the largest config.yaml written into a label; larger ones are referenced by
// layer and path (the label keeps the image config blob small).
const MaxInline = 50 * 1024

// maxConfigSize bounds what is read from a label or layer: a base config is a few KB.
const maxConfigSize = 4 << 20

// labelled is the base config found in an image's labels.
type labelled struct {
	Config  []byte `json:"config,omitempty"`
	Version string `json:"version,omitempty"`
	// Label names where Config came from, for messages.
	Label string `json:"label,omitempty"`
	// Missing is true when the image has no config labels (cached like a hit: a digest's
	// labels never change).
	Missing bool `json:"missing,omitempty"`
}

// errCorrupt is a label that is present but cannot be used.
type errCorrupt struct {
	label string
	err   error
}

func (e *errCorrupt) Error() string { return fmt.Sprintf("label %s: %v", e.label, e.err) }

// layerOpener finds one of the image's layers by digest.
type layerOpener func(digest string) (v1.Layer, error)

// fromLabels finds the base config in labels, in the order base64, layer + path, OGX.
func fromLabels(labels map[string]string, openLayer layerOpener) (*labelled, error) {
	out := &labelled{Version: labels[LabelVersion]}
	if out.Version == "" {
		out.Version = labels[ogxVersion]
	}
	switch {
	case labels[LabelBase64] != "":
		out.Label = LabelBase64
		cfg, err := decodeBase64(labels[LabelBase64])
		if err != nil {
			return nil, &errCorrupt{LabelBase64, err}
		}
		out.Config = cfg
	case labels[LabelLayer] != "" || labels[LabelPath] != "":
		out.Label = LabelLayer
		if labels[LabelLayer] == "" || labels[LabelPath] == "" {
			return nil, &errCorrupt{LabelLayer, fmt.Errorf("%s and %s must be set together", LabelLayer, LabelPath)}
		}
		cfg, err := readFromLayer(openLayer, labels[LabelLayer], labels[LabelPath])
		if err != nil {
			return nil, &errCorrupt{LabelLayer, err}
		}
		out.Config = cfg
	case labels[ogxDefaultConfig] != "":
		out.Label = ogxConfigPrefix + labels[ogxDefaultConfig]
		value, ok := labels[out.Label]
		if !ok {
			return nil, &errCorrupt{ogxDefaultConfig, fmt.Errorf("names %q, but the image has no label %s", labels[ogxDefaultConfig], out.Label)}
		}
		cfg, err := decodeBase64(value)
		if err != nil {
			return nil, &errCorrupt{out.Label, err}
		}
		out.Config = cfg
	default:
		return &labelled{Missing: true}, nil
	}
	if len(bytes.TrimSpace(out.Config)) == 0 {
		return nil, &errCorrupt{out.Label, errors.New("the config is empty")}
	}
	return out, nil
}

func decodeBase64(s string) ([]byte, error) {
	if base64.StdEncoding.DecodedLen(len(s)) > maxConfigSize {
		return nil, fmt.Errorf("larger than %d bytes", maxConfigSize)
	}
	data, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
	if err != nil {
		return nil, fmt.Errorf("not base64: %w", err)
	}
	return data, nil
}
