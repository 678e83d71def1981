package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/shop"
)

// csvFile reports whether a catalogue file is Shopify's product CSV (the
// format follows the extension; .json is the FakeStore shape).
func csvFile(path string) bool { return strings.EqualFold(filepath.Ext(path), ".csv") }

// catalogCommand runs "catalog import FILE" and "catalog export FILE". The
// format follows the extension: .csv is Shopify's product CSV (either way),
// .json the FakeStore shape (import only). An import of another kind is
// refused before the database is opened.
func catalogCommand(ctx context.Context, cfg *config.Config, log *slog.Logger, verb, path string) error {
	if verb == "import" && !csvFile(path) && !strings.EqualFold(filepath.Ext(path), ".json") {
		return fmt.Errorf("catalog import %s: the format follows the extension: .csv (Shopify's product CSV) or .json (the FakeStore shape)", path)
	}
	return withDatabase(ctx, cfg, func(db *backend) error {
		cat := newCatalog(cfg, db, log, progressLine(os.Stderr))
		if verb == "export" || csvFile(path) {
			return catalogFileCommand(ctx, cat, db, []string{verb, path}, os.Stdout, os.Stderr)
		}
		return importJSON(ctx, cat, path)
	})
}

// importJSON runs "catalog import FILE.json": a catalogue in the FakeStore
// shape, whose malformed items are skipped and counted.
func importJSON(ctx context.Context, cat *catalog.Service, path string) error {
	parsed, err := cat.ImportFile(ctx, path)
	if err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	fmt.Printf("imported %d products (%d skipped, %d images failed) from %s\n",
		len(parsed.Products), parsed.Skipped, parsed.Images.Failed+parsed.Images.Kept, path)
	return nil
}

// catalogFileCommand runs "catalog import FILE.csv" and "catalog export
// FILE.csv" ("-" for standard output) on an opened shop. The import's
// report goes to out (the export's to errOut, so that "-" writes only the
// file); every import that read its file is written to the audit log, as
// done by "cli".
func catalogFileCommand(ctx context.Context, cat *catalog.Service, audit shop.AuditStore, args []string, out, errOut io.Writer) error {
	switch {
	case len(args) == 2 && args[0] == "import":
		return importCSV(ctx, cat, audit, args[1], out)
	case len(args) == 2 && args[0] == "export":
		return exportCSV(ctx, cat, args[1], out, errOut)
	}
	return fmt.Errorf("usage: catalog import FILE.csv | catalog export FILE.csv (- for standard output)")
}

func importCSV(ctx context.Context, cat *catalog.Service, audit shop.AuditStore, path string, out io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open catalogue: %w", err)
	}
	defer f.Close()
	rep, err := cat.ImportCSV(ctx, f)
	if err != nil && len(rep.Created)+len(rep.Updated)+len(rep.Skipped) == 0 {
		return fmt.Errorf("import %s: %w", path, err)
	}
	after, jerr := json.Marshal(rep.Audit())
	if jerr != nil {
		return fmt.Errorf("import %s: audit: %w", path, jerr)
	}
	if aerr := audit.RecordAudit(ctx, shop.AuditEntry{Actor: "cli", Action: "catalog.import", Subject: filepath.Base(path), After: string(after)}); aerr != nil {
		return fmt.Errorf("import %s: audit: %w", path, aerr)
	}
	for _, line := range rep.Lines() {
		fmt.Fprintln(out, line)
	}
	if err != nil {
		return fmt.Errorf("import %s stopped part way (the products above are imported): %w", path, err)
	}
	// The products are live (with their category's illustration); their
	// photos are fetched now, before the command ends.
	imgs, err := cat.FetchPhotos(ctx, rep.PhotoURLs)
	if cat.Images != nil {
		fmt.Fprintln(out, "photos:", imgs.String())
	}
	if err != nil {
		return fmt.Errorf("import %s: %w", path, err)
	}
	return nil
}

func exportCSV(ctx context.Context, cat *catalog.Service, path string, stdout, errOut io.Writer) error {
	w, done := stdout, func() error { return nil }
	if path != "-" {
		// Written beside the target and renamed once complete, so an
		// export that fails never leaves half a file under its name.
		f, err := os.CreateTemp(filepath.Dir(path), ".catalog-*.csv")
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		defer os.Remove(f.Name())
		w = f
		done = func() error {
			if err := f.Close(); err != nil {
				return err
			}
			return os.Rename(f.Name(), path)
		}
	}
	n, err := cat.ExportCSV(ctx, w)
	if err == nil {
		err = done()
	} else if f, ok := w.(*os.File); ok && path != "-" {
		f.Close()
	}
	if err != nil {
		return fmt.Errorf("export %s: %w", path, err)
	}
	what := "products"
	if n == 1 {
		what = "product"
	}
	fmt.Fprintf(errOut, "exported %d %s to %s\n", n, what, path)
	return nil
}
