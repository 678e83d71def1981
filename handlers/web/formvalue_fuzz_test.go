package web

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"testing"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
)

// FuzzFormDecoding: whatever body a client sends, as a urlencoded or a
// multipart form, reading fields never panics or fails the request, and
// every value a handler gets is valid UTF-8.
// Longer run: go test ./handlers/web -run '^$' -fuzz FuzzFormDecoding -fuzztime 5m
func FuzzFormDecoding(f *testing.F) {
	for _, seed := range []struct {
		body      string
		multipart bool
	}{
		{"name=Ada&email=ada%40example.com", false},
		{"name=Ada%ff%fe&message=%e2%82", false},
		{"name=%zz&&&=&name=second", false},
		{"message=" + string(bytes.Repeat([]byte("%00"), 100)), false},
		{"Ada\xff\xfe", true},
		{"", true},
	} {
		f.Add(seed.body, seed.multipart)
	}
	app := fiber.New(fiber.Config{BodyLimit: 1 << 20})
	app.Post("/", func(c *fiber.Ctx) error {
		// Raw bytes, not JSON (which would itself repair invalid UTF-8).
		return c.SendString(FormValue(c, "name") + "\x00" + FormValue(c, "email") + "\x00" + FormValue(c, "message") + "\x00" + FormValue(c, ""))
	})
	f.Fuzz(func(t *testing.T, body string, isMultipart bool) {
		var req *http.Request
		if isMultipart {
			var buf bytes.Buffer
			w := multipart.NewWriter(&buf)
			_ = w.WriteField("name", body)
			_ = w.WriteField("message", body+body)
			w.Close()
			req = httptest.NewRequest(http.MethodPost, "/", &buf)
			req.Header.Set("Content-Type", w.FormDataContentType())
		} else {
			req = httptest.NewRequest(http.MethodPost, "/", bytes.NewReader([]byte(body)))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		res, err := app.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("status %d", res.StatusCode)
		}
		raw, _ := io.ReadAll(res.Body)
		if !utf8.Valid(raw) {
			t.Fatalf("invalid UTF-8 in values %q", raw)
		}
	})
}
