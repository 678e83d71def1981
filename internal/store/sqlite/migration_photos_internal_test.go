package sqlite

import (
	"context"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
)

// Migration 00016 on a shop that has products already: each product's
// image becomes photo 1 of its gallery, described by its title, so no
// photo is lost; a product without an image gets no photo, and every
// description stays plain text. Going down and up again gives the same.
func TestMigration_ProductPhotos(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "shop.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub, _ := fs.Sub(migrations, "migrations")
	p, err := goose.NewProvider(goose.DialectSQLite3, db.SQL(), sub)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 15); err != nil {
		t.Fatalf("down to 15: %v", err)
	}
	for _, q := range []string{
		`INSERT INTO products (id, title, category, price_cents, image, updated_at) VALUES ('fs-1', 'Lamp', 'home', 100, 'https://img.example/lamp.jpg', 1)`,
		`INSERT INTO products (id, title, category, price_cents, image, updated_at) VALUES ('nb-001', 'Headphones', 'electronics', 100, 'img/products/nb-001.svg', 1)`,
		`INSERT INTO products (id, title, category, price_cents, image, updated_at) VALUES ('bare', 'Bare', 'home', 100, '', 1)`,
	} {
		if _, err := db.SQL().ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for round := range 2 {
		if _, err := p.Up(ctx); err != nil {
			t.Fatalf("up: %v", err)
		}
		want := map[string]string{
			"fs-1":   "https://img.example/lamp.jpg|Lamp",
			"nb-001": "img/products/nb-001.svg|Headphones",
			"bare":   "",
		}
		for id, w := range want {
			photos, err := db.Photos(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, ph := range photos {
				got += ph.URL + "|" + ph.Alt
			}
			if got != w || (w != "" && photos[0].Position != 1) {
				t.Errorf("round %d, %s: gallery %+v, want %q", round, id, photos, w)
			}
			if pr, err := db.AdminProduct(ctx, id); err != nil || pr.DescriptionHTML != "" {
				t.Errorf("round %d, %s: description HTML %q, %v", round, id, pr.DescriptionHTML, err)
			}
		}
		if _, err := p.DownTo(ctx, 15); err != nil {
			t.Fatalf("down to 15: %v", err)
		}
	}
}
