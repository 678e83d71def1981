package catalog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nocturne/storefront/internal/catalogcsv"
	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/shop"
)

// SourceCSV is the source of products a catalogue file (Shopify's product
// CSV) created. Products written from a file are the staff's: no JSON
// import or sync updates or removes them.
const SourceCSV = "csv"

// DefaultCategory is the category of a product whose file gives no Type:
// every product of the shop has one.
const DefaultCategory = "other"

// Limits of what a product takes from a file, beyond what the store and
// shop.Product.Validate check: the HTML kept for the product page, and
// the length of a handle (the editor's limit for a product id).
const (
	maxBodyHTML    = 100_000
	maxHandle      = 64
	maxTitle       = 300    // shop.Product.Validate's
	maxDescription = 10_000 // shop.Product.Validate's, for the text
)

// handleRule is a handle the shop takes as a product id: a lower-case slug.
var handleRule = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// CSVReport says what an import of a catalogue file did, line by line
// where a line is concerned.
type CSVReport struct {
	// Created and Updated are the handles of the products written, new to
	// the shop or already there, in file order.
	Created, Updated []string
	// Skipped are the rows not imported and why, by line; a product is
	// skipped whole, with every row of it.
	Skipped []catalogcsv.Problem
	// Notes are rows imported differently from what the file says (a
	// negative quantity taken as 0).
	Notes []catalogcsv.Problem
	// Conflicts are stock changes refused because stock moved since the
	// file was exported; the shop's stock was left as it is.
	Conflicts []StockConflict
	// StockKept counts variants the shop had already whose stock the file
	// could not change: it has no Exported Inventory Qty (it was not
	// exported by this shop), so a quantity in it cannot be told from
	// stock sold since.
	StockKept int
	// PhotoURLs are the photos of the products written, for FetchPhotos.
	PhotoURLs []string
}

// StockConflict is a stock change refused by an import, with its line.
type StockConflict struct {
	Line      int
	Handle    string
	VariantID string
	Exported  int // the stock the file was exported with
	Now       int // the stock the shop holds, left as it is
}

func (c StockConflict) String() string {
	return fmt.Sprintf("line %d (%s): stock moved from %d to %d since the export; left at %d", c.Line, c.VariantID, c.Exported, c.Now, c.Now)
}

// Summary is the report in one sentence.
func (r CSVReport) Summary() string {
	s := fmt.Sprintf("%s new, %s updated, %s skipped",
		plural(len(r.Created), "product", "products"), plural(len(r.Updated), "product", "products"),
		plural(len(r.Skipped), "line", "lines"))
	if n := len(r.Conflicts); n > 0 {
		s += ", " + plural(n, "stock conflict", "stock conflicts")
	}
	return s
}

// StockKeptText explains StockKept, or is "" when there is nothing to say.
func (r CSVReport) StockKeptText() string {
	if r.StockKept == 0 {
		return ""
	}
	return fmt.Sprintf("Stock of %s the shop already had was left as it is: the file has no Exported Inventory Qty "+
		"(it was not exported by this shop), so its quantities cannot be told from what was sold since. "+
		"Change stock in the product editor, or export, edit and import that file.", plural(r.StockKept, "variant", "variants"))
}

// Lines is the report as the import command prints it, one line each.
func (r CSVReport) Lines() []string {
	out := []string{r.Summary()}
	for _, p := range r.Skipped {
		out = append(out, "skipped "+p.String())
	}
	for _, c := range r.Conflicts {
		out = append(out, "stock conflict "+c.String())
	}
	for _, p := range r.Notes {
		out = append(out, "note "+p.String())
	}
	if s := r.StockKeptText(); s != "" {
		out = append(out, s)
	}
	return out
}

// auditRecord is what the audit log keeps of an import.
type auditRecord struct {
	Created   []string `json:"created,omitempty"`
	Updated   []string `json:"updated,omitempty"`
	Skipped   []string `json:"skipped,omitempty"`
	Conflicts []string `json:"stock_conflicts,omitempty"`
	StockKept int      `json:"stock_kept,omitempty"`
}

// Audit is the report as the audit log keeps it.
func (r CSVReport) Audit() any {
	a := auditRecord{Created: r.Created, Updated: r.Updated, StockKept: r.StockKept}
	for _, p := range r.Skipped {
		a.Skipped = append(a.Skipped, p.String())
	}
	for _, c := range r.Conflicts {
		a.Conflicts = append(a.Conflicts, c.String())
	}
	return a
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// files is the store's catalogue-file side, when it has one.
func (s *Service) files() (shop.CatalogFileStore, error) {
	f, ok := s.Store.(shop.CatalogFileStore)
	if !ok {
		return nil, fmt.Errorf("catalogue files: %T cannot import or export whole products", s.Store)
	}
	return f, nil
}

// ImportCSV imports a product CSV: each product the file describes is
// created or replaced whole, in a transaction of its own, and the
// catalogue in memory is reloaded (other instances follow the catalogue
// version). Rows the file gets wrong are skipped and reported by line,
// never half imported. The photos are not fetched: pass the report's
// PhotoURLs to FetchPhotos (the products show their category's
// illustration until then).
//
// An error is a file that cannot be read at all, or a store that failed
// part way; the report then says what was imported before.
func (s *Service) ImportCSV(ctx context.Context, r io.Reader) (CSVReport, error) {
	var rep CSVReport
	files, err := s.files()
	if err != nil {
		return rep, err
	}
	products, problems, err := catalogcsv.Read(r)
	if err != nil {
		return rep, err
	}
	rep.Skipped = problems
	seen := map[string]bool{}
	for _, p := range products {
		e, notes, problem := entryOf(p)
		if problem != "" {
			rep.skip(p, problem)
			continue
		}
		res, err := files.ImportEntry(ctx, SourceCSV, e)
		switch code := shop.ErrorCode(err); {
		case err == nil:
		case code == shop.EINVALID || code == shop.ECONFLICT || code == shop.ENOTFOUND:
			rep.skip(p, shop.ErrorMessage(err))
			continue
		default:
			if len(rep.Created)+len(rep.Updated) > 0 {
				s.reloadAfterImport(ctx)
			}
			return rep, fmt.Errorf("import %s (line %d): %w", p.Handle, p.Line, err)
		}
		rep.Notes = append(rep.Notes, notes...)
		if res.Created {
			rep.Created = append(rep.Created, p.Handle)
		} else {
			rep.Updated = append(rep.Updated, p.Handle)
		}
		rep.StockKept += res.StockKept
		for _, c := range res.Conflicts {
			rep.Conflicts = append(rep.Conflicts, StockConflict{Line: p.Variants[c.Index].Line, Handle: p.Handle,
				VariantID: c.VariantID, Exported: c.Exported, Now: c.Now})
		}
		for _, ph := range e.Photos {
			if images.HTTPURL(ph.URL) && !seen[ph.URL] {
				seen[ph.URL] = true
				rep.PhotoURLs = append(rep.PhotoURLs, ph.URL)
			}
		}
	}
	// The file's problems and the shop's, in the order of the file.
	slices.SortStableFunc(rep.Skipped, func(a, b catalogcsv.Problem) int { return cmp.Compare(a.Line, b.Line) })
	if len(rep.Created)+len(rep.Updated) > 0 {
		if err := s.Reload(ctx); err != nil {
			return rep, fmt.Errorf("reload after the import: %w", err)
		}
	}
	return rep, nil
}

// reloadAfterImport reloads after an import that stopped part way: what it
// wrote is in the store, and this process should show it too.
func (s *Service) reloadAfterImport(ctx context.Context) {
	if err := s.Reload(ctx); err != nil {
		s.Log.Error("catalogue reload after a failed import", "err", err)
	}
}

// skip reports every row of a product that is not imported.
func (r *CSVReport) skip(p catalogcsv.Product, msg string) {
	r.Skipped = append(r.Skipped, catalogcsv.Problem{Line: p.Line, Handle: p.Handle, Msg: msg})
	// The product's other rows go with it; each is named, so a merchant
	// reading the report by line finds them.
	lines := map[int]bool{p.Line: true}
	for _, v := range p.Variants {
		if !lines[v.Line] {
			lines[v.Line] = true
			r.Skipped = append(r.Skipped, catalogcsv.Problem{Line: v.Line, Handle: p.Handle,
				Msg: fmt.Sprintf("Skipped with product %q (line %d)", p.Handle, p.Line)})
		}
	}
}

// entryOf maps a product of a file to the shop's: its handle is its id,
// Type its category, Body (HTML) its description, Published and Status
// whether it is on sale. problem is why it cannot be imported, or "";
// notes are what is imported differently from the file.
func entryOf(p catalogcsv.Product) (e shop.CatalogEntry, notes []catalogcsv.Problem, problem string) {
	if e.Product, problem = entryProduct(p); problem != "" {
		return e, nil, problem
	}
	e.Tags = p.Tags
	e.Options = entryOptions(p.Options)
	if e.Variants, notes, problem = entryVariants(p); problem != "" {
		return e, nil, problem
	}
	// Listings sort and filter by the product's price: the cheapest
	// variant's, which cards show as "from".
	cheapest := cheapestVariant(p.Variants)
	e.Product.Price, e.Product.Original = cheapest.Price, cheapest.CompareAt
	if err := e.Product.Validate(); err != nil {
		return e, nil, strings.ToUpper(err.Error()[:1]) + err.Error()[1:]
	}
	e.Photos = entryPhotos(p)
	if len(e.Photos) > shop.MaxGalleryPhotos {
		return e, nil, fmt.Sprintf("The product has %d images; the shop keeps up to %d", len(e.Photos), shop.MaxGalleryPhotos)
	}
	return e, notes, ""
}

// entryProduct maps the product's own fields, refusing what the shop cannot
// keep: a handle that cannot be an address, a category it cannot show, a
// title or description over its sizes. Its price comes from the variants.
func entryProduct(p catalogcsv.Product) (shop.Product, string) {
	if len(p.Handle) > maxHandle || !handleRule.MatchString(p.Handle) {
		return shop.Product{}, fmt.Sprintf("Handle %q is not one the shop takes: use %d or fewer lower-case letters, digits and dashes, "+
			"starting with a letter or digit (it becomes the product's address)", p.Handle, maxHandle)
	}
	category := strings.ToLower(strings.TrimSpace(p.Type))
	switch {
	case category == "":
		category = DefaultCategory
	case utf8.RuneCountInString(category) > 60 || category == shop.FeaturedCategory:
		return shop.Product{}, fmt.Sprintf("Type %q cannot be a category of the shop: use a shorter name, and not %q", p.Type, shop.FeaturedCategory)
	}
	if len(p.Title) > maxTitle {
		return shop.Product{}, fmt.Sprintf("Title is %d bytes long; the shop takes titles of up to %d", len(p.Title), maxTitle)
	}
	if len(p.BodyHTML) > maxBodyHTML {
		return shop.Product{}, fmt.Sprintf("Body (HTML) is %d bytes long; the shop keeps descriptions of up to %d", len(p.BodyHTML), maxBodyHTML)
	}
	text := TextOfHTML(p.BodyHTML)
	if len(text) > maxDescription {
		return shop.Product{}, fmt.Sprintf("Body (HTML) holds %d bytes of text; the shop keeps descriptions of up to %d", len(text), maxDescription)
	}
	return shop.Product{
		ID:              p.Handle,
		Title:           p.Title,
		Description:     text,
		DescriptionHTML: p.BodyHTML,
		Category:        category,
		Hidden:          !p.Published || p.Status != catalogcsv.StatusActive,
	}, ""
}

// entryOptions maps the file's options and their values.
func entryOptions(options []catalogcsv.Option) []shop.Option {
	var out []shop.Option
	for _, o := range options {
		opt := shop.Option{Name: o.Name}
		for _, v := range o.Values {
			opt.Values = append(opt.Values, shop.OptionValue{Value: v})
		}
		out = append(out, opt)
	}
	return out
}

// entryVariants maps the variants. A variant's id is the handle and the slug
// of its option values, so two variants whose values differ only in other
// characters are refused; negative stock is imported as 0, with a note.
func entryVariants(p catalogcsv.Product) (variants []shop.EntryVariant, notes []catalogcsv.Problem, problem string) {
	ids := map[string]int{}
	for i, v := range p.Variants {
		id := p.Handle
		if len(v.Values) > 0 {
			slug := slugOf(strings.Join(v.Values, "-"))
			if slug == "" {
				return nil, nil, fmt.Sprintf("The option values on line %d (%s) have no letters or digits to make the variant's id of",
					v.Line, strings.Join(v.Values, " / "))
			}
			id += "-" + slug
		}
		if j, dup := ids[id]; dup {
			return nil, nil, fmt.Sprintf("The variants on lines %d and %d would both have the id %s; make their option values differ in letters or digits",
				p.Variants[j].Line, v.Line, id)
		}
		ids[id] = i
		stock := v.Inventory
		if stock < 0 {
			notes = append(notes, catalogcsv.Problem{Line: v.Line, Handle: p.Handle,
				Msg: fmt.Sprintf("Variant Inventory Qty %d is below 0; the shop keeps no negative stock, so it is 0", stock)})
			stock = 0
		}
		variants = append(variants, shop.EntryVariant{
			Variant: shop.Variant{ID: id, ProductID: p.Handle, SKU: v.SKU, Values: v.Values, Price: v.Price,
				Original: v.CompareAt, Stock: stock, Image: v.Image, Enabled: true},
			Exported: v.Exported,
		})
	}
	return variants, notes, ""
}

// cheapestVariant is the first of the variants with the lowest price.
func cheapestVariant(variants []catalogcsv.Variant) catalogcsv.Variant {
	cheapest := 0
	for i, v := range variants {
		if v.Price < variants[cheapest].Price {
			cheapest = i
		}
	}
	return variants[cheapest]
}

// entryPhotos is the product's gallery: its images, then the variants' own.
func entryPhotos(p catalogcsv.Product) []shop.GalleryPhoto {
	var photos []shop.GalleryPhoto
	inGallery := map[string]bool{}
	for _, img := range p.Images {
		photos = append(photos, shop.GalleryPhoto{URL: img.Src, Alt: img.Alt})
		inGallery[img.Src] = true
	}
	// A variant's photo is one of the gallery's, so the product page can
	// show it; one the file lists only as a Variant Image joins at the end.
	for _, v := range p.Variants {
		if v.Image != "" && !inGallery[v.Image] {
			photos = append(photos, shop.GalleryPhoto{URL: v.Image, Alt: p.Title})
			inGallery[v.Image] = true
		}
	}
	return photos
}

// slugOf is s in lower case with every run of other characters than
// letters a-z and digits made one dash: "M / Black" is "m-black".
func slugOf(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
		} else {
			dash = true
		}
	}
	return b.String()
}

// ExportCSV writes every product (hidden ones too) as a product CSV in
// Shopify's layout, with the shop's Exported Inventory Qty column so the
// file can be imported back with its stock edits checked. It writes
// nothing to the store. It returns how many products were written.
func (s *Service) ExportCSV(ctx context.Context, w io.Writer) (int, error) {
	files, err := s.files()
	if err != nil {
		return 0, err
	}
	entries, err := files.CatalogEntries(ctx)
	if err != nil {
		return 0, err
	}
	products := make([]catalogcsv.Product, 0, len(entries))
	for _, e := range entries {
		if len(e.Variants) == 0 {
			// Nothing to sell, and the format has no product without a
			// variant; only a product caught between two writes has none.
			s.Log.Warn("export: product without variants left out", "product", e.Product.ID)
			continue
		}
		products = append(products, productOf(e))
	}
	if err := catalogcsv.Write(w, products); err != nil {
		return 0, err
	}
	return len(products), nil
}

// productOf maps a product of the shop to a file's: the reverse of
// entryOf, so that a file the shop exported imports back as it was.
func productOf(e shop.CatalogEntry) catalogcsv.Product {
	p := e.Product
	status := catalogcsv.StatusActive
	if p.Hidden {
		status = catalogcsv.StatusDraft
	}
	body := p.DescriptionHTML
	if body == "" {
		body = HTMLOfText(p.Description)
	}
	out := catalogcsv.Product{
		Handle: p.ID, Title: p.Title, BodyHTML: body, Type: p.Category, Tags: e.Tags,
		Published: !p.Hidden, Status: status,
	}
	for _, o := range e.Options {
		opt := catalogcsv.Option{Name: o.Name}
		for _, v := range o.Values {
			opt.Values = append(opt.Values, v.Value)
		}
		out.Options = append(out.Options, opt)
	}
	for _, v := range e.Variants {
		stock := v.Stock
		image := v.Image
		if !images.HTTPURL(image) {
			image = "" // an uploaded or built-in photo has no address a file can carry
		}
		out.Variants = append(out.Variants, catalogcsv.Variant{
			SKU: v.SKU, Values: v.Values, Price: v.Price, CompareAt: v.Original, Inventory: stock,
			Image: image, Exported: &stock,
		})
	}
	seen := map[string]bool{}
	for _, ph := range e.Photos {
		if images.HTTPURL(ph.URL) && !seen[ph.URL] {
			seen[ph.URL] = true
			out.Images = append(out.Images, catalogcsv.Image{Src: ph.URL, Position: len(out.Images) + 1, Alt: ph.Alt})
		}
	}
	return out
}

// FetchPhotos sends photos through the image pipeline (fetched once,
// resized, stored; those stored already are only revalidated), then, when
// any is new, bumps the catalogue version so every instance shows them,
// and deletes images nothing names any more. A Service without Images
// fetches nothing.
func (s *Service) FetchPhotos(ctx context.Context, urls []string) (images.Report, error) {
	if s.Images == nil {
		return images.Report{}, nil
	}
	rep, err := s.Images.Sync(ctx, urls)
	if err != nil {
		return rep, fmt.Errorf("product images: %w", err)
	}
	if rep.Fetched > 0 {
		// New photos change what listings show: a new catalogue version
		// makes every instance reload and every cached page go stale.
		if err := s.Images.Store.PhotosChanged(ctx); err != nil {
			return rep, fmt.Errorf("product images: %w", err)
		}
		if err := s.Reload(ctx); err != nil {
			return rep, fmt.Errorf("product images: %w", err)
		}
	}
	if err := s.Images.Prune(ctx); err != nil {
		return rep, fmt.Errorf("product images: %w", err)
	}
	return rep, nil
}

// FetchPhotosLater runs FetchPhotos in the background, for an import made
// in the back office, whose page should not wait for a catalogue's worth of
// downloads. It gives up after limit, or when StopPhotos is called; photos
// it did not store are fetched by the next import of a file naming them.
func (s *Service) FetchPhotosLater(urls []string, limit time.Duration) {
	if s.Images == nil || len(urls) == 0 {
		return
	}
	base := s.background()
	s.fetching.Add(1)
	go func() {
		defer s.fetching.Done()
		ctx, cancel := context.WithTimeout(base, limit)
		defer cancel()
		rep, err := s.FetchPhotos(ctx, urls)
		if err != nil && !errors.Is(err, context.Canceled) {
			s.Log.Error("photos of an imported catalogue file", "err", err, "images", rep.String())
			return
		}
		s.Log.Info("photos of an imported catalogue file", "images", rep.String())
	}()
}

// background is the context of the fetches FetchPhotosLater starts, which
// StopPhotos cancels.
func (s *Service) background() context.Context {
	s.bgOnce.Do(func() { s.bgCtx, s.bgStop = context.WithCancel(context.Background()) })
	return s.bgCtx
}

// WaitPhotos waits until the photos FetchPhotosLater is fetching are done.
func (s *Service) WaitPhotos() { s.fetching.Wait() }

// StopPhotos stops the fetches FetchPhotosLater started (and any it is
// asked for later) and waits for them to end, so that the store can be
// closed under none of them.
func (s *Service) StopPhotos() {
	s.background()
	s.bgStop()
	s.fetching.Wait()
}

// Gallery returns a product's photos in order, read from the store rather
// than from memory: photos are stored after an import, by whichever
// instance fetched them. Photo 1 is the product's cover (its Image); a
// photo whose Photo is not Ready is not stored (yet). A store without
// galleries gives the cover alone.
func (s *Service) Gallery(ctx context.Context, productID string) ([]shop.GalleryPhoto, error) {
	if g, ok := s.Store.(shop.GalleryStore); ok {
		return g.Photos(ctx, productID)
	}
	p, err := s.Store.Product(ctx, productID)
	if err != nil || p.Image == "" {
		return nil, err
	}
	return []shop.GalleryPhoto{{Position: 1, URL: p.Image, Alt: p.Title, Photo: p.Photo}}, nil
}
