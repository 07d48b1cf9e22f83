// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
)

// CacheDirEnv overrides where the label cache lives.
const CacheDirEnv = "LLSD_CACHE_DIR"

// DefaultCacheDir is $LLSD_CACHE_DIR, else <user cache dir>/llsd/oci ($XDG_CACHE_HOME or
// ~/.cache), else "" (no cache: every render asks the registry).
func DefaultCacheDir() string {
	if dir := os.Getenv(CacheDirEnv); dir != "" {
		return dir
	}
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "llsd", "oci")
	}
	return ""
}

// Cache keeps what was read from each image on disk, by repository and digest. What an
// image's digest names never changes (llsd trusts a layer's bytes only after checking them
// against their digest), so entries never expire. Writes go through a temporary file and a
// rename, so concurrent renders sharing the directory see a whole entry or none.
type Cache struct {
	Dir string
}

// entry is the file, below the cache directory, that keeps what was read of kind ("labels",
// "providers") from the image ref: a directory per repository (a hash of its name: any name
// is a safe file name, and no two names share one), a file per digest.
func entry(kind string, ref name.Digest) string {
	return filepath.Join(kind, hashName(ref.Context().Name()), strings.ReplaceAll(ref.DigestStr(), ":", "-")+".json")
}

// hashName turns a reference into a file name of its own: the hex SHA-256 of it.
func hashName(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func (c *Cache) get(ref name.Digest) (*labelled, bool) {
	return readJSON[labelled](c, entry("labels", ref))
}

// put stores an entry; failing to cache (read-only home in a container) is not an error.
func (c *Cache) put(ref name.Digest, l *labelled) {
	c.writeJSON(entry("labels", ref), l)
}

// read returns a cache file; a missing cache or file is a miss.
func (c *Cache) read(rel string) ([]byte, bool) {
	if c == nil || c.Dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(filepath.Join(c.Dir, rel))
	return data, err == nil
}

func readJSON[T any](c *Cache, rel string) (*T, bool) {
	data, ok := c.read(rel)
	if !ok {
		return nil, false
	}
	var v T
	if json.Unmarshal(data, &v) != nil {
		return nil, false // a damaged entry is read again from the registry and rewritten
	}
	return &v, true
}

func (c *Cache) writeJSON(rel string, v any) {
	if data, err := json.Marshal(v); err == nil {
		c.write(rel, data)
	}
}
