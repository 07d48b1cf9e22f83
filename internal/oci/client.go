// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Client reads base configs from image labels in registries.
type Client struct {
	// InsecureHosts are registries (host or host:port) spoken to over plain HTTP.
	// localhost and 127.0.0.1 need no entry.
	InsecureHosts []string
	// Cache, when set, answers for digests read before: a digest-pinned image costs no
	// request the second time, a tag one manifest request.
	Cache *Cache
	// Keychain finds credentials; nil means docker's config and credential helpers.
	Keychain authn.Keychain
	// Transport carries the requests; nil means go-containerregistry's default.
	Transport http.RoundTripper
	// Platform picks the image from a multi-platform index; nil means linux/amd64.
	Platform *v1.Platform
	// Timeout bounds one image's lookup; 0 means 30 seconds.
	Timeout time.Duration
}

// BaseConfig is a base config read from an image's labels.
type BaseConfig struct {
	// Config is the config.yaml.
	Config []byte
	// Version is the server version label, "" when the image has none.
	Version string
	// Source names the image digest and label, for messages and receipts.
	Source string
}

// BaseConfig reads the base config of image. Errors are *Error.
func (c *Client) BaseConfig(image string) (*BaseConfig, error) {
	return readByDigest(c, image, func(digest name.Digest, opts []remote.Option) (*BaseConfig, error) {
		l, ok := c.Cache.get(digest)
		if !ok {
			var err error
			if l, err = c.fetch(digest, opts); err != nil {
				return nil, classify(image, err)
			}
			c.Cache.put(digest, l)
		}
		if l.Missing {
			return nil, &Error{Kind: MissingLabels, Image: image}
		}
		return &BaseConfig{Config: l.Config, Version: l.Version, Source: "label " + l.Label + " of " + digest.Context().Name() + "@" + digest.DigestStr()}, nil
	})
}

// readByDigest resolves image to its digest (a tag with one HEAD request) and reads it
// with read, all within the client's timeout.
func readByDigest[T any](c *Client, image string, read func(digest name.Digest, opts []remote.Option) (T, error)) (T, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.timeout())
	defer cancel()
	opts := c.remoteOptions(ctx)
	digest, err := c.digest(image, opts)
	if err != nil {
		var none T
		return none, err
	}
	return read(digest, opts)
}

// fetch reads the labels of one image (the platform's image of an index) and the config
// they point to.
func (c *Client) fetch(ref name.Digest, opts []remote.Option) (*labelled, error) {
	img, err := remote.Image(ref, opts...) // an index resolves to the platform's image
	if err != nil {
		return nil, err
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	return fromLabels(cfg.Config.Labels, func(digest string) (v1.Layer, error) {
		h, err := v1.NewHash(digest)
		if err != nil {
			return nil, err
		}
		return img.LayerByDigest(h) // only layers of this image
	})
}

// digest is the digest image names: its own when pinned, else the registry's answer for the
// tag (one HEAD request), which the cache remembers for offline renders. Errors are *Error.
func (c *Client) digest(image string, opts []remote.Option) (name.Digest, error) {
	ref, err := c.parse(image)
	if err != nil {
		return name.Digest{}, &Error{Kind: NotFound, Image: image, Err: err}
	}
	if digest, pinned := ref.(name.Digest); pinned {
		return digest, nil
	}
	desc, err := remote.Head(ref, opts...)
	if err != nil {
		return name.Digest{}, classify(image, err)
	}
	digest := ref.Context().Digest(desc.Digest.String())
	if !c.insecure(ref) { // an answer over plain HTTP is no one's to trust but this render's
		c.Cache.rememberDigest(image, digest.DigestStr())
	}
	return digest, nil
}

func (c *Client) parse(image string) (name.Reference, error) {
	ref, err := name.ParseReference(image)
	if err != nil || !c.insecure(ref) {
		return ref, err
	}
	return name.ParseReference(image, name.Insecure)
}

// insecure: ref's registry is spoken to over plain HTTP.
func (c *Client) insecure(ref name.Reference) bool {
	return slices.Contains(c.InsecureHosts, ref.Context().RegistryStr())
}

func (c *Client) remoteOptions(ctx context.Context) []remote.Option {
	useFallbackRoots()
	keychain := c.Keychain
	if keychain == nil {
		keychain = authn.DefaultKeychain
	}
	platform := v1.Platform{OS: "linux", Architecture: "amd64"}
	if c.Platform != nil {
		platform = *c.Platform
	}
	opts := []remote.Option{remote.WithContext(ctx), remote.WithAuthFromKeychain(keychain), remote.WithPlatform(platform)}
	if c.Transport != nil {
		opts = append(opts, remote.WithTransport(c.Transport))
	}
	return opts
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return 30 * time.Second
}
