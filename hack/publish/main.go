// SPDX-License-Identifier: Apache-2.0

// Command publish pushes a release built in DIST (make release-snapshot) to its registry: every
// image, the Helm chart's OCI artifact and the OLM bundle and catalog images, each by the digest
// the release checked and signed, under each tag its layout gives it (the version, and for
// vX.Y.Z the vX.Y and vX it moves). It pushes nothing that changes a digest: what install.yaml,
// the chart and the catalog name by digest is what the registry serves. The offline signatures
// of the snapshot's throwaway key stay behind; a release signs what was pushed keyless, by the
// digests this writes to DIST/published.txt ("<reference>@<digest>" lines).
//
//	go run ./hack/publish DIST REGISTRY   # push to REGISTRY, which must be the one DIST names
//	go run ./hack/publish DIST            # push to a registry in this process and pull it all back
//
// Credentials are the container tools' (docker login, podman login, $REGISTRY_AUTH_FILE).
package main

import (
	"fmt"
	"io"
	"log"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
	"github.com/google/go-containerregistry/pkg/v1/validate"

	"github.com/llamastack/llsd/internal/release"
)

func main() {
	if len(os.Args) != 2 && len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: publish DIST [REGISTRY]")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2:]); err != nil {
		fmt.Fprintln(os.Stderr, "publish:", err)
		os.Exit(1)
	}
}

func run(dist string, to []string) error {
	artifacts, err := release.Artifacts(dist)
	if err != nil {
		return err
	}
	if len(to) == 1 {
		if named := artifacts[0].Registry; to[0] != named {
			return fmt.Errorf("%s names its images in %s, not %s: build the release with RELEASE_REGISTRY=%s", dist, named, to[0], to[0])
		}
		published, err := Publish(dist, artifacts, to[0], remote.WithAuthFromKeychain(authn.DefaultKeychain))
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dist, "published.txt"), []byte(strings.Join(published, "\n")+"\n"), 0o644)
	}
	server := httptest.NewServer(registry.New(registry.Logger(log.New(io.Discard, "", 0))))
	defer server.Close()
	host := strings.TrimPrefix(server.URL, "http://") + "/llamastack"
	published, err := Publish(dist, artifacts, host)
	if err != nil {
		return err
	}
	if err := Verify(dist, artifacts, host); err != nil {
		return err
	}
	fmt.Printf("publish: %d artifacts under %d references pushed to a registry in this process and pulled back by digest and tag\n", len(artifacts), len(published))
	return nil
}

// Tagged are the manifests of an artifact's layout that carry a release tag, by tag: the
// offline key's .sig and .att tags are left out.
func Tagged(dist string, a release.Image) (map[string]v1.Descriptor, layout.Path, error) {
	path, err := layout.FromPath(filepath.Join(dist, a.Layout))
	if err != nil {
		return nil, "", err
	}
	index, err := path.ImageIndex()
	if err != nil {
		return nil, "", err
	}
	manifest, err := index.IndexManifest()
	if err != nil {
		return nil, "", err
	}
	tagged := map[string]v1.Descriptor{}
	for _, d := range manifest.Manifests {
		tag := d.Annotations[release.RefNameAnnotation]
		if tag == a.SignatureTag() || tag == a.AttestationTag() {
			continue
		}
		if d.Digest.String() != a.Digest {
			return nil, "", fmt.Errorf("%s: tag %s is %s, not the release's %s", a.Layout, tag, d.Digest, a.Digest)
		}
		tagged[tag] = d
	}
	if len(tagged) == 0 {
		return nil, "", fmt.Errorf("%s holds no tagged manifest", a.Layout)
	}
	return tagged, path, nil
}

// Publish pushes every artifact to host/<name>:<tag> and returns "<reference>@<digest>" per
// artifact pushed.
func Publish(dist string, artifacts []release.Image, host string, options ...remote.Option) ([]string, error) {
	var published []string
	for _, a := range artifacts {
		tagged, path, err := Tagged(dist, a)
		if err != nil {
			return nil, err
		}
		for tag, d := range tagged {
			ref, err := name.NewTag(host+"/"+a.Name+":"+tag, name.Insecure)
			if err != nil {
				return nil, err
			}
			if err := push(path, d, ref, options...); err != nil {
				return nil, fmt.Errorf("%s: %w", ref, err)
			}
		}
		published = append(published, host+"/"+a.Name+"@"+a.Digest)
	}
	return published, nil
}

// push writes the manifest d of the layout at path to ref: an index with its manifests, or an
// image (the chart's artifact).
func push(path layout.Path, d v1.Descriptor, ref name.Reference, options ...remote.Option) error {
	if d.MediaType.IsIndex() {
		index, err := path.ImageIndex()
		if err != nil {
			return err
		}
		sub, err := index.ImageIndex(d.Digest)
		if err != nil {
			return err
		}
		return remote.WriteIndex(ref, sub, options...)
	}
	img, err := path.Image(d.Digest)
	if err != nil {
		return err
	}
	return remote.Write(ref, img, options...)
}

// pullWhole pulls every manifest and blob of ref and checks each against its digest.
func pullWhole(ref name.Reference, tagged map[string]v1.Descriptor) error {
	for _, d := range tagged {
		if d.MediaType.IsIndex() {
			index, err := remote.Index(ref)
			if err != nil {
				return err
			}
			return validate.Index(index)
		}
		img, err := remote.Image(ref)
		if err != nil {
			return err
		}
		return validate.Image(img)
	}
	return nil
}

// Verify pulls every artifact back from host by digest and by each tag, and wants the release's
// digest each time.
func Verify(dist string, artifacts []release.Image, host string) error {
	for _, a := range artifacts {
		tagged, _, err := Tagged(dist, a)
		if err != nil {
			return err
		}
		byDigest, err := name.ParseReference(host+"/"+a.Name+"@"+a.Digest, name.Insecure)
		if err != nil {
			return err
		}
		if err := pullWhole(byDigest, tagged); err != nil {
			return fmt.Errorf("%s: %w", byDigest, err)
		}
		refs := []string{byDigest.String()}
		for tag := range tagged {
			refs = append(refs, host+"/"+a.Name+":"+tag)
		}
		for _, r := range refs {
			ref, err := name.ParseReference(r, name.Insecure)
			if err != nil {
				return err
			}
			got, err := remote.Head(ref)
			if err != nil {
				return fmt.Errorf("%s: %w", r, err)
			}
			if got.Digest.String() != a.Digest {
				return fmt.Errorf("%s is %s, not the release's %s", r, got.Digest, a.Digest)
			}
		}
	}
	return nil
}
