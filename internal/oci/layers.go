// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"archive/tar"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
)

// Reading a file from an image's layers, as the container runtime would see it, and only
// from bytes that match the layer's digest.
//
// go-containerregistry checks a layer's digest when its stream ends, so a reader that stops
// at the file it wants trusts bytes nobody checked: a registry that serves the real manifest
// and tampered layer bytes would plant a file under a legitimate image's digest, and llsd's
// cache would keep it. Every layer llsd looks into is therefore read to its end before
// anything found in it is used: a mismatch is an error, and nothing is cached.
//
// The runtime applies layers bottom up, and within a layer later entries replace earlier ones
// (an OCI layer is a tar stream: the last entry of a path wins). A layer hides what lies
// below it with a whiteout of the path or of a directory above it (.wh.<name>), an opaque
// marker in a directory above it (.wh..wh..opq), or a non-directory where a directory above
// it was. llsd reads regular files only: the file as a symbolic link, a hard link or a
// directory is an error that says so (the runtime would follow a link llsd cannot resolve
// without the whole filesystem).

// maxLayerSize bounds the compressed size of a layer llsd reads to its end: a provider
// package or a config layer is small, and a hostile manifest must not make a render download
// gigabytes. The size comes from the manifest, whose digest is checked.
const maxLayerSize = 1 << 30

// fileState is what a layer says of one path.
type fileState int

const (
	// absent: the layer says nothing of the file; the layers below decide.
	absent fileState = iota
	// present: the layer has the file, a regular file.
	present
	// hidden: the layer deletes the file, or a directory above it, for the layers below.
	hidden
)

// layerFile is what one layer says of a file.
type layerFile struct {
	state fileState
	data  []byte
	// notRegular names what the layer has at the file's path instead of a regular file
	// ("a symbolic link"), when it has that.
	notRegular string
}

// fileFromTop returns a file of the image's filesystem (nil when absent), reading layers from
// the last one down until one has the file or hides it; each layer read is verified.
func fileFromTop(img v1.Image, file string) ([]byte, error) {
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	want := cleanPath(file)
	for i := len(layers) - 1; i >= 0; i-- {
		got, err := readLayer(layers[i], want)
		if err != nil {
			return nil, err
		}
		switch got.state {
		case present:
			return got.data, nil
		case hidden:
			return nil, nil
		}
	}
	return nil, nil
}

// readLayer scans one layer for a file and reads the layer to its end, so that its digest is
// checked before the file is used.
func readLayer(layer v1.Layer, want string) (layerFile, error) {
	if size, err := layer.Size(); err == nil && size > maxLayerSize {
		return layerFile{}, fmt.Errorf("a layer of %d bytes is larger than llsd reads (%d)", size, int64(maxLayerSize))
	}
	rc, err := layer.Uncompressed()
	if err != nil {
		return layerFile{}, err
	}
	defer rc.Close()
	return verifiedScan(rc, want)
}

// verifiedScan scans a layer's uncompressed stream for want, then reads what the tar reader
// left (padding, the compressed stream's end) to EOF: the registry client compares the digest
// there, and its error says the bytes were not the layer's.
func verifiedScan(r io.Reader, want string) (layerFile, error) {
	got, err := scanLayer(r, want)
	if err != nil {
		return layerFile{}, err
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		return layerFile{}, fmt.Errorf("the layer does not match its digest: %w", err)
	}
	if got.notRegular != "" {
		return layerFile{}, fmt.Errorf("/%s is %s in the image, not a regular file: llsd reads regular files only", want, got.notRegular)
	}
	return got, nil
}

// scanLayer reads every entry of a layer's tar stream and says what the layer does to want.
func scanLayer(r io.Reader, want string) (layerFile, error) {
	tr := tar.NewReader(r)
	var got layerFile
	hides := false
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return layerFile{}, err
		}
		name := cleanPath(h.Name)
		if name == want {
			if got, err = fileEntry(tr, h, want); err != nil {
				return layerFile{}, err
			}
			continue
		}
		hides = hides || hidesBelow(name, h.Typeflag, want)
	}
	if got.state == absent && hides {
		got.state = hidden
	}
	return got, nil
}

// fileEntry is an entry at the wanted path: later entries of the path replace it.
func fileEntry(tr *tar.Reader, h *tar.Header, want string) (layerFile, error) {
	switch h.Typeflag {
	case tar.TypeReg, tar.TypeRegA: //nolint:staticcheck // TypeRegA: old writers mark regular files so
	case tar.TypeSymlink:
		return layerFile{state: present, notRegular: "a symbolic link"}, nil
	case tar.TypeLink:
		return layerFile{state: present, notRegular: "a hard link"}, nil
	case tar.TypeDir:
		return layerFile{state: present, notRegular: "a directory"}, nil
	default:
		return layerFile{state: present, notRegular: "a special file"}, nil
	}
	if h.Size > maxConfigSize {
		return layerFile{}, fmt.Errorf("/%s is %d bytes, more than llsd reads (%d)", want, h.Size, maxConfigSize)
	}
	data, err := io.ReadAll(io.LimitReader(tr, maxConfigSize))
	return layerFile{state: present, data: data}, err
}

// hidesBelow reports whether an entry of a layer hides want in the layers below: a whiteout of
// want or of a directory above it, an opaque marker in a directory above it, or a
// non-directory at a directory above it.
func hidesBelow(name string, typeflag byte, want string) bool {
	if base := path.Base(name); strings.HasPrefix(base, ".wh.") {
		dir := path.Dir(name)
		if base == ".wh..wh..opq" {
			return isAncestor(dir, want)
		}
		deleted := path.Join(dir, strings.TrimPrefix(base, ".wh."))
		return deleted == want || isAncestor(deleted, want)
	}
	return typeflag != tar.TypeDir && isAncestor(name, want)
}

// isAncestor reports whether dir is a directory above p ("." is the root, above everything).
func isAncestor(dir, p string) bool {
	return dir == "." || dir == "" || strings.HasPrefix(p, dir+"/")
}

// readFromLayer reads one file from the layer the labels name (one of the image's own
// layers), the layer read to its end and verified.
func readFromLayer(openLayer layerOpener, digest, file string) ([]byte, error) {
	layer, err := openLayer(digest)
	if err != nil {
		return nil, err
	}
	got, err := readLayer(layer, cleanPath(file))
	if err != nil {
		return nil, fmt.Errorf("reading layer %s: %w", digest, err)
	}
	if got.state != present {
		return nil, fmt.Errorf("layer %s has no file %s", digest, file)
	}
	return got.data, nil
}

// cleanPath makes tar entry names and absolute image paths comparable: etc/x, ./etc/x and
// /etc/x are one file.
func cleanPath(p string) string { return strings.TrimPrefix(path.Clean("/"+p), "/") }
