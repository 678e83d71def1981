package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// newUser stores an account and returns it.
func newUser(t *testing.T, s Store, id, email string) *shop.User {
	t.Helper()
	u := &shop.User{ID: id, Email: email, DisplayName: "Night Owl"}
	must(t, s.CreateUser(context.Background(), u, []byte("hash-"+id)))
	return u
}

func wishlistOf(t *testing.T, s Store, userID string) []string {
	t.Helper()
	items, err := s.Wishlist(context.Background(), userID)
	must(t, err)
	var out []string
	for _, it := range items {
		out = append(out, it.Product.ID)
	}
	return out
}

// testWishlist covers wishlists: newest first, adding twice, toggling (also
// racing itself), and moving to the cart in one step.
func testWishlist(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("AddRemove", func(t *testing.T) {
		s, _, clock := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		newUser(t, s, "u2", "lark@example.com")
		must(t, s.AddToWishlist(ctx, "u1", "lamp-1"))
		clock.Add(time.Second)
		must(t, s.AddToWishlist(ctx, "u1", "tv-1"))
		clock.Add(time.Second)
		must(t, s.AddToWishlist(ctx, "u1", "lamp-1")) // already there: stays as it was
		items, err := s.Wishlist(ctx, "u1")
		must(t, err)
		if len(items) != 2 || !sameProduct(items[0].Product, fixture[5]) || items[1].Product.ID != "lamp-1" || !items[1].AddedAt.Equal(clock.Now().Add(-2*time.Second)) {
			t.Errorf("wishlist: %+v, want tv-1 then lamp-1 (newest first, first add kept)", items)
		}
		set, err := s.WishlistIDs(ctx, "u1")
		if err != nil || len(set) != 2 || !set["lamp-1"] || !set["tv-1"] {
			t.Errorf("ids: %v, %v", set, err)
		}
		if got := wishlistOf(t, s, "u2"); len(got) != 0 {
			t.Errorf("another user's wishlist: %v", got)
		}
		wantCode(t, "unknown product", s.AddToWishlist(ctx, "u1", "nope"), shop.ENOTFOUND, shop.MsgUnknownProduct)
		must(t, s.RemoveFromWishlist(ctx, "u1", "lamp-1"))
		must(t, s.RemoveFromWishlist(ctx, "u1", "lamp-1"))
		if got := wishlistOf(t, s, "u1"); !slices.Equal(got, []string{"tv-1"}) {
			t.Errorf("after remove: %v", got)
		}
	})

	t.Run("Toggle", func(t *testing.T) {
		s, _, _ := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		for i, want := range []bool{true, false, true} {
			on, err := s.ToggleWishlist(ctx, "u1", "lamp-1")
			if err != nil || on != want {
				t.Errorf("toggle %d: got %v, %v, want %v", i+1, on, err, want)
			}
		}
		_, err := s.ToggleWishlist(ctx, "u1", "nope")
		wantCode(t, "toggle an unknown product", err, shop.ENOTFOUND, shop.MsgUnknownProduct)
	})

	t.Run("ToggleRacingItself", func(t *testing.T) {
		s, _, _ := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		results := make([]bool, 50)
		errs := parallel(50, func(i int) (err error) {
			results[i], err = s.ToggleWishlist(ctx, "u1", "lamp-1")
			return err
		})
		on := 0
		for i, err := range errs {
			must(t, err)
			if results[i] {
				on++
			}
		}
		// Each toggle sees the one before it: half put it on, half take it
		// off, and an even number leaves it off.
		if got := wishlistOf(t, s, "u1"); on != 25 || len(got) != 0 {
			t.Errorf("50 parallel toggles: %d turned it on, wishlist %v; want 25 and empty", on, got)
		}
	})

	t.Run("MoveToCart", func(t *testing.T) {
		s, _, _ := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		must(t, s.AddToWishlist(ctx, "u1", "lamp-1"))
		must(t, s.AddToCart(ctx, "u1", "lamp-1", 2))
		must(t, s.MoveToCart(ctx, "u1", "lamp-1"))
		if w, c := wishlistOf(t, s, "u1"), cartOf(t, s, "u1"); len(w) != 0 || c != "lamp-1×3" {
			t.Errorf("moved: wishlist %v, cart %s", w, c)
		}
		wantCode(t, "move what is not on the wishlist", s.MoveToCart(ctx, "u1", "lamp-1"), shop.ENOTFOUND, shop.MsgNotOnWishlist)
		// A full line refuses the move, and the product stays on the wishlist.
		must(t, s.AddToWishlist(ctx, "u1", "tv-1"))
		must(t, s.AddToCart(ctx, "u1", "tv-1", shop.MaxCartQuantity))
		wantCode(t, "move onto a full line", s.MoveToCart(ctx, "u1", "tv-1"), shop.EINVALID, shop.MsgQuantityCap)
		if w := wishlistOf(t, s, "u1"); !slices.Equal(w, []string{"tv-1"}) {
			t.Errorf("a refused move took it off the wishlist: %v", w)
		}
	})
}
