// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"archive/tar"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/llamastack/llsd/internal/lazyre"
)

// LabelOptions say what `llsd label-image` writes.
type LabelOptions struct {
	// Path is the config's path in the image; "" looks for $RUN_CONFIG_PATH, then the
	// $DISTRO_NAME distribution's config.yaml (run.yaml before 0.4) in the llama_stack package
	// (ogx from 0.8).
	Path string
	// ServerVersion is the llama-stack version; "" reads it from the installed package
	// (site-packages/llama_stack-<version>.dist-info).
	ServerVersion string
}

// Labelled is what Label wrote, per image (one per platform of an index).
type Labelled struct {
	Platform string // os/arch, "" for a single image
	Path     string
	Size     int
	Layer    string // the layer label's digest, "" when the config is inline
	Version  string
}

// Label copies src to dst with the config labels added: the config inline when it is under
// MaxInline, else its layer and path; and the server version. Layers are not touched, so dst
// shares them with src. Each image of a multi-platform index is labelled.
func (c *Client) Label(src, dst string, opts LabelOptions) (string, []Labelled, error) {
	srcRef, err := c.parse(src)
	if err != nil {
		return "", nil, err
	}
	dstRef, err := c.parse(dst)
	if err != nil {
		return "", nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*c.timeout()) // reads layers
	defer cancel()
	ropts := c.remoteOptions(ctx)
	desc, err := remote.Get(srcRef, ropts...)
	if err != nil {
		return "", nil, classify(src, err)
	}
	if !desc.MediaType.IsIndex() {
		img, err := desc.Image()
		if err != nil {
			return "", nil, classify(src, err)
		}
		out, l, err := labelImage(img, opts)
		if err != nil {
			return "", nil, err
		}
		return write(dstRef, out, ropts, []Labelled{l}, remote.Write)
	}
	idx, err := desc.ImageIndex()
	if err != nil {
		return "", nil, classify(src, err)
	}
	out, labelled, err := labelIndex(idx, opts)
	if err != nil {
		return "", nil, err
	}
	return write(dstRef, out, ropts, labelled, remote.WriteIndex)
}

func write[T interface{ Digest() (v1.Hash, error) }](ref name.Reference, obj T, opts []remote.Option, l []Labelled,
	put func(name.Reference, T, ...remote.Option) error) (string, []Labelled, error) {
	if err := put(ref, obj, opts...); err != nil {
		return "", nil, classify(ref.String(), err)
	}
	digest, err := obj.Digest()
	if err != nil {
		return "", nil, err
	}
	return ref.Context().Digest(digest.String()).String(), l, nil
}

// labelIndex labels every image of an index; entries that are not images (attestations
// without a platform, nested indexes) are kept as they are.
func labelIndex(idx v1.ImageIndex, opts LabelOptions) (v1.ImageIndex, []Labelled, error) {
	manifest, err := idx.IndexManifest()
	if err != nil {
		return nil, nil, err
	}
	out := mutate.IndexMediaType(empty.Index, manifest.MediaType)
	var labelled []Labelled
	for _, d := range manifest.Manifests {
		if !d.MediaType.IsImage() || d.Platform == nil || d.Platform.OS == "unknown" {
			child, err := indexChild(idx, d)
			if err != nil {
				return nil, nil, err
			}
			out = mutate.AppendManifests(out, mutate.IndexAddendum{Add: child, Descriptor: d})
			continue
		}
		img, err := idx.Image(d.Digest)
		if err != nil {
			return nil, nil, err
		}
		labelledImg, l, err := labelImage(img, opts)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", d.Platform, err)
		}
		l.Platform = d.Platform.String()
		labelled = append(labelled, l)
		out = mutate.AppendManifests(out, mutate.IndexAddendum{Add: labelledImg,
			Descriptor: v1.Descriptor{Platform: d.Platform, Annotations: d.Annotations}})
	}
	if len(labelled) == 0 {
		return nil, nil, errors.New("the index has no platform images to label")
	}
	return out, labelled, nil
}

// indexChild returns an index entry as something AppendManifests can write.
func indexChild(idx v1.ImageIndex, d v1.Descriptor) (mutate.Appendable, error) {
	if d.MediaType.IsIndex() {
		return idx.ImageIndex(d.Digest)
	}
	return idx.Image(d.Digest)
}

func labelImage(img v1.Image, opts LabelOptions) (v1.Image, Labelled, error) {
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, Labelled{}, err
	}
	found, err := findConfig(img, cfg, opts)
	if err != nil {
		return nil, Labelled{}, err
	}
	labels := map[string]string{}
	for k, v := range cfg.Config.Labels {
		labels[k] = v
	}
	for _, k := range []string{LabelBase64, LabelLayer, LabelPath, LabelVersion} {
		delete(labels, k) // relabelling replaces
	}
	l := Labelled{Path: found.path, Size: len(found.config), Version: found.version}
	if len(found.config) <= MaxInline {
		labels[LabelBase64] = base64.StdEncoding.EncodeToString(found.config)
	} else {
		labels[LabelLayer], labels[LabelPath], l.Layer = found.layer, found.path, found.layer
	}
	labels[LabelVersion] = found.version
	newCfg := cfg.Config
	newCfg.Labels = labels
	out, err := mutate.Config(img, newCfg)
	return out, l, err
}

type foundConfig struct {
	path, layer, version string
	config               []byte
}

// distInfo matches the metadata directory of the installed server package: llama_stack, or
// ogx from 0.8.
var distInfo = lazyre.New(`(?:^|/)(?:llama_stack|ogx)-(\d+\.\d+\.\d+[^/]*)\.dist-info/`)

// findConfig reads the layers from the top down until the config and the server version are
// known: the topmost layer holding the config is the one the label names.
func findConfig(img v1.Image, cfg *v1.ConfigFile, opts LabelOptions) (*foundConfig, error) {
	match, describe := configMatcher(cfg, opts.Path)
	if match == nil {
		return nil, errors.New(describe)
	}
	found := &foundConfig{version: opts.ServerVersion}
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	for i := len(layers) - 1; i >= 0 && (found.config == nil || found.version == ""); i-- {
		if err := scanForConfig(layers[i], match, found); err != nil {
			return nil, err
		}
	}
	if found.config == nil {
		return nil, fmt.Errorf("the image has no %s: pass --path with the config's path in the image", describe)
	}
	if found.version == "" {
		return nil, errors.New("cannot tell the server version (no llama_stack-*.dist-info or ogx-*.dist-info in the image): pass --server-version")
	}
	return found, nil
}

// scanForConfig reads one layer for the config and the server version, to its end: the bytes
// are checked against the layer's digest before what was found is written into a label.
func scanForConfig(layer v1.Layer, match func(string) bool, found *foundConfig) error {
	digest, err := layer.Digest()
	if err != nil {
		return err
	}
	rc, err := layer.Uncompressed()
	if err != nil {
		return err
	}
	defer rc.Close()
	if err := scanEntries(tar.NewReader(rc), digest, match, found); err != nil {
		return fmt.Errorf("reading layer %s: %w", digest, err)
	}
	if _, err := io.Copy(io.Discard, rc); err != nil {
		return fmt.Errorf("layer %s does not match its digest: %w", digest, err)
	}
	return nil
}

func scanEntries(tr *tar.Reader, digest v1.Hash, match func(string) bool, found *foundConfig) error {
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := cleanPath(h.Name)
		if found.version == "" {
			if m := distInfo().FindStringSubmatch(name + "/"); m != nil {
				found.version = m[1]
			}
		}
		// the topmost layer with the config decides; within it, the last entry (as the runtime applies it)
		if (found.config == nil || found.layer == digest.String()) && h.Typeflag == tar.TypeReg && match(name) {
			if h.Size > maxConfigSize {
				return fmt.Errorf("/%s is %d bytes, more than a config can be", name, h.Size)
			}
			if found.config, err = io.ReadAll(tr); err != nil {
				return err
			}
			found.path, found.layer = "/"+name, digest.String()
		}
	}
}

// configMatcher says which file is the config: the given path, $RUN_CONFIG_PATH, or the
// distribution's config in the llama_stack package ($DISTRO_NAME).
func configMatcher(cfg *v1.ConfigFile, path string) (func(string) bool, string) {
	env := map[string]string{}
	for _, kv := range cfg.Config.Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	if path == "" {
		path = env["RUN_CONFIG_PATH"]
	}
	if path != "" {
		want := cleanPath(path)
		return func(name string) bool { return name == want }, "/" + want
	}
	distro := env["DISTRO_NAME"]
	if distro == "" {
		return nil, "the image sets neither RUN_CONFIG_PATH nor DISTRO_NAME: pass --path with the config's path in the image"
	}
	var suffixes []string
	for _, pkg := range []string{"llama_stack", "ogx"} {
		suffixes = append(suffixes, "/"+pkg+"/distributions/"+distro+"/config.yaml", "/"+pkg+"/distributions/"+distro+"/run.yaml")
	}
	return func(name string) bool {
		return slices.ContainsFunc(suffixes, func(s string) bool { return strings.HasSuffix(name, s) })
	}, "llama_stack/distributions/" + distro + "/config.yaml (ogx/... from 0.8)"
}
