package handlers

import (
	"bytes"
	"context"
	"io"
	"strings"
	"sync"

	"github.com/a-h/templ"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
)

// cardHTML remembers rendered product cards.
//
// Rendering the twelve cards of a listing was about a quarter of the CPU of
// a page no cache can answer (a signed-in shopper's listing, a crawler's new
// filter URL), yet the same cards come back on page after page. A card's
// HTML is a pure function of its view model, components.Card, so the model
// itself is the key: a new price, stock level, photo or heart is a new key,
// and a remembered card can never be stale. Only ReturnTo, the page the
// card's forms come back to, differs from URL to URL; it is left out of the
// key and written between the remembered pieces, escaped as templ escapes
// it. This holds while components.Card stays plain values: a slice field
// would not compile as a key, and a pointer field would be compared by
// address, not by what it points to.
type cardHTML struct {
	// marker stands for ReturnTo while a card is rendered for keeping: a
	// random string no product text contains.
	marker  string
	max     int // entries kept at most; the map starts afresh when full
	mu      sync.RWMutex
	entries map[components.Card][]string // ReturnTo "" in the key; the pieces around each ReturnTo
}

// maxCardsKept bounds cardHTML: about 2 KB a card, so 4 MB at most, the
// cards of 170 grid pages.
const maxCardsKept = 2048

func newCardHTML(maxEntries int) *cardHTML {
	return &cardHTML{
		marker:  "rt-" + shop.RandomHex(16),
		max:     maxEntries,
		entries: make(map[components.Card][]string),
	}
}

// Cards renders cards as components.ProductCards does, byte for byte.
func (m *cardHTML) Cards(cards []components.Card) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		for _, c := range cards {
			pieces, err := m.pieces(ctx, c)
			if err != nil {
				return err
			}
			back := templ.EscapeString(c.ReturnTo)
			for i, p := range pieces {
				if i > 0 {
					if _, err := io.WriteString(w, back); err != nil {
						return err
					}
				}
				if _, err := io.WriteString(w, p); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// pieces returns card c's HTML cut where its ReturnTo goes, rendering and
// keeping it the first time.
func (m *cardHTML) pieces(ctx context.Context, c components.Card) ([]string, error) {
	c.ReturnTo = "" // the key: every field but ReturnTo
	m.mu.RLock()
	pieces, ok := m.entries[c]
	m.mu.RUnlock()
	if ok {
		return pieces, nil
	}
	marked := c
	marked.ReturnTo = m.marker
	var buf bytes.Buffer
	if err := components.ProductCard(marked).Render(ctx, &buf); err != nil {
		return nil, err
	}
	pieces = strings.Split(buf.String(), m.marker)
	m.mu.Lock()
	if len(m.entries) >= m.max {
		// Old catalogue versions and stock levels never come back: start
		// afresh rather than track which entries are still in use.
		clear(m.entries)
	}
	m.entries[c] = pieces
	m.mu.Unlock()
	return pieces, nil
}
