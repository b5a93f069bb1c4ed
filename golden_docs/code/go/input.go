package cache

import (
	"fmt"
	"sync"
	"time"
)

// Entry is one cached value with its expiry.
type Entry[V any] struct {
	Value   V
	Expires time.Time
}

// Cache is a map guarded by a mutex.
type Cache[V any] struct {
	mu      sync.Mutex
	entries map[string]Entry[V]
}

// New makes an empty cache.
func New[V any]() *Cache[V] {
	return &Cache[V]{entries: map[string]Entry[V]{}}
}

// Get returns the value for key if it has not expired.
func (c *Cache[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || time.Now().After(e.Expires) {
		var zero V
		return zero, false
	}
	return e.Value, true
}

func describe(key string) string {
	return fmt.Sprintf("cache key %q", key)
}
