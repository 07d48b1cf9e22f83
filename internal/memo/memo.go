// SPDX-License-Identifier: Apache-2.0

// Package memo keeps results that repeat across objects (the YAML text of a label, a
// template's rendering) so that they are computed once per process, within a bound: a cache
// that anyone's input can grow must stop growing.
package memo

import (
	"sync"
	"sync/atomic"
)

// Bounded remembers at most Max values; once full it keeps what it has and remembers nothing
// more (the values that repeat come first: the base configs' and the objects' common strings).
// Safe for concurrent use; reads take no lock.
type Bounded[K comparable, V any] struct {
	Max int64

	m sync.Map
	n atomic.Int64
}

// Load returns the value remembered for k.
func (b *Bounded[K, V]) Load(k K) (V, bool) {
	v, ok := b.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	return v.(V), true
}

// Store remembers v for k unless Max values are remembered already.
func (b *Bounded[K, V]) Store(k K, v V) {
	if b.n.Add(1) > b.Max { // a slot is taken before the store, so concurrent stores never overshoot
		b.n.Add(-1)
		return
	}
	if _, loaded := b.m.LoadOrStore(k, v); loaded {
		b.n.Add(-1)
	}
}

// Len is the number of values remembered.
func (b *Bounded[K, V]) Len() int { return int(b.n.Load()) }
