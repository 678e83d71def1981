package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/shop"
)

// csvFile reports whether a catalogue file is Shopify's product CSV (the
// format follows the extension; .json is the FakeStore shape).
func csvFile(path string) bool { return strings.EqualFold(filepath.Ext(path), ".csv") }

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
