package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// parallel runs fn n times at once and returns each call's error.
func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// lines is a cart as "id×quantity" in cart order.
func lines(c shop.Cart) string {
	s := ""
	for i, l := range c.Lines {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf("%s×%d", l.Product.ID, l.Quantity)
	}
	return s
}

func cartOf(t *testing.T, s Store, owner string) string {
	t.Helper()
	c, err := s.Cart(context.Background(), owner)
	must(t, err)
	return lines(c)
}

// testCart covers carts: lines priced from the catalogue, oldest first, the
// quantity cap however it is reached, and merging.
func testCart(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("Lines", func(t *testing.T) {
		s, _, clock := b.open(t)
		seed(t, s)
		if got := cartOf(t, s, "guest_a"); got != "" {
			t.Fatalf("new cart: %q", got)
		}
		must(t, s.AddToCart(ctx, "guest_a", "lamp-1", 2))
		clock.Add(time.Second)
		must(t, s.AddToCart(ctx, "guest_a", "board-1", 1))
		must(t, s.AddToCart(ctx, "guest_a", "lamp-1", 3))
		c, err := s.Cart(ctx, "guest_a")
		must(t, err)
		if lines(c) != "lamp-1×5,board-1×1" || !sameProduct(c.Lines[0].Product, fixture[1]) || !c.Lines[0].AddedAt.Equal(clock.Now().Add(-time.Second)) {
			t.Errorf("cart: %s %+v", lines(c), c.Lines)
		}
		if n, err := s.CartCount(ctx, "guest_a"); err != nil || n != 6 {
			t.Errorf("count: %d, %v, want 6", n, err)
		}
		if got := cartOf(t, s, "guest_b"); got != "" {
			t.Errorf("another owner's cart: %q", got)
		}

		must(t, s.SetCartQuantity(ctx, "guest_a", "lamp-1", 7))
		if got := cartOf(t, s, "guest_a"); got != "lamp-1×7,board-1×1" {
			t.Errorf("set quantity: %s", got)
		}
		wantCode(t, "set a line that is not there", s.SetCartQuantity(ctx, "guest_a", "tv-1", 2), shop.ENOTFOUND, shop.MsgNotInCart)
		wantCode(t, "set above the cap", s.SetCartQuantity(ctx, "guest_a", "lamp-1", shop.MaxCartQuantity+1), shop.EINVALID, shop.MsgQuantityCap)
		must(t, s.SetCartQuantity(ctx, "guest_a", "lamp-1", 0))
		if got := cartOf(t, s, "guest_a"); got != "board-1×1" {
			t.Errorf("set to 0 removes: %s", got)
		}
		must(t, s.RemoveFromCart(ctx, "guest_a", "board-1"))
		must(t, s.RemoveFromCart(ctx, "guest_a", "board-1"))
		if got := cartOf(t, s, "guest_a"); got != "" {
			t.Errorf("removed: %s", got)
		}
		must(t, s.AddToCart(ctx, "guest_a", "tv-1", 1))
		must(t, s.AddToCart(ctx, "guest_b", "tv-1", 1))
		must(t, s.ClearCart(ctx, "guest_a"))
		if cartOf(t, s, "guest_a") != "" || cartOf(t, s, "guest_b") != "tv-1×1" {
			t.Errorf("clear: %q, other %q", cartOf(t, s, "guest_a"), cartOf(t, s, "guest_b"))
		}
	})

	t.Run("Refusals", func(t *testing.T) {
		s, _, _ := b.open(t)
		seed(t, s)
		wantCode(t, "unknown product", s.AddToCart(ctx, "o", "nope", 1), shop.ENOTFOUND, shop.MsgUnknownProduct)
		wantCode(t, "quantity 0", s.AddToCart(ctx, "o", "lamp-1", 0), shop.EINVALID, "")
		wantCode(t, "above the cap at once", s.AddToCart(ctx, "o", "lamp-1", shop.MaxCartQuantity+1), shop.EINVALID, shop.MsgQuantityCap)
		must(t, s.AddToCart(ctx, "o", "lamp-1", shop.MaxCartQuantity-1))
		wantCode(t, "above the cap in sum", s.AddToCart(ctx, "o", "lamp-1", 2), shop.EINVALID, shop.MsgQuantityCap)
		if got := cartOf(t, s, "o"); got != fmt.Sprintf("lamp-1×%d", shop.MaxCartQuantity-1) {
			t.Errorf("a refused add changed the line: %s", got)
		}
		must(t, s.AddToCart(ctx, "o", "lamp-1", 1))
		// A product the catalogue drops leaves the cart with it.
		must(t, s.ReplaceCatalog(ctx, "test", []string{"home"}, fixture[:1]))
		if got := cartOf(t, s, "o"); got != "" {
			t.Errorf("a removed product stays in the cart: %s", got)
		}
	})

	t.Run("CapUnder50ParallelAdds", func(t *testing.T) {
		s, _, _ := b.open(t)
		seed(t, s)
		errs := parallel(50, func(int) error { return s.AddToCart(ctx, "busy", "lamp-1", 1) })
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if shop.ErrorCode(err) != shop.EINVALID {
				t.Errorf("add: %v, want nil or EINVALID", err)
			}
		}
		if ok != shop.MaxCartQuantity || cartOf(t, s, "busy") != fmt.Sprintf("lamp-1×%d", shop.MaxCartQuantity) {
			t.Errorf("%d adds succeeded, cart %s; want %d", ok, cartOf(t, s, "busy"), shop.MaxCartQuantity)
		}
	})

	t.Run("Merge", func(t *testing.T) {
		s, _, _ := b.open(t)
		seed(t, s)
		must(t, s.AddToCart(ctx, "user", "lamp-1", 5))
		must(t, s.AddToCart(ctx, "user", "board-1", 1))
		must(t, s.AddToCart(ctx, "guest", "lamp-1", 8))
		must(t, s.AddToCart(ctx, "guest", "tv-1", 2))
		must(t, s.MergeCart(ctx, "guest", "user"))
		if got := cartOf(t, s, "user"); got != fmt.Sprintf("board-1×1,lamp-1×%d,tv-1×2", shop.MaxCartQuantity) {
			t.Errorf("merged: %s (quantities add up to the cap)", got)
		}
		if got := cartOf(t, s, "guest"); got != "" {
			t.Errorf("the merged cart is not empty: %s", got)
		}
		must(t, s.MergeCart(ctx, "nobody", "user"))
		must(t, s.MergeCart(ctx, "user", "user"))
		if n, _ := s.CartCount(ctx, "user"); n != shop.MaxCartQuantity+3 {
			t.Errorf("after empty and self merges: %d items", n)
		}
	})
}
