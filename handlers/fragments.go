package handlers

import (
	"context"
	"strings"
	"sync"

	"github.com/a-h/templ"

	"github.com/nocturne/storefront/internal/shop"
)

// fragments remembers rendered pieces of pages that are pure functions of
// a small key, so the pages that show them pay for them once per
// catalogue: a product page's variant choice and structured data (by the
// variant chosen and which variants can be bought), a listing's option
// filter (by the values chosen). The catalogue's version is in every key,
// so an edit is a new key and nothing remembered is ever stale.
type fragments struct {
	max     int // entries kept at most; the map starts afresh when full
	mu      sync.RWMutex
	entries map[fragmentKey]string
}

// Kinds of fragment.
const (
	fragmentPicker uint8 = iota + 1
	fragmentGroupLD
	fragmentFacets
)

type fragmentKey struct {
	kind    uint8
	version int64
	product string
	variant string
	// stock is two bits a variant, in order: what the page says of it
	// (sold out, a few left, in stock).
	stock   uint64
	options [shop.MaxOptions]shop.OptionPair
}

// maxFragmentsKept bounds fragments: a few KB each.
const maxFragmentsKept = 1024

func newFragments(maxEntries int) *fragments {
	return &fragments{max: maxEntries, entries: make(map[fragmentKey]string)}
}

// get returns the fragment of key, rendering c the first time.
func (f *fragments) get(ctx context.Context, key fragmentKey, c func() templ.Component) (string, error) {
	f.mu.RLock()
	html, ok := f.entries[key]
	f.mu.RUnlock()
	if ok {
		return html, nil
	}
	var b strings.Builder
	if err := c().Render(ctx, &b); err != nil {
		return "", err
	}
	f.mu.Lock()
	if len(f.entries) >= f.max {
		f.entries = make(map[fragmentKey]string)
	}
	f.entries[key] = b.String()
	f.mu.Unlock()
	return b.String(), nil
}

// stockSignature is the stock part of a fragment's key: what the page says
// of each variant, two bits each, so a sale that changes no word keeps
// the key. It reports false for more variants than the key holds.
func stockSignature(c shop.Choices) (uint64, bool) {
	if len(c.Variants) > 32 {
		return 0, false
	}
	var sig uint64
	for i, v := range c.Variants {
		state := uint64(0)
		switch {
		case !v.Buyable():
		case v.Stock <= shop.OnlyFewLeft:
			state = 1
		default:
			state = 2
		}
		sig |= state << (2 * i)
	}
	return sig, true
}
