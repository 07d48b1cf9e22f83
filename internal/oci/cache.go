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

func (c *Cache) file(digest string) string {
	return filepath.Join(c.Dir, strings.ReplaceAll(digest, ":", "-")+".json")
}

func (c *Cache) get(digest string) (*labelled, bool) {
	if c == nil || c.Dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(c.file(digest))
	if err != nil {
		return nil, false
	}
	var l labelled
	if json.Unmarshal(data, &l) != nil {
		return nil, false // a damaged entry is read again from the registry and rewritten
	}
	return &l, true
}

// put stores an entry; failing to cache (read-only home in a container) is not an error.
func (c *Cache) put(digest string, l *labelled) {
	if data, err := json.Marshal(l); err == nil && c != nil {
		c.write(filepath.Base(c.file(digest)), data)
	}
}
