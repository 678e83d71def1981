package sqlite_test

import (
	"context"
	"sync"
	"testing"
	"time"
)

// Throttle counters count every hit, also concurrent ones, and a hit after
// the window ends starts a new window.
func TestThrottle_HitsAndWindows(t *testing.T) {
	t.Parallel()
	db := MustOpenDB(t)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	db.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	ctx := context.Background()

	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := db.Hit(ctx, "k", time.Minute); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	n, resets, err := db.Hits(ctx, "k")
	if err != nil || n != 20 || !resets.Equal(now.Add(time.Minute)) {
		t.Fatalf("after 20 concurrent hits: %d resets %v (%v), want 20 at %v", n, resets, err, now.Add(time.Minute))
	}
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	if n, _, _ := db.Hits(ctx, "k"); n != 0 {
		t.Errorf("after the window: %d hits, want 0", n)
	}
	if n, _, _ := db.Hit(ctx, "k", time.Minute); n != 1 {
		t.Errorf("first hit of a new window counted %d", n)
	}
	if err := db.ClearHits(ctx, "k"); err != nil {
		t.Fatal(err)
	}
	if n, _, _ := db.Hits(ctx, "k"); n != 0 {
		t.Errorf("after clear: %d", n)
	}
}
