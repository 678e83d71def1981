package catalog

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// snapshot is the whole catalogue in memory, as the store held it at one
// catalogue version. Pages read it without touching the database; an import
// or sync (in this process or another) builds a new one and swaps it in, so
// a reader sees either the old catalogue or the new one, never half of each.
// The store stays the source of truth.
type snapshot struct {
	version    int64
	byID       map[string]*shop.Product
	ids        []string // in id order
	categories []string
	// lists holds the products of each listing in (price, id) order: ""
	// for all products, FeaturedCategory and each category. A price range
	// is then a sub-slice found by binary search, and a descending listing
	// the same slice read backwards.
	lists map[string][]*shop.Product
	// choices are the options and variants of each product with options;
	// facets are the options shoppers can filter by, with their values, in
	// the order first seen.
	choices map[string]shop.Choices
	facets  []shop.Option
}

// withChoices adds the products' options and variants, and the facets of
// the option filter derived from them.
func (s *snapshot) withChoices(all map[string]shop.Choices) *snapshot {
	s.choices = all
	at := map[string]int{}
	for _, id := range s.ids {
		c, ok := all[id]
		if !ok {
			continue
		}
		for _, o := range c.Options {
			key := strings.ToLower(o.Name)
			i, ok := at[key]
			if !ok {
				i = len(s.facets)
				at[key] = i
				s.facets = append(s.facets, shop.Option{Name: o.Name})
			}
			for _, v := range o.Values {
				if !slices.ContainsFunc(s.facets[i].Values, func(f shop.OptionValue) bool { return strings.EqualFold(f.Value, v.Value) }) {
					s.facets[i].Values = append(s.facets[i].Values, shop.OptionValue{Value: v.Value})
				}
			}
		}
	}
	return s
}

// hasVariant reports whether p has an enabled variant with the option
// values f asks for.
func (s *snapshot) hasVariant(p *shop.Product, f shop.ProductFilter) bool {
	c := s.choices[p.ID]
	for _, v := range c.Variants {
		if v.Enabled && f.Matches(c.Options, v.Values) {
			return true
		}
	}
	return false
}

func newSnapshot(version int64, products []shop.Product, categories []string) *snapshot {
	s := &snapshot{
		version:    version,
		byID:       make(map[string]*shop.Product, len(products)),
		ids:        make([]string, len(products)),
		categories: categories,
		lists:      map[string][]*shop.Product{},
	}
	all := make([]*shop.Product, len(products))
	for i := range products {
		p := &products[i]
		s.byID[p.ID] = p
		s.ids[i] = p.ID
		all[i] = p
	}
	slices.Sort(s.ids)
	slices.SortFunc(all, func(a, b *shop.Product) int {
		return cmp.Or(cmp.Compare(a.Price, b.Price), cmp.Compare(a.ID, b.ID))
	})
	s.lists[""] = all
	for _, p := range all {
		s.lists[p.Category] = append(s.lists[p.Category], p)
		if p.Featured {
			s.lists[shop.FeaturedCategory] = append(s.lists[shop.FeaturedCategory], p)
		}
	}
	return s
}

// list answers a filter without a Query: one page and the number of
// matches on all pages.
func (s *snapshot) list(f shop.ProductFilter) shop.ProductPage {
	in := s.lists[f.Category]
	lo, hi := 0, len(in)
	if f.MinPrice > 0 {
		lo = sort.Search(len(in), func(i int) bool { return in[i].Price >= f.MinPrice })
	}
	if f.MaxPrice > 0 {
		hi = max(lo, sort.Search(len(in), func(i int) bool { return in[i].Price > f.MaxPrice }))
	}
	in = in[lo:hi]
	desc := f.Sort == shop.SortPriceDesc
	at := func(i int) *shop.Product {
		if desc {
			return in[len(in)-1-i]
		}
		return in[i]
	}
	first, size := max(f.Offset(), 0), max(f.PageSize, 0)
	var page shop.ProductPage
	if f.MinRating == 0 && !f.HasOptions() {
		page.Total = len(in)
		page.Products = make([]shop.Product, 0, max(0, min(size, len(in)-first)))
		for i := first; i < len(in) && i < first+size; i++ {
			page.Products = append(page.Products, *at(i))
		}
		return page
	}
	min := float64(f.MinRating)
	for i := range in {
		p := at(i)
		if p.Rating < min || f.HasOptions() && !s.hasVariant(p, f) {
			continue
		}
		if page.Total >= first && page.Total < first+size {
			page.Products = append(page.Products, *p)
		}
		page.Total++
	}
	return page
}

// current returns the snapshot, loading the first one if none is there.
func (s *Service) current(ctx context.Context) (*snapshot, error) {
	if snap := s.snap.Load(); snap != nil {
		return snap, nil
	}
	if err := s.Reload(ctx); err != nil {
		return nil, err
	}
	return s.snap.Load(), nil
}

// Reload reads the catalogue from the store into memory and drops what was
// derived from the previous one. Imports call it; Watch calls it when
// another process changed the catalogue.
func (s *Service) Reload(ctx context.Context) error {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	version, err := s.Store.CatalogVersion(ctx)
	if err != nil {
		return err
	}
	loadedAt := time.Now()
	products, err := s.Store.AllProducts(ctx)
	if err != nil {
		return err
	}
	categories, err := s.Store.Categories(ctx)
	if err != nil {
		return err
	}
	snap := newSnapshot(version, products, categories)
	if s.Variants != nil {
		all, err := s.Variants.AllChoices(ctx)
		if err != nil {
			return err
		}
		snap.withChoices(all)
	}
	prev := s.snap.Swap(snap)
	s.resetStock(loadedAt)
	if prev != nil && prev.version != version {
		// What search derived (facets, kept hits, vocabulary) belongs to
		// the previous catalogue.
		s.Invalidate()
	}
	return nil
}

// Loaded reports whether the catalogue in memory holds a product: false
// before the first load and while the store holds none (a first start
// whose CATALOG_URL sync failed). It reads memory only.
func (s *Service) Loaded() bool {
	snap := s.snap.Load()
	return snap != nil && len(snap.ids) > 0
}

// Version is the catalogue version being served, for caches of pages built
// from it.
func (s *Service) Version() int64 {
	if snap := s.snap.Load(); snap != nil {
		return snap.version
	}
	return 0
}

// Watch polls the store's catalogue version every interval and reloads the
// catalogue (and warms search again) when another process changed it: the
// `catalog import` command or, with a shared database, another instance.
func (s *Service) Watch(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	var lastStock time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// Cards' stock: at most StockEvery (plus the page cache's few
		// seconds) old.
		if time.Since(lastStock) >= StockEvery {
			lastStock = time.Now()
			if err := s.RefreshStock(ctx); err != nil && ctx.Err() == nil {
				s.Log.Error("stock refresh", "err", err)
			}
		}
		v, err := s.Store.CatalogVersion(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.Log.Error("catalogue version check", "err", err)
			}
			continue
		}
		if v == s.Version() {
			continue
		}
		if err := s.Reload(ctx); err != nil {
			s.Log.Error("catalogue reload", "err", err)
			continue
		}
		s.Log.Info("catalogue reloaded", "version", v)
		go s.Warm(ctx)
	}
}

// Product returns one product, or an ENOTFOUND.
func (s *Service) Product(ctx context.Context, id string) (*shop.Product, error) {
	snap, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	p, ok := snap.byID[id]
	if !ok {
		return nil, shop.Errorf(shop.ENOTFOUND, shop.MsgProductNotFound)
	}
	cp := *p
	if o := s.stock.Load(); o != nil {
		if n, ok := o.levels[cp.ID]; ok {
			cp.Stock = n
		}
	}
	return &cp, nil
}

// Categories lists the catalogue's categories by name.
func (s *Service) Categories(ctx context.Context) ([]string, error) {
	snap, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	return snap.categories, nil
}

// Featured returns up to limit featured products, cheapest first.
func (s *Service) Featured(ctx context.Context, limit int) ([]shop.Product, error) {
	return s.listed(ctx, shop.ProductFilter{Category: shop.FeaturedCategory, Page: 1, PageSize: limit})
}

// ProductIDs lists every product id in order (for the sitemap).
func (s *Service) ProductIDs(ctx context.Context) ([]string, error) {
	snap, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	return snap.ids, nil
}

func (s *Service) listed(ctx context.Context, f shop.ProductFilter) ([]shop.Product, error) {
	snap, err := s.current(ctx)
	if err != nil {
		return nil, fmt.Errorf("list products: %w", err)
	}
	return s.withStock(snap.list(f).Products), nil
}
