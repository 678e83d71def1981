package catalog

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/money"
	"github.com/nocturne/storefront/internal/shop"
)

// Sources of products; each import replaces only its own source's products.
const (
	SourceBuiltin   = "builtin"
	SourceFakeStore = "fakestore"
	SourceFile      = "file"
	featuredCount   = 8
)

//go:embed seed/products.json seed/variants.json
var seedFS embed.FS

// item is one product in the FakeStore API's shape (the spec's outside calls), which the
// built-in catalogue and catalogue files share. featured is our addition.
type item struct {
	ID    json.RawMessage `json:"id"`
	Title string          `json:"title"`
	// Price is kept as the document's decimal text: money.Parse reads it
	// exactly, where a float would round 1.005 to 1.00 unseen.
	Price       json.Number `json:"price"`
	Description string      `json:"description"`
	Category    string      `json:"category"`
	Image       string      `json:"image"`
	Rating      struct {
		Rate  float64 `json:"rate"`
		Count int     `json:"count"`
	} `json:"rating"`
	Featured *bool `json:"featured"`
	// Stock is our addition too: how many the shop holds when the product
	// is first imported (absent: the Service's DefaultStock).
	Stock *int `json:"stock"`
}

// Parsed is the result of reading a catalogue document.
type Parsed struct {
	Products []shop.Product
	Skipped  int // malformed items left out
	// Images is how fetching the products' photos went (zero when the
	// Service has no Images).
	Images images.Report
}

// Parse reads a JSON array of items. A document that is not a JSON array
// (truncated, HTML error page, …) is an error; a malformed item is skipped
// and logged, so one bad product never stops an import: a price with more
// decimals than the shop's currency has (109.95 in yen) is one. idPrefix
// keeps ids of different sources apart ("fs-" + 7).
func Parse(r io.Reader, idPrefix string, log *slog.Logger) (Parsed, error) {
	return parse(r, idPrefix, money.Parse, log)
}

// parse is Parse with the price reader: money.Parse for every catalogue
// but the built-in one, whose prices are rounded into the shop's currency.
func parse(r io.Reader, idPrefix string, price func(string) (shop.Cents, error), log *slog.Logger) (Parsed, error) {
	var raw []json.RawMessage
	if err := json.NewDecoder(r).Decode(&raw); err != nil {
		return Parsed{}, fmt.Errorf("catalogue is not a JSON array of products: %w", err)
	}
	var out Parsed
	seen := map[string]bool{}
	for i, msg := range raw {
		p, err := parseItem(msg, idPrefix, price)
		if err == nil && seen[p.ID] {
			err = fmt.Errorf("duplicate id %s", p.ID)
		}
		if err != nil {
			out.Skipped++
			log.Warn("catalogue item skipped", "index", i, "err", err)
			continue
		}
		seen[p.ID] = true
		out.Products = append(out.Products, p)
	}
	return out, nil
}

func parseItem(msg json.RawMessage, idPrefix string, readPrice func(string) (shop.Cents, error)) (shop.Product, error) {
	var it item
	if err := json.Unmarshal(msg, &it); err != nil {
		return shop.Product{}, fmt.Errorf("malformed item: %w", err)
	}
	id, err := itemID(it.ID)
	if err != nil {
		return shop.Product{}, err
	}
	price, err := readPrice(it.Price.String())
	if err != nil {
		return shop.Product{}, fmt.Errorf("product %s has no valid price %q: %s", id, it.Price, shop.ErrorMessage(err))
	}
	p := shop.Product{
		ID:          idPrefix + id,
		Title:       strings.TrimSpace(it.Title),
		Description: strings.TrimSpace(it.Description),
		Category:    strings.ToLower(strings.TrimSpace(it.Category)),
		Price:       price,
		Image:       strings.TrimSpace(it.Image),
		Rating:      math.Round(it.Rating.Rate*10) / 10,
		ReviewCount: it.Rating.Count,
		Featured:    it.Featured != nil && *it.Featured,
		Stock:       -1,
	}
	if it.Stock != nil && *it.Stock >= 0 {
		p.Stock = *it.Stock
	}
	if p.Image != "" && !strings.HasPrefix(p.Image, "img/") {
		if u, err := url.Parse(p.Image); err != nil || u.Scheme != "https" && u.Scheme != "http" {
			return shop.Product{}, fmt.Errorf("product %s has an image that is not an http(s) URL", id)
		}
	}
	return p, p.Validate()
}

// itemID accepts a string or an integer id.
func itemID(raw json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil && s != "" && len(s) <= 64 && !strings.ContainsAny(s, "/?#% ") {
		return s, nil
	}
	var n json.Number
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&n); err == nil {
		if i, err := n.Int64(); err == nil && i >= 0 {
			return n.String(), nil
		}
	}
	return "", fmt.Errorf("item has no usable id (%s)", string(raw))
}

// markFeatured flags the best-rated products when the source flags none, so
// the landing page's carousel always has something to show.
func markFeatured(ps []shop.Product) {
	for _, p := range ps {
		if p.Featured {
			return
		}
	}
	idx := make([]int, len(ps))
	for i := range idx {
		idx[i] = i
	}
	score := func(p shop.Product) float64 { return p.Rating * math.Log1p(float64(p.ReviewCount)) }
	sort.SliceStable(idx, func(a, b int) bool { return score(ps[idx[a]]) > score(ps[idx[b]]) })
	for _, i := range idx[:min(featuredCount, len(idx))] {
		ps[i].Featured = true
	}
}

func categoriesOf(ps []shop.Product) []string {
	set := map[string]bool{}
	for _, p := range ps {
		set[p.Category] = true
	}
	out := make([]string, 0, len(set))
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// LoadBuiltin fills an empty catalogue with the starter catalogue shipped in
// the binary. A catalogue that has any product is left alone. Its prices
// are numbers read in the shop's currency and rounded to its minor units
// (109.95 is ¥110 in a yen shop), so every shop opens with all of it.
func (s *Service) LoadBuiltin(ctx context.Context) error {
	n, err := s.Store.CountProducts(ctx)
	if err != nil || n > 0 {
		return err
	}
	f, err := seedFS.Open("seed/products.json")
	if err != nil {
		return fmt.Errorf("built-in catalogue: %w", err)
	}
	defer f.Close()
	parsed, err := parse(f, "", money.ParseRounded, s.Log)
	if err != nil {
		return fmt.Errorf("built-in catalogue: %w", err)
	}
	if err := s.Store.ReplaceCatalog(ctx, SourceBuiltin, categoriesOf(parsed.Products), s.withDefaultStock(parsed.Products)); err != nil {
		return fmt.Errorf("built-in catalogue: %w", err)
	}
	if err := s.loadBuiltinVariants(ctx); err != nil {
		return fmt.Errorf("built-in catalogue: %w", err)
	}
	if err := s.Reload(ctx); err != nil {
		return fmt.Errorf("built-in catalogue: %w", err)
	}
	s.Log.Info("built-in catalogue loaded", "products", len(parsed.Products))
	return nil
}

// ImportFile imports a catalogue file in the FakeStore shape; its products
// replace those of earlier file imports.
func (s *Service) ImportFile(ctx context.Context, path string) (Parsed, error) {
	f, err := os.Open(path)
	if err != nil {
		return Parsed{}, fmt.Errorf("open catalogue: %w", err)
	}
	defer f.Close()
	parsed, err := Parse(f, "", s.Log)
	if err != nil {
		return parsed, err
	}
	if len(parsed.Products) == 0 {
		return parsed, errors.New("the file holds no valid product")
	}
	markFeatured(parsed.Products)
	if err := s.Store.ReplaceCatalog(ctx, SourceFile, categoriesOf(parsed.Products), s.withDefaultStock(parsed.Products)); err != nil {
		return parsed, err
	}
	if err := s.Reload(ctx); err != nil {
		return parsed, err
	}
	err = s.syncImages(ctx, &parsed)
	return parsed, err
}

// Syncer imports a FakeStore-shaped service's catalogue now and then.
type Syncer struct {
	Service  *Service
	BaseURL  string // e.g. https://fakestoreapi.com
	Interval time.Duration
	Client   *http.Client
	// Retries and Backoff shape the retries of one sync; tests shorten them.
	Retries int
	Backoff time.Duration
	Log     *slog.Logger
	// Tick, when set, triggers each sync after the first instead of a
	// ticker of Interval (tests drive the retries with it).
	Tick <-chan time.Time
}

// Run syncs at once and then every Interval until ctx ends. A failed sync
// keeps the last imported catalogue and is tried again at the next tick.
func (y *Syncer) Run(ctx context.Context) {
	tick := y.Tick
	if tick == nil {
		t := time.NewTicker(y.Interval)
		defer t.Stop()
		tick = t.C
	}
	for {
		if err := y.SyncOnce(ctx); err != nil && ctx.Err() == nil {
			y.Log.Error("catalogue sync failed; still serving the last catalogue", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
	}
}

// SyncOnce fetches the categories and products and replaces the synced
// catalogue in one transaction.
func (y *Syncer) SyncOnce(ctx context.Context) error {
	var cats []string
	if err := y.fetch(ctx, "/products/categories", func(r io.Reader) error {
		return json.NewDecoder(r).Decode(&cats)
	}); err != nil {
		return err
	}
	var parsed Parsed
	if err := y.fetch(ctx, "/products", func(r io.Reader) (err error) {
		parsed, err = Parse(r, "fs-", y.Log)
		return err
	}); err != nil {
		return err
	}
	if len(parsed.Products) == 0 {
		return errors.New("catalogue service returned no valid product")
	}
	for i := range cats {
		cats[i] = strings.ToLower(strings.TrimSpace(cats[i]))
	}
	markFeatured(parsed.Products)
	if err := y.Service.Store.ReplaceCatalog(ctx, SourceFakeStore, cats, y.Service.withDefaultStock(parsed.Products)); err != nil {
		return fmt.Errorf("catalogue sync: %w", err)
	}
	if err := y.Service.Reload(ctx); err != nil {
		return fmt.Errorf("catalogue sync: %w", err)
	}
	if err := y.Service.syncImages(ctx, &parsed); err != nil {
		return fmt.Errorf("catalogue sync: %w", err)
	}
	y.Log.Info("catalogue synced", "products", len(parsed.Products), "skipped", parsed.Skipped,
		"images_fetched", parsed.Images.Fetched, "images_failed", parsed.Images.Failed)
	y.Service.Warm(ctx) // logs its own failure: search then scores live
	return nil
}

// fetch GETs path with retries and exponential backoff and hands the body to
// decode; a decode error is retried too (a half-sent body is transient).
func (y *Syncer) fetch(ctx context.Context, path string, decode func(io.Reader) error) error {
	var err error
	backoff := y.Backoff
	for attempt := 0; attempt <= y.Retries; attempt++ {
		if attempt > 0 {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(backoff):
			}
			backoff *= 2
		}
		if err = y.get(ctx, path, decode); err == nil {
			return nil
		}
		y.Log.Warn("catalogue fetch failed", "path", path, "attempt", attempt+1, "err", err)
	}
	return err
}

func (y *Syncer) get(ctx context.Context, path string, decode func(io.Reader) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(y.BaseURL, "/")+path, nil)
	if err != nil {
		return fmt.Errorf("catalogue request: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	res, err := y.Client.Do(req)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: status %d", path, res.StatusCode)
	}
	// 20 MB is far more than any real catalogue page; it bounds a runaway.
	if err := decode(io.LimitReader(res.Body, 20<<20)); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}

// withDefaultStock gives the products whose source said nothing about stock the
// Service's DefaultStock. The store uses it only for a product it creates:
// the stock of a product the shop already holds is never an import's.
func (s *Service) withDefaultStock(ps []shop.Product) []shop.Product {
	for i := range ps {
		if ps[i].Stock < 0 {
			ps[i].Stock = max(s.DefaultStock, 0)
		}
	}
	return ps
}

// builtinChoices is a built-in product's options and variants as
// seed/variants.json gives them: the FakeStore shape has none, so the
// starter catalogue keeps them beside it.
type builtinChoices struct {
	Options []struct {
		Name   string `json:"name"`
		Values []struct {
			Value  string `json:"value"`
			Swatch string `json:"swatch"`
		} `json:"values"`
	} `json:"options"`
	Variants []struct {
		Values []string `json:"values"`
		Stock  int      `json:"stock"`
		// Price is the variant's own, as decimal text; empty: the
		// product's.
		Price string `json:"price"`
	} `json:"variants"`
}

// loadBuiltinVariants gives the built-in products that have options their
// variants (a store without variants skips them).
func (s *Service) loadBuiltinVariants(ctx context.Context) error {
	if s.Variants == nil {
		return nil
	}
	b, err := seedFS.ReadFile("seed/variants.json")
	if err != nil {
		return err
	}
	var all map[string]builtinChoices
	if err := json.Unmarshal(b, &all); err != nil {
		return fmt.Errorf("variants: %w", err)
	}
	for id, bc := range all {
		var c shop.Choices
		for _, o := range bc.Options {
			opt := shop.Option{Name: o.Name}
			for _, v := range o.Values {
				opt.Values = append(opt.Values, shop.OptionValue{Value: v.Value, Swatch: v.Swatch})
			}
			c.Options = append(c.Options, opt)
		}
		for _, v := range bc.Variants {
			var price shop.Cents
			if v.Price != "" {
				if price, err = money.ParseRounded(v.Price); err != nil {
					return fmt.Errorf("variant of %s: %w", id, err)
				}
			}
			c.Variants = append(c.Variants, shop.Variant{ID: VariantID(id, v.Values), Values: v.Values, Price: price, Stock: v.Stock, Enabled: true})
		}
		if err := s.Variants.SetChoices(ctx, id, c); err != nil {
			return fmt.Errorf("variants of %s: %w", id, err)
		}
	}
	return nil
}

// VariantID names a product's variant by its values: "nb-014-m-black".
func VariantID(productID string, values []string) string {
	id := productID
	for _, v := range values {
		id += "-" + slug(v)
	}
	return id
}

// slug is s in lower case with every run of other characters than letters
// and digits as one hyphen.
func slug(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			hyphen = false
		} else if !hyphen && b.Len() > 0 {
			b.WriteByte('-')
			hyphen = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
