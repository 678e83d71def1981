package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/internal/store/postgres"
	"github.com/nocturne/storefront/internal/store/sqlite"
	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// database is what the server needs of a store backend: every store
// interface of package shop (sqlstore.Stores, which both backends make),
// on SQLite or PostgreSQL alike.
type database interface {
	sqlstore.Stores
	shop.Pinger
	DeleteExpiredThrottles(ctx context.Context) (int64, error)
	Close() error
}

// kvStorage is the kv table: sessions live in it (with the request's
// context), the rate limiter's counters too (as a fiber.Storage), and
// expired entries are swept.
type kvStorage interface {
	fiber.Storage
	session.Store
	DeleteExpired(ctx context.Context) (int64, error)
}

// backend is an opened store: the database, its session storage and how
// background jobs make sure one instance at a time runs them.
type backend struct {
	database
	KV kvStorage
	// TryLock takes a lock shared by every instance on the database, or
	// reports false when another holds it. On SQLite there is one
	// instance per file, so it always succeeds.
	TryLock func(ctx context.Context, key int64) (release func(), ok bool, err error)
	// Shared is true when several instances may share the database.
	Shared bool
	// Unavailable tells the backend's errors that say the database cannot
	// serve now (503, not 500).
	Unavailable func(err error) bool
	// SQLite is the SQLite database's handle, which scheduled backups
	// copy; nil on PostgreSQL.
	SQLite *sql.DB
}

// openDatabase opens the store DATABASE_URL names.
func openDatabase(ctx context.Context, cfg *config.Config) (*backend, error) {
	if cfg.Postgres() {
		db, err := postgres.Open(ctx, cfg.DatabaseURL, postgres.Options{MaxConns: int32(cfg.DatabaseMaxConns)})
		if err != nil {
			return nil, err
		}
		return &backend{database: db, KV: db.KV(), TryLock: db.TryLock, Shared: true, Unavailable: postgres.Unavailable}, nil
	}
	db, err := sqlite.Open(ctx, cfg.SQLitePath())
	if err != nil {
		return nil, err
	}
	noLock := func(context.Context, int64) (func(), bool, error) { return func() {}, true, nil }
	return &backend{database: db, KV: db.KV(), TryLock: noLock, Unavailable: sqlite.Unavailable, SQLite: db.SQL()}, nil
}

// Advisory lock keys of the jobs that run on one instance at a time.
const (
	lockCatalogSync int64 = 0x4e6f6301 + iota // "Noc" + n
	lockSweepSessions
	lockSweepThrottles
	lockRecovery
	lockPaymentSweep
	lockRefundSweep
	lockMailSender
)

// exclusive runs fn under the lock key, or skips it when another instance
// holds the lock (it is doing the same work now).
func (b *backend) exclusive(ctx context.Context, key int64, log *slog.Logger, name string, fn func(ctx context.Context)) {
	release, ok, err := b.TryLock(ctx, key)
	if err != nil {
		if !errors.Is(err, context.Canceled) {
			log.Error(name+": lock", "err", err)
		}
		return
	}
	if !ok {
		log.Debug(name+": another instance is running it", "job", name)
		return
	}
	defer release()
	fn(ctx)
}

// every runs fn under the lock key now and then every interval until ctx
// ends.
func (b *backend) every(ctx context.Context, key int64, interval time.Duration, log *slog.Logger, name string, fn func(ctx context.Context)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		b.exclusive(ctx, key, log, name, fn)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// periodic runs fn about once per interval across every instance sharing
// the database: instances look every interval/8 whether the last run (on
// any of them, recorded in the shared kv table) is interval old, and the
// one holding the lock runs it. An instance that stops hands the job to
// the others within an eighth of the interval.
func (b *backend) periodic(ctx context.Context, key int64, interval time.Duration, log *slog.Logger, name string, fn func(ctx context.Context)) {
	t := time.NewTicker(max(interval/8, 100*time.Millisecond))
	defer t.Stop()
	for {
		b.runIfDue(ctx, key, interval, time.Now(), log, name, fn)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// runIfDue is one look of periodic at now: under the lock key, fn runs when
// the last run any instance recorded is about interval old (a sixteenth
// early counts, so a look a moment before the mark does not wait a whole
// extra round), and now is recorded as the last run.
func (b *backend) runIfDue(ctx context.Context, key int64, interval time.Duration, now time.Time, log *slog.Logger, name string, fn func(ctx context.Context)) {
	mark := "job:" + name
	b.exclusive(ctx, key, log, name, func(ctx context.Context) {
		if last, err := b.KV.Get(mark); err == nil && last != nil {
			if at, err := time.Parse(time.RFC3339Nano, string(last)); err == nil && now.Sub(at) < interval-interval/16 {
				return
			}
		}
		if err := b.KV.Set(mark, []byte(now.UTC().Format(time.RFC3339Nano)), 0); err != nil {
			log.Error(name+": record the run", "err", err)
			return
		}
		fn(ctx)
	})
}

// describe names the backend for the start-up log, without credentials.
func describe(cfg *config.Config) string {
	if cfg.Postgres() {
		return "postgres"
	}
	return fmt.Sprintf("sqlite (%s)", cfg.SQLitePath())
}
