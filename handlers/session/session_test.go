package session_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/shop"
)

type ctxKey struct{}

// memStore is a session.Store that remembers the context of each call.
type memStore struct {
	mu   sync.Mutex
	data map[string][]byte
	seen []any // ctx.Value(ctxKey{}) of each call
}

func (m *memStore) saw(ctx context.Context) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seen = append(m.seen, ctx.Value(ctxKey{}))
}

func (m *memStore) GetWithContext(ctx context.Context, key string) ([]byte, error) {
	m.saw(ctx)
	return m.data[key], nil
}

func (m *memStore) SetWithContext(ctx context.Context, key string, val []byte, _ time.Duration) error {
	m.saw(ctx)
	m.data[key] = val
	return nil
}

func (m *memStore) DeleteWithContext(ctx context.Context, key string) error {
	m.saw(ctx)
	delete(m.data, key)
	return nil
}

var _ session.Store = (*memStore)(nil)

// A session is read and written within the request's context, so a
// request that ends (or times out) stops its session's database work too.
func TestSessionUsesRequestContext(t *testing.T) {
	store := &memStore{data: map[string][]byte{}}
	s := session.New(store, false, shop.UserStore(nil), time.Now, slog.New(slog.NewTextHandler(io.Discard, nil)))
	app := fiber.New()
	app.Use(func(c *fiber.Ctx) error {
		c.SetUserContext(context.WithValue(c.UserContext(), ctxKey{}, strings.Clone(c.Path())))
		return c.Next()
	})
	app.Use(s.Middleware)
	app.Get("/set", func(c *fiber.Ctx) error { return s.Set(c, "cart", "k1") })
	app.Get("/take", func(c *fiber.Ctx) error {
		v, err := s.Take(c, "cart")
		if err != nil {
			return err
		}
		return c.SendString(v.(string))
	})

	res, err := app.Test(httptest.NewRequest("GET", "/set", nil), -1)
	if err != nil {
		t.Fatal(err)
	}
	var cookie string
	for _, ck := range res.Cookies() {
		if ck.Name == session.CookieName {
			cookie = ck.Value
		}
	}
	if cookie == "" {
		t.Fatalf("no session cookie set")
	}
	req := httptest.NewRequest("GET", "/take", nil)
	req.Header.Set("Cookie", session.CookieName+"="+cookie)
	res, err = app.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	if body, _ := io.ReadAll(res.Body); string(body) != "k1" {
		t.Errorf("took %q, want %q", body, "k1")
	}
	want := []any{"/set", "/take", "/take"} // set; then load and re-save on take
	if len(store.seen) != len(want) {
		t.Fatalf("store calls saw %v, want %v", store.seen, want)
	}
	for i := range want {
		if store.seen[i] != want[i] {
			t.Errorf("store call %d ran in the context of %v, want the request's (%v)", i, store.seen[i], want[i])
		}
	}
}
