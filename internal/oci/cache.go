// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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

// Cache keeps what was read from each image digest on disk. A digest's labels never change,
// so entries never expire. Writes go through a temporary file and a rename, so concurrent
// renders sharing the directory see a whole entry or none.
type Cache struct {
	Dir string
}

// entry is the file, below dir, that keeps what was read from digest.
func entry(dir, digest string) string {
	return filepath.Join(dir, strings.ReplaceAll(digest, ":", "-")+".json")
}

func (c *Cache) get(digest string) (*labelled, bool) {
	return readJSON[labelled](c, entry("", digest))
}

// put stores an entry; failing to cache (read-only home in a container) is not an error.
func (c *Cache) put(digest string, l *labelled) {
	c.writeJSON(entry("", digest), l)
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
