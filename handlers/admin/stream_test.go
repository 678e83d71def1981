package admin_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/handlers/web"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/shop"
)

// staffStore makes everyone an admin.
type staffStore struct{ shop.StaffStore }

func (staffStore) StaffRole(context.Context, string) (string, error) { return shop.RoleAdmin, nil }

// auditStore keeps nothing.
type auditStore struct{ shop.AuditStore }

func (auditStore) RecordAudit(context.Context, shop.AuditEntry) error { return nil }

// slowExports hands over many orders, then waits for release before
// the last one, and ends with end (nil: the file is whole).
type slowExports struct {
	shop.ExportStore
	release chan struct{}
	end     error
}

// firstRows is more rows than every buffer on the way holds (the CSV
// writer's, the compressor's window, the pipe's), so only a response that
// streams gets them to the client before the last one is read.
const firstRows = 5000

func (s slowExports) ExportOrders(ctx context.Context, _ shop.ExportRange, each func(*shop.Order) error) error {
	for i := range firstRows + 1 {
		id := fmt.Sprintf("NOC-%05d", i)
		if i == firstRows {
			select {
			case <-s.release:
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(10 * time.Second):
				return errors.New("the first rows never reached the client")
			}
			id = "NOC-LAST"
		}
		if err := each(&shop.Order{ID: id, Currency: "usd", CreatedAt: time.Unix(0, 0)}); err != nil {
			return err
		}
	}
	return s.end
}

// serve runs the back office on a loopback listener, every request from
// a signed-in admin.
func serve(t *testing.T, exports shop.ExportStore) string {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	app := fiber.New(fiber.Config{DisableStartupMessage: true, WriteTimeout: 15 * time.Second})
	app.Use(func(c *fiber.Ctx) error {
		c.SetUserContext(shop.NewContextWithUser(c.UserContext(), &shop.CurrentUser{ID: "usr_1", Email: "admin@example.com"}))
		return c.Next()
	})
	admin.New(&web.Pages{Log: log, Now: time.Now}, admin.Deps{
		Staff: staffStore{}, Exports: exports,
		Service: &backoffice.Service{Audit: auditStore{}, Now: time.Now, Log: log},
	}).Register(app)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go app.Listener(ln)
	t.Cleanup(func() { app.Shutdown() })
	return "http://" + ln.Addr().String()
}

// An export reaches the client as it is read: its first rows arrive
// while the store still holds the last, so nothing waits for the whole
// file, gzipped or not.
func TestExport_Streams(t *testing.T) {
	for _, gz := range []bool{false, true} {
		release := make(chan struct{})
		base := serve(t, slowExports{release: release})
		req, _ := http.NewRequest(http.MethodGet, base+"/admin/exports/orders.csv?from=1970-01-01&to=1970-01-02", nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Header.Get("Content-Encoding"); gz != (got == "gzip") {
			t.Fatalf("gzip %v: Content-Encoding %q", gz, got)
		}
		var body io.Reader = res.Body
		if gz {
			zr, err := gzip.NewReader(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			body = zr
		}
		lines := bufio.NewReader(body)
		for _, want := range []string{"\uFEFFOrder,Date", "NOC-00000,", "NOC-00001,"} {
			line, err := lines.ReadString('\n')
			if err != nil || !strings.HasPrefix(line, want) {
				t.Fatalf("gzip %v: read %q, %v; want a line starting %q before the store has finished", gz, line, err, want)
			}
		}
		close(release)
		rest, err := io.ReadAll(lines)
		if err != nil || !strings.Contains(string(rest), "\r\nNOC-LAST,") {
			t.Errorf("gzip %v: the rest (%d bytes) has no last row: %v", gz, len(rest), err)
		}
		res.Body.Close()
	}
}

// An export that fails midway ends its download without the body's end,
// so the browser reports a failure instead of saving a file that looks
// whole.
func TestExport_FailureBreaksTheDownload(t *testing.T) {
	for _, gz := range []bool{false, true} {
		release := make(chan struct{})
		close(release)
		base := serve(t, slowExports{release: release, end: errors.New("database gone")})
		req, _ := http.NewRequest(http.MethodGet, base+"/admin/exports/orders.csv?from=1970-01-01&to=1970-01-02", nil)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err == nil {
			t.Errorf("gzip %v: a failed export read as whole (%d %q)", gz, res.StatusCode, body)
		}
	}
}
