// Package storetest is the conformance suite every store backend passes, so
// SQLite and (later) PostgreSQL behave the same behind package shop's
// interfaces.
package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// KV is the fiber.Storage shape plus expiry sweeping.
type KV interface {
	Get(key string) ([]byte, error)
	Set(key string, val []byte, exp time.Duration) error
	Delete(key string) error
	Reset() error
	DeleteExpired(ctx context.Context) (int64, error)
}

// Store is what a backend offers the suite.
type Store interface {
	shop.ContactStore
	shop.Pinger
	shop.CatalogStore
	shop.ImageStore
	ContactMessages(ctx context.Context) ([]shop.ContactMessage, error)
}

// Backend opens a fresh, empty store whose clock the suite controls.
type Backend struct {
	Open func(tb testing.TB, now func() time.Time) (Store, KV)
}

// Run runs every conformance test against b.
func Run(t *testing.T, b Backend) {
	clock := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }

	t.Run("Ping", func(t *testing.T) {
		s, _ := b.Open(t, now)
		if err := s.Ping(context.Background()); err != nil {
			t.Fatalf("ping: %v", err)
		}
	})

	t.Run("ContactMessage", func(t *testing.T) {
		s, _ := b.Open(t, now)
		ctx := context.Background()
		m := &shop.ContactMessage{Name: "Ada", Email: "ada@example.com", Subject: "Hi", Message: "Hello ☾"}
		if err := s.CreateContactMessage(ctx, m); err != nil {
			t.Fatal(err)
		}
		if m.ID == 0 || !m.CreatedAt.Equal(clock) {
			t.Errorf("got id %d created %v, want an id and %v", m.ID, m.CreatedAt, clock)
		}
		got, err := s.ContactMessages(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 || got[0] != *m {
			t.Errorf("got %+v, want [%+v]", got, *m)
		}
	})

	t.Run("KV", func(t *testing.T) {
		_, kv := b.Open(t, now)
		if v, err := kv.Get("missing"); err != nil || v != nil {
			t.Fatalf("missing key: got %q, %v", v, err)
		}
		if err := kv.Set("a", []byte("1"), time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := kv.Set("forever", []byte("2"), 0); err != nil {
			t.Fatal(err)
		}
		if err := kv.Set("a", []byte("3"), time.Minute); err != nil {
			t.Fatal(err)
		}
		if v, _ := kv.Get("a"); string(v) != "3" {
			t.Errorf("overwrite: got %q, want 3", v)
		}

		clock = clock.Add(2 * time.Minute)
		if v, _ := kv.Get("a"); v != nil {
			t.Errorf("expired key: got %q, want nil", v)
		}
		if n, err := kv.DeleteExpired(context.Background()); err != nil || n != 1 {
			t.Errorf("sweep: got %d, %v, want 1", n, err)
		}
		if v, _ := kv.Get("forever"); string(v) != "2" {
			t.Errorf("no-expiry key: got %q, want 2", v)
		}
		if err := kv.Delete("forever"); err != nil {
			t.Fatal(err)
		}
		if v, _ := kv.Get("forever"); v != nil {
			t.Errorf("deleted key: got %q", v)
		}
		kv.Set("b", []byte("x"), 0)
		if err := kv.Reset(); err != nil {
			t.Fatal(err)
		}
		if v, _ := kv.Get("b"); v != nil {
			t.Errorf("after reset: got %q", v)
		}
	})

	t.Run("ProductImages", func(t *testing.T) { productImages(t, b, now) })
}

// productImages checks the image store: records by URL, variants replaced
// as a set, a failed refresh keeping the variants, the product's photo on
// its listing, and pruning.
func productImages(t *testing.T, b Backend, now func() time.Time) {
	ctx := context.Background()
	s, _ := b.Open(t, now)
	const url = "https://img.example/lamp.jpg"
	if err := s.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{
		{ID: "1", Title: "Lamp", Category: "home", Price: 100, Image: url},
		{ID: "2", Title: "Same photo", Category: "home", Price: 200, Image: url},
	}); err != nil {
		t.Fatal(err)
	}
	if recs, err := s.ImageRecords(ctx, []string{url}); err != nil || len(recs) != 0 {
		t.Fatalf("before any fetch: %v, %v", recs, err)
	}
	if p, _ := s.Product(ctx, "1"); p.Photo.Ready() {
		t.Fatalf("photo before any fetch: %+v", p.Photo)
	}
	rec := shop.ImageRecord{URL: url, Hash: "h1", Width: 800, Height: 600, ETag: `"e1"`, CheckedAt: now()}
	v := func(w int, format, data string) shop.ImageVariant {
		return shop.ImageVariant{Width: w, Format: format, Data: []byte(data)}
	}
	if err := s.SaveImage(ctx, rec, []shop.ImageVariant{v(160, shop.PhotoWebP, "w160"), v(160, shop.PhotoJPEG, "j160")}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"1", "2"} {
		p, err := s.Product(ctx, id)
		if err != nil || p.Photo != (shop.Photo{Hash: "h1", Width: 800, Height: 600}) {
			t.Errorf("product %s photo: %+v, %v", id, p.Photo, err)
		}
		data, hash, err := s.ProductImage(ctx, id, 160, shop.PhotoWebP)
		if err != nil || string(data) != "w160" || hash != "h1" {
			t.Errorf("product %s variant: %q %q %v", id, data, hash, err)
		}
	}

	// A failed refresh records the error and keeps the variants.
	rec.Error = "status 503"
	if err := s.SaveImage(ctx, rec, nil); err != nil {
		t.Fatal(err)
	}
	if data, _, err := s.ProductImage(ctx, "1", 160, shop.PhotoJPEG); err != nil || string(data) != "j160" {
		t.Errorf("variant after a failed refresh: %q, %v", data, err)
	}
	recs, _ := s.ImageRecords(ctx, []string{url, "https://img.example/other.jpg"})
	if got := recs[url]; len(recs) != 1 || got.Error != "status 503" || got.ETag != `"e1"` || got.Hash != "h1" {
		t.Errorf("records: %+v", recs)
	}

	// New variants replace the old set.
	rec.Hash, rec.Error = "h2", ""
	if err := s.SaveImage(ctx, rec, []shop.ImageVariant{v(320, shop.PhotoWebP, "w320")}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.ProductImage(ctx, "1", 160, shop.PhotoWebP); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("old variant still served: %v", err)
	}
	if _, hash, err := s.ProductImage(ctx, "1", 320, shop.PhotoWebP); err != nil || hash != "h2" {
		t.Errorf("new variant: %q %v", hash, err)
	}
	if _, _, err := s.ProductImage(ctx, "nope", 320, shop.PhotoWebP); shop.ErrorCode(err) != shop.ENOTFOUND {
		t.Errorf("unknown product: %v", err)
	}

	// Once no product names the URL, pruning deletes it.
	if n, err := s.PruneImages(ctx); err != nil || n != 0 {
		t.Errorf("prune while used: %d, %v", n, err)
	}
	if err := s.ReplaceCatalog(ctx, "file", []string{"home"}, []shop.Product{
		{ID: "3", Title: "Other", Category: "home", Price: 100, Image: "https://img.example/other.jpg"},
	}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.PruneImages(ctx); err != nil || n != 1 {
		t.Errorf("prune: %d, %v", n, err)
	}
	if recs, _ := s.ImageRecords(ctx, []string{url}); len(recs) != 0 {
		t.Errorf("pruned record still there: %+v", recs)
	}
}
