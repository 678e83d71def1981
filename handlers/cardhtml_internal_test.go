package handlers

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/views/components"
)

// TestCardHTML_SameBytesAsRendering: a remembered card is the card templ
// renders, byte for byte, whatever page it comes back to, and a change a
// shopper would see (stock, heart, price, photo) is never answered from
// memory with the old card.
func TestCardHTML_SameBytesAsRendering(t *testing.T) {
	t.Parallel()
	lamp := shop.Product{ID: "nb-001", Title: `Walnut "Desk" Lamp & Shade <small>`, Price: 4599, Rating: 4.3, ReviewCount: 120, Stock: 25}
	illustration := components.Picture{Src: "/static/img/categories/home.svg", Width: 400, Height: 400}
	photo := components.Picture{Src: "/img/p1/640.jpg?v=ab", WebPSrcset: "/img/p1/320.webp?v=ab 320w", JPEGSrcset: "/img/p1/320.jpg?v=ab 320w",
		Sizes: "92vw", Width: 640, Height: 480, Photo: true}
	card := func(change func(*components.Card)) components.Card {
		c := components.Card{Product: lamp, Image: illustration, ReturnTo: "/products", HeadingTag: "h3"}
		change(&c)
		return c
	}
	pages := []string{
		"/products",
		"/products?category=home&sort=desc&minPrice=20",
		`/search?q="lamp"<script>'x'`,
		"",
	}
	cards := []components.Card{
		card(func(*components.Card) {}),
		card(func(c *components.Card) { c.Stock = 3 }),
		card(func(c *components.Card) { c.Stock = 0 }),
		card(func(c *components.Card) { c.InWishlist = true }),
		card(func(c *components.Card) { c.Price = 3999 }),
		card(func(c *components.Card) { c.Image = photo }),
		card(func(c *components.Card) { c.Image = photo; c.Image.Lazy = true }),
		card(func(c *components.Card) { c.HeadingTag = "h2" }),
		card(func(c *components.Card) { c.ID, c.Title = "nb-002", "Linen Throw" }),
	}
	// A memory of 4 cards, fewer than there are: it must start afresh and
	// stay right.
	m := newCardHTML(4)
	for round := range 2 { // the first round renders, the second remembers
		for _, page := range pages {
			for i, c := range cards {
				c.ReturnTo = page
				var want, got strings.Builder
				if err := components.ProductCards([]components.Card{c}).Render(context.Background(), &want); err != nil {
					t.Fatal(err)
				}
				if err := m.Cards([]components.Card{c}).Render(context.Background(), &got); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("round %d, card %d, page %q:\n got %s\nwant %s", round, i, page, got.String(), want.String())
				}
			}
		}
	}
	if len(m.entries) > 4 {
		t.Errorf("%d cards kept, at most 4 allowed", len(m.entries))
	}

	// A whole grid at once, as a listing renders it.
	var want, got strings.Builder
	if err := components.ProductCards(cards).Render(context.Background(), &want); err != nil {
		t.Fatal(err)
	}
	if err := newCardHTML(maxCardsKept).Cards(cards).Render(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("grid differs:\n got %s\nwant %s", got.String(), want.String())
	}
}

// TestCardHTML_Concurrent: pages render at once on every connection; cards
// rendered, remembered and forgotten concurrently stay right (run with
// -race to check the locking too).
func TestCardHTML_Concurrent(t *testing.T) {
	t.Parallel()
	m := newCardHTML(3)
	var cards []components.Card
	for i := range 8 {
		cards = append(cards, components.Card{
			Product:  shop.Product{ID: "nb-00" + string(rune('1'+i)), Title: "Lamp", Price: shop.Cents(1000 + i), Stock: i},
			Image:    components.Picture{Src: "/static/img/x.svg", Width: 400, Height: 400},
			ReturnTo: "/products?page=" + string(rune('1'+i)), HeadingTag: "h3",
		})
	}
	want := make([]string, len(cards))
	for i, c := range cards {
		var b strings.Builder
		if err := components.ProductCard(c).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		want[i] = b.String()
	}
	errs := make(chan string, 8)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range 200 {
				i := (g + n) % len(cards)
				var b strings.Builder
				if err := m.Cards(cards[i:i+1]).Render(context.Background(), &b); err != nil {
					errs <- err.Error()
					return
				}
				if b.String() != want[i] {
					errs <- "card " + cards[i].ID + " differs"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
