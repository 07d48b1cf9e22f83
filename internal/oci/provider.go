// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"sigs.k8s.io/yaml"
)

// A provider image built for the deploy-time provider contract (the upstream operator's
// "deploy-time modularity, level 1") describes itself in one file and carries its wheels:
//
//	/lls-provider/lls-provider-spec.yaml
//	  apiVersion: llamastack.io/v1alpha1
//	  kind: ProviderPackage
//	  metadata: {name: acme-provider, version: 1.0.0, vendor: acme}
//	  spec:
//	    packageName: acme_provider          # the module the server imports
//	    providerType: remote::acme
//	    api: inference
//	    wheelPath: /lls-provider/packages/acme_provider-1.0.0-py3-none-any.whl
//	    dependencyWheels: [/lls-provider/packages/acme_client-2.1-py3-none-any.whl]
const (
	ProviderDir      = "/lls-provider"
	ProviderSpecPath = ProviderDir + "/lls-provider-spec.yaml"
)

// ProviderPackage is what a provider image says of itself (lls-provider-spec.yaml's spec),
// wheel paths made absolute.
type ProviderPackage struct {
	PackageName      string   `json:"packageName"`
	ProviderType     string   `json:"providerType"`
	API              string   `json:"api"`
	WheelPath        string   `json:"wheelPath"`
	DependencyWheels []string `json:"dependencyWheels,omitempty"`
	// Source names the image digest the file was read from, for messages.
	Source string `json:"source,omitempty"`
}

// Wheels are the package's wheels, dependencies first, then the provider's own.
func (p *ProviderPackage) Wheels() []string {
	return append(append([]string(nil), p.DependencyWheels...), p.WheelPath)
}

// ProviderReader reads what provider images say of themselves.
type ProviderReader interface {
	ProviderPackage(image string) (*ProviderPackage, error)
}

// ProviderPackage reads lls-provider-spec.yaml from image: the layers are read from the top
// down and only until the file is found (it sits in the last layers of such an image; a
// whiteout in a later layer hides it). The result is cached by digest, and the tag's digest
// is remembered, so that an offline render (OfflineCache) can use it. Errors are *Error.
func (c *Client) ProviderPackage(image string) (*ProviderPackage, error) {
	return readByDigest(c, image, func(digest name.Digest, opts []remote.Option) (*ProviderPackage, error) {
		if p, ok := c.Cache.provider(digest); ok {
			return p, nil
		}
		img, err := remote.Image(digest, opts...) // an index resolves to the platform's image
		if err != nil {
			return nil, classify(image, err)
		}
		data, err := fileFromTop(img, ProviderSpecPath)
		if err != nil {
			return nil, classify(image, err)
		}
		if data == nil {
			return nil, &Error{Kind: MissingProviderSpec, Image: image}
		}
		p, err := parseProviderSpec(data)
		if err != nil {
			return nil, &Error{Kind: CorruptProviderSpec, Image: image, Err: err}
		}
		p.Source = ProviderSpecPath + " of " + digest.Context().Name() + "@" + digest.DigestStr()
		c.Cache.putProvider(digest, p)
		return p, nil
	})
}

var (
	packageNamePattern  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	providerTypePattern = regexp.MustCompile(`^(remote|inline)::[a-z0-9][a-z0-9_.-]*$`)
	// apiNamePattern is an API as config.yaml names it; the value reaches messages, so nothing else.
	apiNamePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
)

// parseProviderSpec reads lls-provider-spec.yaml strictly: every problem, with its field.
func parseProviderSpec(data []byte) (*ProviderPackage, error) {
	var doc struct {
		APIVersion string          `json:"apiVersion"`
		Kind       string          `json:"kind"`
		Metadata   json.RawMessage `json:"metadata"`
		Spec       ProviderPackage `json:"spec"`
	}
	if err := yaml.UnmarshalStrict(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", ProviderSpecPath, err)
	}
	var problems []string
	if doc.APIVersion != "llamastack.io/v1alpha1" || doc.Kind != "ProviderPackage" {
		problems = append(problems, fmt.Sprintf("apiVersion %q, kind %q: want llamastack.io/v1alpha1 ProviderPackage", doc.APIVersion, doc.Kind))
	}
	p := &doc.Spec
	if !packageNamePattern.MatchString(p.PackageName) {
		problems = append(problems, fmt.Sprintf("spec.packageName %q: want the Python module the server imports (my_org.provider)", p.PackageName))
	}
	if !providerTypePattern.MatchString(p.ProviderType) {
		problems = append(problems, fmt.Sprintf("spec.providerType %q: want remote::<name> or inline::<name>", p.ProviderType))
	}
	switch {
	case p.API == "":
		problems = append(problems, "spec.api: missing: name the API the provider serves (inference, vector_io, ...)")
	case !apiNamePattern.MatchString(p.API):
		problems = append(problems, fmt.Sprintf("spec.api %q: want the name of an API in the server's spelling (inference, vector_io, ...)", p.API))
	}
	if p.WheelPath == "" {
		problems = append(problems, "spec.wheelPath: missing: name the provider's wheel")
	}
	p.WheelPath = underProviderDir(p.WheelPath)
	for i, w := range p.DependencyWheels {
		p.DependencyWheels[i] = underProviderDir(w)
	}
	for _, w := range p.Wheels() {
		if !strings.HasSuffix(w, ".whl") || !strings.HasPrefix(w, ProviderDir+"/") {
			problems = append(problems, fmt.Sprintf("wheel %q: want a .whl file under %s", w, ProviderDir))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%s: %s", ProviderSpecPath, strings.Join(problems, "; "))
	}
	return p, nil
}

// underProviderDir makes a wheel path absolute: relative paths are relative to /lls-provider.
func underProviderDir(p string) string {
	if p == "" || strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return path.Join(ProviderDir, p)
}

// OfflineCache answers for provider images read before, without a request: a render that may
// not reach registries (the default) uses what an online render cached.
type OfflineCache struct {
	Cache *Cache
}

// ProviderPackage returns the cached provider package of image, or an error that says how to
// fill the cache.
func (o OfflineCache) ProviderPackage(image string) (*ProviderPackage, error) {
	ref, err := name.ParseReference(image)
	if err != nil {
		return nil, &Error{Kind: NotFound, Image: image, Err: err}
	}
	digest, pinned := ref.(name.Digest)
	if !pinned {
		known := o.Cache.digestOf(image)
		if known == "" {
			return nil, &Error{Kind: ProviderSpecNotCached, Image: image}
		}
		digest = ref.Context().Digest(known)
	}
	if p, ok := o.Cache.provider(digest); ok {
		return p, nil
	}
	return nil, &Error{Kind: ProviderSpecNotCached, Image: image}
}

// The provider entries and the digest of each image reference sit next to the label entries.

func (c *Cache) provider(ref name.Digest) (*ProviderPackage, bool) {
	return readJSON[ProviderPackage](c, entry("providers", ref))
}

func (c *Cache) putProvider(ref name.Digest, p *ProviderPackage) {
	c.writeJSON(entry("providers", ref), p)
}

// rememberDigest records the digest a reference (a tag) named when it was last read.
func (c *Cache) rememberDigest(image, digest string) {
	c.write(filepath.Join("refs", hashName(image)), []byte(digest))
}

func (c *Cache) digestOf(image string) string {
	data, _ := c.read(filepath.Join("refs", hashName(image)))
	return strings.TrimSpace(string(data))
}

// write stores a cache file atomically (temporary file, rename); failing is not an error.
func (c *Cache) write(rel string, data []byte) {
	if c == nil || c.Dir == "" {
		return
	}
	file := filepath.Join(c.Dir, rel)
	if os.MkdirAll(filepath.Dir(file), 0o750) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
		_ = os.Remove(tmp.Name())
	}
}
