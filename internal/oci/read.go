// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
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

// layerOpener opens the uncompressed tar stream of one of the image's layers by digest.
type layerOpener func(digest string) (io.ReadCloser, error)

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

// readFromLayer reads one file from a layer without unpacking anything else.
func readFromLayer(openLayer layerOpener, digest, file string) ([]byte, error) {
	rc, err := openLayer(digest)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, found, err := findInTar(rc, file)
	if err != nil {
		return nil, fmt.Errorf("reading layer %s: %w", digest, err)
	}
	if !found {
		return nil, fmt.Errorf("layer %s has no file %s", digest, file)
	}
	return data, nil
}

// findInTar returns the content of file in a tar stream.
func findInTar(r io.Reader, file string) ([]byte, bool, error) {
	return scanTar(r, cleanPath(file), func(string) bool { return false })
}

// scanTar returns the content of the regular file want (a cleanPath) of a tar stream, at
// most maxConfigSize bytes. An entry for which hides is true ends the scan as found, with no
// content (a whiteout of the file); found is false when the stream has neither.
func scanTar(r io.Reader, want string, hides func(name string) bool) ([]byte, bool, error) {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		name := cleanPath(h.Name)
		if hides(name) {
			return nil, true, nil
		}
		if name != want || h.Typeflag != tar.TypeReg {
			continue
		}
		if h.Size > maxConfigSize {
			return nil, false, fmt.Errorf("/%s is %d bytes, more than llsd reads (%d)", want, h.Size, maxConfigSize)
		}
		data, err := io.ReadAll(tr)
		return data, true, err
	}
}

// cleanPath makes tar entry names and absolute image paths comparable: etc/x, ./etc/x and
// /etc/x are one file.
func cleanPath(p string) string { return strings.TrimPrefix(path.Clean("/"+p), "/") }
