package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Cart returns the owner's cart, oldest line first, priced from the
// catalogue: each line's product carries its variant's price, stock and
// photo.
func (s *Store) Cart(ctx context.Context, owner string) (shop.Cart, error) {
	return s.cartIn(ctx, s.Query, owner)
}

// variantColumns are a cart line's variant (the table as v): its id, its
// price and stock as sold, its photo and its option names and values.
const variantColumns = `v.id, COALESCE(v.price_cents, p.price_cents), COALESCE(v.original_price_cents, p.original_price_cents),
	v.stock, v.enabled, v.image, v.option1, v.option2, v.option3,
	COALESCE((SELECT o.name FROM product_options o WHERE o.product_id = p.id AND o.position = 1), ''),
	COALESCE((SELECT o.name FROM product_options o WHERE o.product_id = p.id AND o.position = 2), ''),
	COALESCE((SELECT o.name FROM product_options o WHERE o.product_id = p.id AND o.position = 3), '')`

// cartIn reads a cart with query: the store's prepared statements, or a
// transaction's Query when the cart must be the one it then changes.
func (s *Store) cartIn(ctx context.Context, query func(context.Context, string, ...any) (*sql.Rows, error), owner string) (shop.Cart, error) {
	rows, err := query(ctx, `SELECT `+ProductColumns+`, `+variantColumns+`, c.quantity, c.added_at
		FROM cart_items c JOIN variants v ON v.id = c.variant_id JOIN products p ON p.id = v.product_id
		WHERE c.owner = ? ORDER BY c.added_at, v.product_id, v.position`, owner)
	lines, err := Collect(s, rows, err, "load cart", func(rows *sql.Rows) (l shop.CartLine, err error) {
		var (
			added           int64
			enabled         bool
			image           string
			values, names   [3]string
			price, original shop.Cents
			stock           int
		)
		l.Product, err = ScanProduct(rows, &l.VariantID, &price, &original, &stock, &enabled, &image,
			&values[0], &values[1], &values[2], &names[0], &names[1], &names[2], &l.Quantity, &added)
		l.AddedAt = time.Unix(added, 0).UTC()
		// The line is the variant: its price, its stock (none when it is
		// no longer sold) and its photo, when it has one of its own.
		l.Product.Price, l.Product.Original, l.Product.Stock = price, original, stock
		if !enabled {
			l.Product.Stock = 0
		}
		if image != "" && image != l.Product.Image {
			l.Product.Image, l.Product.Photo = image, shop.Photo{}
		}
		l.Variation = shop.VariationOf(names[:], values[:])
		return l, err
	})
	return shop.Cart{Lines: lines}, err
}

// CartCount is the number of items in the owner's cart.
func (s *Store) CartCount(ctx context.Context, owner string) (int, error) {
	var n int
	if err := s.QueryRow(ctx, `SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE owner = ?`, owner).Scan(&n); err != nil {
		return 0, s.FormatError(err, "count cart", nil)
	}
	return n, nil
}

// AddToCart adds in one statement: the database does the arithmetic, so
// two concurrent adds (from any instance) cannot both read the old
// quantity, and the cap is checked against the sum.
func (s *Store) AddToCart(ctx context.Context, owner, variantID string, quantity int) error {
	if quantity < 1 || quantity > shop.MaxCartQuantity {
		return shop.ErrQuantityCap()
	}
	res, err := s.Exec(ctx, `INSERT INTO cart_items AS c (owner, variant_id, quantity, added_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (owner, variant_id) DO UPDATE SET quantity = c.quantity + excluded.quantity
		WHERE c.quantity + excluded.quantity <= ?`, owner, variantID, quantity, s.Now().Unix(), shop.MaxCartQuantity)
	if err != nil {
		return s.FormatError(err, "add to cart", unknownProduct)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.ErrQuantityCap()
	}
	return nil
}

// SetCartQuantity sets a line's quantity; 0 or less removes the line.
func (s *Store) SetCartQuantity(ctx context.Context, owner, variantID string, quantity int) error {
	if quantity <= 0 {
		return s.RemoveFromCart(ctx, owner, variantID)
	}
	if quantity > shop.MaxCartQuantity {
		return shop.ErrQuantityCap()
	}
	res, err := s.Exec(ctx, `UPDATE cart_items SET quantity = ? WHERE owner = ? AND variant_id = ?`, quantity, owner, variantID)
	if err != nil {
		return s.FormatError(err, "set cart quantity", nil)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return shop.Errorf(shop.ENOTFOUND, shop.MsgNotInCart)
	}
	return nil
}

// RemoveFromCart removes a line; removing a line that is not there is fine.
func (s *Store) RemoveFromCart(ctx context.Context, owner, variantID string) error {
	if _, err := s.Exec(ctx, `DELETE FROM cart_items WHERE owner = ? AND variant_id = ?`, owner, variantID); err != nil {
		return s.FormatError(err, "remove from cart", nil)
	}
	return nil
}

// ClearCart empties the cart.
func (s *Store) ClearCart(ctx context.Context, owner string) error {
	if _, err := s.Exec(ctx, `DELETE FROM cart_items WHERE owner = ?`, owner); err != nil {
		return s.FormatError(err, "clear cart", nil)
	}
	return nil
}

// MergeCart moves the lines of from into to.
func (s *Store) MergeCart(ctx context.Context, from, to string) error {
	if from == to {
		return nil
	}
	return s.InTx(ctx, func(tx Tx) error { return tx.MergeCart(ctx, from, to) })
}

// MergeCart moves the lines of from into to within the transaction, a
// line in both capped at the most a line may hold.
func (tx Tx) MergeCart(ctx context.Context, from, to string) error {
	// SQLite reads "ON CONFLICT" after a SELECT's bare FROM as a join
	// constraint; the WHERE clause ends the SELECT for it.
	if _, err := tx.Exec(ctx, `INSERT INTO cart_items AS c (owner, variant_id, quantity, added_at)
		SELECT ?, variant_id, quantity, added_at FROM cart_items WHERE owner = ? AND true
		ON CONFLICT (owner, variant_id) DO UPDATE SET quantity = `+tx.s.d.Least+`(?, c.quantity + excluded.quantity)`,
		to, from, shop.MaxCartQuantity); err != nil {
		return tx.s.FormatError(err, "merge cart", nil)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM cart_items WHERE owner = ?`, from); err != nil {
		return tx.s.FormatError(err, "merge cart", nil)
	}
	return nil
}

// Wishlist lists the user's wishlist, newest first.
func (s *Store) Wishlist(ctx context.Context, userID string) ([]shop.WishlistItem, error) {
	rows, err := s.Query(ctx, `SELECT `+ProductColumns+`, w.added_at
		FROM wishlist_items w JOIN products p ON p.id = w.product_id WHERE w.user_id = ? ORDER BY w.added_at DESC, p.id`, userID)
	return Collect(s, rows, err, "load wishlist", func(rows *sql.Rows) (it shop.WishlistItem, err error) {
		var added int64
		it.Product, err = ScanProduct(rows, &added)
		it.AddedAt = time.Unix(added, 0).UTC()
		return it, err
	})
}

// WishlistIDs returns the set of product ids on the user's wishlist.
func (s *Store) WishlistIDs(ctx context.Context, userID string) (map[string]bool, error) {
	rows, err := s.Query(ctx, `SELECT product_id FROM wishlist_items WHERE user_id = ?`, userID)
	if err != nil {
		return nil, s.FormatError(err, "wishlist ids", nil)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("wishlist ids: %w", err)
		}
		out[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, s.FormatError(err, "wishlist ids", nil)
	}
	return out, nil
}

// AddToWishlist adds a product; one already there stays as it was.
func (s *Store) AddToWishlist(ctx context.Context, userID, productID string) error {
	_, err := s.Exec(ctx, `INSERT INTO wishlist_items (user_id, product_id, added_at) VALUES (?, ?, ?)
		ON CONFLICT DO NOTHING`, userID, productID, s.Now().Unix())
	return s.FormatError(err, "add to wishlist", unknownProduct)
}

// RemoveFromWishlist removes a product from the wishlist.
func (s *Store) RemoveFromWishlist(ctx context.Context, userID, productID string) error {
	if _, err := s.Exec(ctx, `DELETE FROM wishlist_items WHERE user_id = ? AND product_id = ?`, userID, productID); err != nil {
		return s.FormatError(err, "remove from wishlist", nil)
	}
	return nil
}

// ToggleWishlist flips a product's membership. Toggles of one line run one
// after the other (the line's lock, on a database with several writers),
// so two at once leave it as it was.
func (s *Store) ToggleWishlist(ctx context.Context, userID, productID string) (bool, error) {
	var on bool
	err := s.InTx(ctx, func(tx Tx) error {
		on = false
		if err := tx.Lock(ctx, "wishlist:"+userID+"/"+productID); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `DELETE FROM wishlist_items WHERE user_id = ? AND product_id = ?`, userID, productID)
		if err != nil {
			return s.FormatError(err, "toggle wishlist", nil)
		}
		if n, _ := res.RowsAffected(); n > 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `INSERT INTO wishlist_items (user_id, product_id, added_at) VALUES (?, ?, ?)`,
			userID, productID, s.Now().Unix()); err != nil {
			return s.FormatError(err, "toggle wishlist", unknownProduct)
		}
		on = true
		return nil
	})
	return on, err
}

// MoveToCart puts a wishlist product in the cart and takes it off the
// wishlist, both or neither. A product with options has no default
// variant: the shopper must choose one on its page (an EINVALID).
func (s *Store) MoveToCart(ctx context.Context, userID, productID string) error {
	return s.InTx(ctx, func(tx Tx) error {
		var options int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM product_options WHERE product_id = ?`, productID).Scan(&options); err != nil {
			return s.FormatError(err, "move to cart", nil)
		}
		if options > 0 {
			return shop.Errorf(shop.EINVALID, shop.MsgChooseOptions, "the options")
		}
		res, err := tx.Exec(ctx, `DELETE FROM wishlist_items WHERE user_id = ? AND product_id = ?`, userID, productID)
		if err != nil {
			return s.FormatError(err, "move to cart", nil)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return shop.Errorf(shop.ENOTFOUND, shop.MsgNotOnWishlist)
		}
		res, err = tx.Exec(ctx, `INSERT INTO cart_items AS c (owner, variant_id, quantity, added_at) VALUES (?, ?, 1, ?)
			ON CONFLICT (owner, variant_id) DO UPDATE SET quantity = c.quantity + 1 WHERE c.quantity + 1 <= ?`,
			userID, productID, s.Now().Unix(), shop.MaxCartQuantity)
		if err != nil {
			return s.FormatError(err, "move to cart", unknownProduct)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return shop.ErrQuantityCap()
		}
		return nil
	})
}
