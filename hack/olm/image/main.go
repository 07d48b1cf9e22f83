// SPDX-License-Identifier: Apache-2.0

// Command image writes the release's OLM images as OCI layouts, for linux/amd64 and linux/arm64
// (they hold only files):
//
//   - OUT/olm/bundle: the bundle gen wrote (manifests/ and metadata/), labelled as its
//     metadata/annotations.yaml says, which OLM unpacks;
//   - OUT/olm/catalog: a file-based catalog of one package, llsd, whose channel stable holds the
//     bundle by digest, in /configs with the label that says so. OLM's CatalogSource serves it
//     with its own opm (spec.grpcPodConfig.extractContent), OLM v1's ClusterCatalog as it is.
//
// Each is tagged with every tag of TAGS (comma-separated) and made at the commit's time
// (LLSD_COMMIT_DATE), so a rebuild gives the same digests. Prints "<name> <digest>" per image.
//
//	go run ./image BUNDLE REGISTRY TAGS OUT
package main

import (
	"archive/tar"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
	"github.com/operator-framework/api/pkg/manifests"
	"sigs.k8s.io/yaml"
)

// Names of the images under the registry, and where the catalog keeps its configs.
const (
	BundleImage  = "llsd-bundle"
	CatalogImage = "llsd-catalog"
	configsDir   = "configs"
	configsLabel = "operators.operatorframework.io.index.configs.v1"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: image BUNDLE REGISTRY TAGS OUT")
		os.Exit(2)
	}
	if err := images(os.Args[1], os.Args[2], strings.Split(os.Args[3], ","), os.Args[4]); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func images(bundleDir, registry string, tags []string, out string) error {
	created, err := commitTime()
	if err != nil {
		return err
	}
	bundleFiles, err := filesOf(bundleDir)
	if err != nil {
		return err
	}
	labels, err := bundleLabels(bundleDir)
	if err != nil {
		return err
	}
	bundle, err := filesImage(bundleFiles, labels, created)
	if err != nil {
		return err
	}
	bundleDigest, err := write(bundle, filepath.Join(out, "olm", "bundle"), tags)
	if err != nil {
		return err
	}
	fmt.Println(BundleImage, bundleDigest)

	catalog, err := Catalog(bundleDir, registry+"/"+BundleImage+"@"+bundleDigest)
	if err != nil {
		return err
	}
	catalogImage, err := filesImage(map[string][]byte{configsDir + "/llsd/catalog.yaml": catalog},
		map[string]string{configsLabel: "/" + configsDir}, created)
	if err != nil {
		return err
	}
	catalogDigest, err := write(catalogImage, filepath.Join(out, "olm", "catalog"), tags)
	if err == nil {
		fmt.Println(CatalogImage, catalogDigest)
	}
	return err
}

// commitTime is LLSD_COMMIT_DATE, the time every file and image is stamped with.
func commitTime() (time.Time, error) {
	created := os.Getenv("LLSD_COMMIT_DATE")
	if created == "" {
		return time.Unix(0, 0).UTC(), nil // a build outside the release: the epoch, still reproducible
	}
	t, err := time.Parse(time.RFC3339, created)
	return t.UTC(), err
}

// filesOf reads every file under dir, by path relative to it.
func filesOf(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		files[filepath.ToSlash(rel)], err = os.ReadFile(path)
		return err
	})
	return files, err
}

// bundleLabels are the bundle's annotations, which an image of it carries as labels.
func bundleLabels(dir string) (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(dir, "metadata", "annotations.yaml"))
	if err != nil {
		return nil, err
	}
	var meta struct {
		Annotations map[string]string `json:"annotations"`
	}
	return meta.Annotations, yaml.UnmarshalStrict(data, &meta)
}

// filesImage is an index of a linux/amd64 and a linux/arm64 image holding files (one layer, owned
// by root, in sorted order) with labels, made at created.
func filesImage(files map[string][]byte, labels map[string]string, created time.Time) (v1.ImageIndex, error) {
	layer, err := filesLayer(files, created)
	if err != nil {
		return nil, err
	}
	index := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	for _, arch := range []string{"amd64", "arm64"} {
		img, err := mutate.AppendLayers(mutate.MediaType(empty.Image, types.OCIManifestSchema1), layer)
		if err != nil {
			return nil, err
		}
		img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
		img, err = mutate.ConfigFile(img, &v1.ConfigFile{Architecture: arch, OS: "linux", Created: v1.Time{Time: created},
			Config: v1.Config{Labels: labels}, RootFS: v1.RootFS{Type: "layers", DiffIDs: diffIDs(img)}})
		if err != nil {
			return nil, err
		}
		index = mutate.AppendManifests(index, mutate.IndexAddendum{Add: img,
			Descriptor: v1.Descriptor{Platform: &v1.Platform{OS: "linux", Architecture: arch}}})
	}
	return index, nil
}

func diffIDs(img v1.Image) []v1.Hash {
	cfg, err := img.ConfigFile()
	if err != nil {
		return nil
	}
	return cfg.RootFS.DiffIDs
}

// filesLayer is a gzipped tar of files with their directories, every entry at created.
func filesLayer(files map[string][]byte, created time.Time) (v1.Layer, error) {
	var buf bytes.Buffer
	archive := tar.NewWriter(&buf)
	dirs := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		for dir := filepath.Dir(name); dir != "."; dir = filepath.Dir(dir) {
			dirs[dir] = true
		}
	}
	for _, dir := range slices.Sorted(maps.Keys(dirs)) {
		if err := archive.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir + "/", Mode: 0o755, ModTime: created}); err != nil {
			return nil, err
		}
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		data := files[name]
		if err := archive.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: name, Mode: 0o644, Size: int64(len(data)), ModTime: created}); err != nil {
			return nil, err
		}
		if _, err := archive.Write(data); err != nil {
			return nil, err
		}
	}
	if err := archive.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer))
}

// write puts index into a new OCI layout at dir under each tag and returns its digest.
func write(index v1.ImageIndex, dir string, tags []string) (string, error) {
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	path, err := layout.Write(dir, empty.Index)
	if err != nil {
		return "", err
	}
	for _, tag := range tags {
		if err := path.AppendIndex(index, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": tag})); err != nil {
			return "", err
		}
	}
	digest, err := index.Digest()
	return digest.String(), err
}

// Catalog is the file-based catalog of the bundle in dir, published as image: the package
// llsd, its channel stable, and the bundle with the properties OLM resolves it by (its package
// and version, the APIs it provides, its objects).
func Catalog(dir, image string) ([]byte, error) {
	bundle, err := manifests.GetBundleFromDir(dir)
	if err != nil {
		return nil, err
	}
	csv := bundle.CSV
	if csv == nil {
		return nil, fmt.Errorf("%s holds no ClusterServiceVersion", dir)
	}
	labels, err := bundleLabels(dir)
	if err != nil {
		return nil, err
	}
	pkg, channel := labels["operators.operatorframework.io.bundle.package.v1"], labels["operators.operatorframework.io.bundle.channel.default.v1"]
	properties := []property{{Type: "olm.package", Value: map[string]string{"packageName": pkg, "version": csv.Spec.Version.String()}}}
	for _, crd := range bundle.V1CRDs {
		for _, v := range crd.Spec.Versions {
			if v.Served {
				properties = append(properties, property{Type: "olm.gvk", Value: map[string]string{"group": crd.Spec.Group, "kind": crd.Spec.Names.Kind, "version": v.Name}})
			}
		}
	}
	objects, err := filesOf(filepath.Join(dir, "manifests"))
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(objects)) {
		obj, err := yaml.YAMLToJSON(objects[name])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		properties = append(properties, property{Type: "olm.bundle.object", Value: map[string]string{"data": base64.StdEncoding.EncodeToString(obj)}})
	}
	related := []map[string]string{{"name": "", "image": image}}
	for _, r := range csv.Spec.RelatedImages {
		related = append(related, map[string]string{"name": r.Name, "image": r.Image})
	}
	docs := []any{
		map[string]any{"schema": "olm.package", "name": pkg, "defaultChannel": channel},
		map[string]any{"schema": "olm.channel", "package": pkg, "name": channel, "entries": []map[string]string{{"name": csv.Name}}},
		map[string]any{"schema": "olm.bundle", "package": pkg, "name": csv.Name, "image": image, "properties": properties, "relatedImages": related},
	}
	var out bytes.Buffer
	for _, doc := range docs {
		data, err := json.Marshal(doc)
		if err != nil {
			return nil, err
		}
		data, err = yaml.JSONToYAML(data)
		if err != nil {
			return nil, err
		}
		out.WriteString("---\n")
		out.Write(data)
	}
	return out.Bytes(), nil
}

type property struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
}
