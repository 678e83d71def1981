package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"golang.org/x/sync/errgroup"

	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/images/imagestest"
	"github.com/nocturne/storefront/internal/shop"
)

// storefront runs this test binary as the storefront command with args,
// on the shop in dir, and returns its standard output and error.
func storefront(t *testing.T, dir string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "STOREFRONT_TEST_SERVE=1", "LOG_LEVEL=warn", "DATA_DIR="+dir,
		"SESSION_SECRET="+strings.Repeat("s", 40), "DATABASE_URL=sqlite://"+filepath.Join(dir, "shop.db"),
		"IMAGE_FETCH_ALLOW_PRIVATE=true")
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	return out.String(), errOut.String(), err
}

// `storefront catalog import FILE.csv` imports a Shopify file, prints its
// report (skipped lines by number) and fetches its photos; `catalog export`
// writes the catalogue to a file or to standard output, byte for byte
// what the back office's download gives; the import is in the audit log;
// the format follows the extension.
func TestCatalogCommand_CSV(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	photos := imagestest.NewServer(t, map[string]imagestest.File{
		"/desk.png": {ContentType: "image/png", Body: imagestest.PNG(t, 400, 300)},
		"/side.png": {ContentType: "image/png", Body: imagestest.PNG(t, 300, 300)},
	})
	file := filepath.Join(dir, "desk.csv")
	csv := "Handle,Title,Body (HTML),Type,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant Price,Variant Inventory Qty,Image Src,Variant Image,Status\n" +
		"desk-lamp,Desk Lamp,<p>Bright.</p>,Home,TRUE,Size,S,Finish,Brass,30,4," + photos.URL + "/desk.png,,active\n" +
		"desk-lamp,,,,,,S,,Steel,30,4,," + photos.URL + "/side.png,\n" +
		"desk-lamp,,,,,,M,,Brass,,4,,,\n" + // line 4: no price
		"desk-lamp,,,,,,M,,Steel,35,0,,,\n"
	if err := os.WriteFile(file, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}

	out, errOut, err := storefront(t, dir, "catalog", "import", file)
	if err != nil {
		t.Fatalf("import: %v\n%s%s", err, out, errOut)
	}
	for _, want := range []string{
		"1 product new, 0 products updated, 1 line skipped\n",
		"skipped line 4 (desk-lamp): Variant Price is empty",
		"photos: 2 images: 2 fetched, 0 unchanged, 0 failed\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("import printed no %q:\n%s", want, out)
		}
	}

	csvOut, errOut, err := storefront(t, dir, "catalog", "export", "-")
	if err != nil || !strings.HasPrefix(csvOut, "Handle,Title,") || !strings.Contains(csvOut, "desk-lamp,Desk Lamp,<p>Bright.</p>,,home,") ||
		errOut != "exported 1 product to -\n" {
		t.Fatalf("export to standard output: %v\n%s\n%s", err, csvOut, errOut)
	}
	exported := filepath.Join(dir, "out.csv")
	if _, errOut, err := storefront(t, dir, "catalog", "export", exported); err != nil {
		t.Fatalf("export to a file: %v %s", err, errOut)
	}
	if b, err := os.ReadFile(exported); err != nil || string(b) != csvOut {
		t.Errorf("the exported file differs from standard output: %v", err)
	}

	// The format follows the extension.
	if _, errOut, err := storefront(t, dir, "catalog", "import", filepath.Join(dir, "desk.txt")); err == nil ||
		!strings.Contains(errOut, ".csv (Shopify's product CSV) or .json (the FakeStore shape)") {
		t.Errorf("import of a .txt: %v %s", err, errOut)
	}
	if _, errOut, err := storefront(t, dir, "catalog", "import", filepath.Join(dir, "missing.csv")); err == nil ||
		!strings.Contains(errOut, "open catalogue") {
		t.Errorf("import of a missing file: %v %s", err, errOut)
	}

	// The shop sees the same: the back office's download is the same bytes,
	// and the import is in the audit log.
	app, db := startShop(t, dir)
	admin := signInAdmin(t, app, db)
	res, err := app.Test(admin(httptest.NewRequest(http.MethodGet, "/admin/catalog/export.csv", nil)), -1)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || string(body) != csvOut {
		t.Errorf("download: %d, %d bytes; the command wrote %d", res.StatusCode, len(body), len(csvOut))
	}
	entries, _, err := db.AuditLog(context.Background(), 1)
	if err != nil || len(entries) != 1 || entries[0].Action != "catalog.import" || entries[0].Actor != "cli" || entries[0].Subject != "desk.csv" ||
		!strings.Contains(entries[0].After, `"created":["desk-lamp"]`) {
		t.Errorf("audit log: %+v, %v", entries, err)
	}
	if p, err := db.Product(context.Background(), "desk-lamp"); err != nil || !p.Photo.Ready() {
		t.Errorf("the imported product's photo: %+v, %v", p, err)
	}
}

// startShop starts the shop in-process on dir's database, as run does.
func startShop(t *testing.T, dir string) (*fiber.App, *backend) {
	t.Helper()
	env := map[string]string{"DATA_DIR": dir, "SESSION_SECRET": strings.Repeat("s", 40), "DATABASE_URL": "sqlite://" + filepath.Join(dir, "shop.db")}
	cfg, err := config.Load(func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	db, err := openDatabase(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var jobs errgroup.Group
	t.Cleanup(func() { cancel(); jobs.Wait(); db.Close() })
	app, _, err := start(ctx, cfg, db, slog.New(slog.DiscardHandler), catalogPace{Tick: make(chan time.Time)}, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	return app, db
}

// signInAdmin registers an account through the shop's form, makes it an
// admin and signs it in; it returns what adds its session to a request.
func signInAdmin(t *testing.T, app *fiber.App, db *backend) func(*http.Request) *http.Request {
	t.Helper()
	cookies := map[string]string{}
	with := func(req *http.Request) *http.Request {
		for k, v := range cookies {
			req.AddCookie(&http.Cookie{Name: k, Value: v})
		}
		return req
	}
	post := func(path string, form url.Values) {
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("Origin", "http://"+req.Host)
		res, err := app.Test(with(req), -1)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST %s: %d", path, res.StatusCode)
		}
		for _, c := range res.Cookies() {
			cookies[c.Name] = c.Value
		}
	}
	const email, pw = "ada@example.com", "night-owl-41"
	post("/register", url.Values{"displayName": {"Ada"}, "email": {email}, "password": {pw}, "confirmPassword": {pw}})
	ctx := context.Background()
	u, _, err := db.UserByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.MarkEmailVerified(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GrantStaff(ctx, email, shop.RoleAdmin); err != nil {
		t.Fatal(err)
	}
	return with
}
