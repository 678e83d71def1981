package catalog

import (
	"context"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// Stock in memory. Orders change stock all the time, and
// reloading the whole catalogue for each would be far too costly, so
// between reloads the Service keeps the stock of the products whose stock
// changed, refreshed every few seconds from the store's StockChanges:
// cards show stock at most that old. The product page, the cart and Place
// Order read the store instead.

// stockMargin re-reads changes a little older than the last refresh, so a
// change committed with a slightly earlier timestamp (another instance's
// clock, a transaction that took a moment) is not missed.
const stockMargin = 10 * time.Second

// StockEvery is how often Watch refreshes the stock the cards show.
const StockEvery = 3 * time.Second

// stockOverlay is the stock read since the snapshot was loaded.
type stockOverlay struct {
	since  time.Time // next refresh reads changes from here
	levels map[string]int
}

// resetStock starts a new overlay after a reload: the snapshot holds the
// stock as of at.
func (s *Service) resetStock(at time.Time) {
	s.stock.Store(&stockOverlay{since: at.Add(-stockMargin), levels: map[string]int{}})
}

// RefreshStock reads the stock changes since the last refresh.
func (s *Service) RefreshStock(ctx context.Context) error {
	if s.Stock == nil {
		return nil
	}
	cur := s.stock.Load()
	if cur == nil {
		return nil // no snapshot yet: the first load reads the stock
	}
	now := time.Now()
	changes, err := s.Stock.StockChanges(ctx, cur.since)
	if err != nil {
		return err
	}
	next := &stockOverlay{since: now.Add(-stockMargin), levels: cur.levels}
	if len(changes) > 0 {
		next.levels = make(map[string]int, len(cur.levels)+len(changes))
		for id, n := range cur.levels {
			next.levels[id] = n
		}
		for id, n := range changes {
			next.levels[id] = n
		}
	}
	// A reload meanwhile started a new overlay: keep it.
	s.stock.CompareAndSwap(cur, next)
	return nil
}

// withStock returns ps with the stock read since the snapshot.
func (s *Service) withStock(ps []shop.Product) []shop.Product {
	o := s.stock.Load()
	if o == nil || len(o.levels) == 0 {
		return ps
	}
	for i := range ps {
		if n, ok := o.levels[ps[i].ID]; ok {
			ps[i].Stock = n
		}
	}
	return ps
}

// UploadPhoto stores a photo staff uploaded in the product editor through
// the image pipeline (images.Service.Upload) and returns the image name to
// give the product.
func (s *Service) UploadPhoto(ctx context.Context, body []byte) (string, error) {
	if s.Images == nil {
		return "", shop.Errorf(shop.EINVALID, "Photo uploads are not available on this server.")
	}
	return s.Images.Upload(ctx, body)
}
