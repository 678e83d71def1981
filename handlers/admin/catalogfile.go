package admin

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/catalogcsv"
	"github.com/nocturne/storefront/views/pages"
)

// CatalogFiles imports and exports the catalogue as Shopify's product CSV
// (catalog.Service).
type CatalogFiles interface {
	ImportCSV(ctx context.Context, r io.Reader) (catalog.CSVReport, error)
	ExportCSV(ctx context.Context, w io.Writer) (int, error)
	FetchPhotosLater(urls []string, limit time.Duration)
}

// catalogFilePages serve the catalogue file page, its import and its
// export (admin only).
type catalogFilePages struct {
	*web.Pages
	files CatalogFiles
	audit Recorder
}

// MaxCatalogFile bounds an uploaded catalogue file: the size of every
// large upload (MaxUpload), some thousands of products. A larger
// catalogue is imported with the `catalog import` command.
const MaxCatalogFile = MaxUpload

// photoFetchLimit bounds the background fetch of an import's photos.
const photoFetchLimit = 30 * time.Minute

func takesCatalogFile(c *fiber.Ctx) bool {
	return c.Method() == fiber.MethodPost && c.Path() == "/admin/catalog"
}

func (a *catalogFilePages) render(c *fiber.Ctx, status int, fileError string) error {
	p := pages.AdminCatalogPage{Nav: adminNav(c, backoffice.AreaCatalog), MaxSize: fmt.Sprintf("%d MB", MaxCatalogFile>>20), FileError: fileError}
	return web.Render(c, status, pages.AdminCatalog(a.Frame(c, "Catalogue file · Back office"), p))
}

func (a *catalogFilePages) adminCatalog(c *fiber.Ctx) error { return a.render(c, fiber.StatusOK, "") }

// adminImport imports an uploaded product CSV and shows its report. The
// report is the answer to the post itself, not a page to redirect to: it
// is kept nowhere but in the audit log. Posting the same file again (a
// reload) does no harm: a stock change is applied only while the stock is
// still what the file says it was exported with, so the second time it is
// reported as a conflict instead of being applied twice.
func (a *catalogFilePages) adminImport(c *fiber.Ctx) error {
	fh, err := c.FormFile("file")
	if err != nil || fh.Size == 0 {
		return a.render(c, fiber.StatusUnprocessableEntity, "Choose a product CSV file to import.")
	}
	f, err := fh.Open()
	if err != nil {
		return fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, MaxCatalogFile+1))
	if err != nil {
		return fmt.Errorf("read upload: %w", err)
	}
	if len(body) > MaxCatalogFile {
		return a.render(c, fiber.StatusUnprocessableEntity, fmt.Sprintf(
			"The file is larger than %d MB. Split it, or import it on the server with the catalog import command.", MaxCatalogFile>>20))
	}
	name := uploadName(fh.Filename)
	rep, err := a.files.ImportCSV(c.UserContext(), bytes.NewReader(body))
	written := len(rep.Created)+len(rep.Updated) > 0
	if err != nil && !written && len(rep.Skipped) == 0 {
		// The file itself could not be read: no header, not a CSV.
		return a.render(c, fiber.StatusUnprocessableEntity, "That file cannot be imported: "+err.Error())
	}
	// Every import that read the file is recorded, one that wrote nothing
	// too: what it refused is part of what staff did.
	a.audit.Record(c.UserContext(), staffEmail(c), "catalog.import", name, "", rep.Audit())
	if written {
		a.files.FetchPhotosLater(rep.PhotoURLs, photoFetchLimit)
	}
	if err != nil {
		return err
	}
	return web.Render(c, fiber.StatusOK, pages.AdminCatalogReport(a.Frame(c, "Import report · Back office"), reportPage(c, name, rep)))
}

// uploadName is the uploaded file's name as the report and the audit log
// show it: its base name, printable, not too long.
func uploadName(name string) string {
	name = strings.ToValidUTF8(filepath.Base(strings.ReplaceAll(name, `\`, "/")), "\uFFFD")
	name = strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return -1
		}
		return r
	}, name)
	if utf8.RuneCountInString(name) > 100 {
		name = string([]rune(name)[:100]) + "…"
	}
	if name == "" || name == "." || name == "/" {
		return "catalogue.csv"
	}
	return name
}

func reportPage(c *fiber.Ctx, name string, rep catalog.CSVReport) pages.AdminCatalogReportPage {
	lines := func(ps []catalogcsv.Problem) []pages.ReportLine {
		out := make([]pages.ReportLine, len(ps))
		for i, p := range ps {
			out[i] = pages.ReportLine{Line: p.Line, Handle: p.Handle, Message: p.Msg}
		}
		return out
	}
	p := pages.AdminCatalogReportPage{
		Nav: adminNav(c, backoffice.AreaCatalog), FileName: name, Summary: rep.Summary(),
		Created: rep.Created, Updated: rep.Updated, Skipped: lines(rep.Skipped), Notes: lines(rep.Notes),
		StockKept: rep.StockKeptText(), Photos: len(rep.PhotoURLs),
	}
	for _, x := range rep.Conflicts {
		p.Conflicts = append(p.Conflicts, pages.ReportLine{Line: x.Line, Handle: x.VariantID,
			Message: fmt.Sprintf("Stock moved from %d to %d since the export; left at %d.", x.Exported, x.Now, x.Now)})
	}
	return p
}

// adminExport downloads the catalogue as a product CSV, exactly what the
// `catalog export` command writes. It only reads.
func (a *catalogFilePages) adminExport(c *fiber.Ctx) error {
	var b bytes.Buffer
	if _, err := a.files.ExportCSV(c.UserContext(), &b); err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, "text/csv; charset=utf-8")
	c.Set(fiber.HeaderContentDisposition, fmt.Sprintf(`attachment; filename="catalogue-%s.csv"`, a.Now().UTC().Format("2006-01-02")))
	return c.Send(b.Bytes())
}
