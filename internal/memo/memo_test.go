// SPDX-License-Identifier: Apache-2.0

package memo_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/internal/memo"
)

// However many distinct keys arrive, from however many goroutines, the cache holds at most Max
// and still answers for what it kept.
func TestBoundedStopsGrowing(t *testing.T) {
	c := memo.Bounded[string, int]{Max: 100}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 1000 {
				c.Store(fmt.Sprintf("%d-%d", g, i), i)
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, 100, c.Len(), "full, and never over")
	kept, aKey := 0, ""
	for g := range 8 {
		for i := range 1000 {
			if v, ok := c.Load(fmt.Sprintf("%d-%d", g, i)); ok {
				assert.Equal(t, i, v)
				kept, aKey = kept+1, fmt.Sprintf("%d-%d", g, i)
			}
		}
	}
	assert.Equal(t, c.Len(), kept)
	before, _ := c.Load(aKey)
	c.Store(aKey, -1)
	c.Store("new", 1)
	after, _ := c.Load(aKey)
	_, stored := c.Load("new")
	assert.Equal(t, before, after, "a full cache keeps what it has")
	assert.False(t, stored, "and takes nothing more")
}
