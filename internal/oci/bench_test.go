// SPDX-License-Identifier: Apache-2.0

package oci_test

import (
	"testing"

	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/testsupport/registrytest"
)

// BenchmarkBaseConfig reads a labelled config from the in-process registry: the first read
// of a digest (manifest, config blob), a tag already cached (one HEAD), a pinned digest
// already cached (no request).
func BenchmarkBaseConfig(b *testing.B) {
	reg := registrytest.New(b)
	pinned := reg.Push(b, "acme/distro:1", registrytest.Image(b, map[string]string{oci.LabelBase64: b64(baseConfig)}, nil))
	tag := reg.Host + "/acme/distro:1"
	read := func(b *testing.B, c *oci.Client, image string) {
		if _, err := c.BaseConfig(image); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("uncached", func(b *testing.B) {
		c := &oci.Client{}
		for b.Loop() {
			read(b, c, pinned)
		}
	})
	cached := &oci.Client{Cache: &oci.Cache{Dir: b.TempDir()}}
	read(b, cached, pinned)
	b.Run("cached-tag", func(b *testing.B) {
		for b.Loop() {
			read(b, cached, tag)
		}
	})
	b.Run("cached-digest", func(b *testing.B) {
		for b.Loop() {
			read(b, cached, pinned)
		}
	})
}
