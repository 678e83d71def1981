package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// testMailQueue covers the outbox as a queue: a claim is taken once, even
// by senders racing for it, and lasts until its lease ends.
func testMailQueue(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("ClaimSendRetry", func(t *testing.T) {
		s, _, clock := b.open(t)
		q := s.(shop.MailQueueStore)
		must(t, s.AddToOutbox(ctx, shop.Email{To: "a@example.com", Subject: "One", Body: "first"}))
		must(t, s.AddToOutbox(ctx, shop.Email{To: "b@example.com", Subject: "Reset", Body: "secret link", Secret: true}))
		now := clock.Now()
		lease := now.Add(5 * time.Minute)
		first, err := q.ClaimMail(ctx, now, lease)
		must(t, err)
		if first == nil || first.Subject != "One" || first.Attempts != 1 || !first.NextAttemptAt.Equal(lease) {
			t.Fatalf("first claim: got %+v, want One with 1 attempt leased to %v", first, lease)
		}
		second, err := q.ClaimMail(ctx, now, lease)
		must(t, err)
		if second == nil || second.Subject != "Reset" || !second.Secret {
			t.Fatalf("second claim: got %+v, want the secret Reset", second)
		}
		if none, err := q.ClaimMail(ctx, now, lease); err != nil || none != nil {
			t.Fatalf("third claim: got %+v, %v, want none while both are leased", none, err)
		}
		must(t, q.MailSent(ctx, first.ID, now))
		must(t, q.RescheduleMail(ctx, second.ID, shop.MailFailed, now, "421 down"))
		list, err := q.UndeliveredMail(ctx)
		must(t, err)
		if len(list) != 1 || list[0].ID != second.ID || list[0].State != shop.MailFailed || list[0].LastError != "421 down" {
			t.Fatalf("undelivered: got %+v, want the failed Reset", list)
		}
		if ok, err := q.RetryMail(ctx, first.ID); err != nil || ok {
			t.Errorf("retry of a sent mail: got %v, %v, want false", ok, err)
		}
		if ok, err := q.RetryMail(ctx, second.ID); err != nil || !ok {
			t.Fatalf("retry: got %v, %v, want true", ok, err)
		}
		again, err := q.ClaimMail(ctx, now, lease)
		must(t, err)
		if again == nil || again.ID != second.ID || again.Attempts != 2 {
			t.Errorf("claim after retry: got %+v, want the Reset's second attempt", again)
		}
	})

	t.Run("LeaseEnds", func(t *testing.T) {
		s, _, clock := b.open(t)
		q := s.(shop.MailQueueStore)
		must(t, s.AddToOutbox(ctx, shop.Email{To: "a@example.com", Subject: "One", Body: "first"}))
		m, err := q.ClaimMail(ctx, clock.Now(), clock.Now().Add(time.Minute))
		must(t, err)
		clock.Add(time.Minute)
		again, err := q.ClaimMail(ctx, clock.Now(), clock.Now().Add(time.Minute))
		must(t, err)
		if m == nil || again == nil || again.ID != m.ID || again.Attempts != 2 {
			t.Errorf("after the lease: got %+v, want %+v claimed again", again, m)
		}
	})

	t.Run("RacingSendersClaimOnce", func(t *testing.T) {
		s, _, clock := b.open(t)
		q := s.(shop.MailQueueStore)
		must(t, s.AddToOutbox(ctx, shop.Email{To: "a@example.com", Subject: "Only", Body: "once"}))
		now := clock.Now()
		var wg sync.WaitGroup
		var mu sync.Mutex
		claims := 0
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				m, err := q.ClaimMail(ctx, now, now.Add(time.Minute))
				if err != nil {
					t.Errorf("claim: %v", err)
				}
				if m != nil {
					mu.Lock()
					claims++
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if claims != 1 {
			t.Errorf("racing senders: got %d claims, want 1", claims)
		}
	})
}
