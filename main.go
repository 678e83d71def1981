// Command storefront runs the Nocturne shop. It only reads configuration,
// opens the store and wires it into the HTTP layer; everything else lives in
// the packages it imports.
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
	_ "time/tzdata" // the shop's time zone without the system's zone files: one binary

	"github.com/gofiber/fiber/v2"
	"golang.org/x/crypto/bcrypt"
	"golang.org/x/sync/errgroup"

	"github.com/nocturne/storefront/handlers"
	"github.com/nocturne/storefront/handlers/admin"
	"github.com/nocturne/storefront/handlers/session"
	"github.com/nocturne/storefront/internal/auth"
	"github.com/nocturne/storefront/internal/backoffice"
	"github.com/nocturne/storefront/internal/cart"
	"github.com/nocturne/storefront/internal/catalog"
	"github.com/nocturne/storefront/internal/checkout"
	"github.com/nocturne/storefront/internal/config"
	"github.com/nocturne/storefront/internal/demo"
	"github.com/nocturne/storefront/internal/health"
	"github.com/nocturne/storefront/internal/images"
	"github.com/nocturne/storefront/internal/mail"
	"github.com/nocturne/storefront/internal/netlimit"
	"github.com/nocturne/storefront/internal/paymethods"
	"github.com/nocturne/storefront/internal/returns"
	"github.com/nocturne/storefront/internal/shop"
	"github.com/nocturne/storefront/static"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Getenv); err != nil {
		fmt.Fprintln(os.Stderr, "storefront:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string) error {
	cfg, err := config.Load(getenv)
	if err != nil {
		return err
	}
	// The payment methods check their own settings: a refused one stops
	// the start here, before the database is opened, as a bad setting does.
	if _, err := paymethods.New(cfg, nil, nil); err != nil {
		return err
	}
	// Every amount the process writes or reads is in the shop's currency,
	// commands' included (see decision 0013).
	shop.SetCurrency(cfg.Currency)
	log := slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel}))

	if len(args) > 0 {
		return command(ctx, cfg, log, args)
	}

	// Room for many connections; MaxConns stays below the limit so the
	// database and the log keep descriptors of their own.
	if limit, err := netlimit.RaiseFileLimit(); err != nil {
		log.Warn("open-file limit", "err", err)
	} else if reserve := uint64(128); limit > reserve && uint64(cfg.MaxConns) > limit-reserve {
		cfg.MaxConns = int(limit - reserve)
		log.Info("connection cap lowered to fit the open-file limit", "max_conns", cfg.MaxConns, "nofile", limit)
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	release, err := holdDatabase(cfg)
	if err != nil {
		return err
	}
	defer release()
	db, err := openDatabase(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	// Background jobs run until the shop shuts down, and the database is
	// closed only once every one of them has returned: a sweep is never
	// cut off by a closed pool.
	jobsCtx, stopJobs := context.WithCancel(ctx)
	var jobs errgroup.Group
	defer func() { stopJobs(); jobs.Wait() }()
	app, checkoutSvc, err := start(jobsCtx, cfg, db, log, catalogPace{Retries: 3, Backoff: 2 * time.Second}, &jobs)
	if err != nil {
		return err
	}
	return serve(ctx, cfg, log, app, checkoutSvc)
}

// goJob runs fn(ctx) in jobs; it returns when ctx ends.
func goJob(ctx context.Context, jobs *errgroup.Group, fn func(ctx context.Context)) {
	jobs.Go(func() error { fn(ctx); return nil })
}

// catalogPace paces the CATALOG_URL sync: the retries of one sync, and
// what triggers the next (nil: every CATALOG_SYNC_INTERVAL; tests send on
// Tick instead).
type catalogPace struct {
	Retries int
	Backoff time.Duration
	Tick    <-chan time.Time
}

// start wires the shop on db: its background jobs (until ctx ends), the
// health monitor, the catalogue and the HTTP handlers.
func start(ctx context.Context, cfg *config.Config, db *backend, log *slog.Logger, pace catalogPace, jobs *errgroup.Group) (*fiber.App, *checkout.Service, error) {
	// Clean-ups run on one instance at a time (an advisory lock on
	// PostgreSQL; SQLite has one instance).
	goJob(ctx, jobs, func(ctx context.Context) {
		db.every(ctx, lockSweepSessions, 10*time.Minute, log, "sweep sessions", func(ctx context.Context) { sweepExpired(ctx, db.KV, log) })
	})
	goJob(ctx, jobs, func(ctx context.Context) {
		db.every(ctx, lockSweepThrottles, 10*time.Minute, log, "sweep throttles", func(ctx context.Context) { sweepExpired(ctx, throttleCounters{db}, log) })
	})
	// The heartbeat is written here, by the monitor, every interval; a
	// request never writes it.
	monitor := health.NewMonitor(ctx, db, time.Now, log)
	goJob(ctx, jobs, func(ctx context.Context) { monitor.Run(ctx, 10*time.Second) })
	startBackups(ctx, cfg, db, log, jobs)

	cat, err := startCatalog(ctx, cfg, db, log, pace, jobs)
	if err != nil {
		return nil, nil, err
	}
	if cfg.CatalogURL != "" {
		// A first start whose sync fails has nothing to sell: /healthz
		// says so until a sync (retried every interval) or another
		// instance's import loads one.
		monitor.Require("no catalogue", cat.Loaded)
	}
	if cfg.Demo {
		if err := printDemo(ctx, db); err != nil {
			return nil, nil, err
		}
	}
	assets, err := loadAssets(cfg.Dev)
	if err != nil {
		return nil, nil, err
	}
	mailer, err := newMailer(ctx, cfg, db, log, jobs)
	if err != nil {
		return nil, nil, err
	}
	methods, err := paymethods.New(cfg, db, nil)
	if err != nil {
		return nil, nil, err
	}
	prices := &checkout.Prices{Settings: db, Promos: db, Now: time.Now, Location: cfg.Location, Version: cat.Version}
	checkoutSvc := startCheckout(ctx, cfg, db, methods, prices, mailer, log, jobs)
	office := &backoffice.Service{Orders: db, Audit: db, Mailer: mailer, Refunder: checkoutSvc, Orphans: db, BaseURL: cfg.BaseURL.String(), Now: time.Now, Log: log}
	office.Carriers = db
	office.RefundLease = checkoutSvc.Lease()
	returnSvc := &returns.Service{Orders: db, Products: db, Returns: db, Audit: office, Refunds: office, Mailer: mailer, WindowDays: cfg.ReturnWindowDays,
		BaseURL: cfg.BaseURL.String(), Now: time.Now, Log: log, StaffEmail: cfg.StaffNotifyEmail}
	startPaymentSweep(ctx, cfg, methods, db, office, log, jobs)
	startRefundSweep(ctx, db, office, checkoutSvc.SweepInterval(), log, jobs)

	throttle := &shop.Throttle{Store: db, Now: time.Now}
	app := handlers.New(handlers.Deps{
		Config:   cfg,
		Log:      log,
		Assets:   assets,
		Health:   monitor,
		Contact:  db,
		Users:    db,
		Storage:  db.KV,
		Throttle: throttle,
		Auth: &auth.Service{
			Users: db, Carts: db, Resets: db, Links: db, Confirmations: db, Throttle: throttle, Mailer: mailer, BaseURL: cfg.BaseURL.String(),
			HashCost: bcrypt.DefaultCost, Now: time.Now, Log: log,
		},
		Sessions:    session.New(db.KV, cfg.Secure(), db, time.Now, log),
		Google:      newGoogle(cfg),
		Catalog:     cat,
		Carts:       db,
		Cart:        &cart.Service{Carts: db, Catalog: cat, Variants: db, Stock: db},
		Wishlists:   db,
		Orders:      db,
		Images:      db,
		Checkout:    checkoutSvc,
		Prices:      prices,
		Location:    cfg.Location,
		Payments:    checkoutSvc,
		Methods:     methods,
		Stock:       db,
		Variants:    cat,
		Unavailable: db.Unavailable,
		StaffMail:   mailer,
		StaffEmail:  cfg.StaffNotifyEmail,
		Admin: admin.Deps{
			Staff: db, Orders: db, Audit: db, Fulfilment: db, Products: db, Variants: db, Gallery: db, Inbox: db, Dashboard: db, Mailer: mailer, Catalog: cat,
			Service: office, Pricing: db, Promos: db, Location: cfg.Location,
			Carriers:  db,
			Customers: db, Exports: db,
			Returns: db, ReturnService: returnSvc,
			Orphans: db, OrphanRefundAfter: cfg.Payments.OrphanRefundAfter,
			Mail:         db,
			PersonalData: db,
		},
		PersonalData: db,
	})
	return app, checkoutSvc, nil
}

// startCatalog loads the catalogue (the built-in one, or what the store
// holds while CATALOG_URL syncs in the background) and keeps it current.
func startCatalog(ctx context.Context, cfg *config.Config, db *backend, log *slog.Logger, pace catalogPace, jobs *errgroup.Group) (*catalog.Service, error) {
	cat := newCatalog(cfg, db, log, nil)
	if cfg.CatalogURL != "" {
		// What the store holds is served (and counts as a catalogue for
		// /healthz) before the first sync ends, or when it fails.
		if err := cat.Reload(ctx); err != nil {
			log.Warn("stored catalogue not loaded; the sync will load one", "err", err)
		}
		syncer := &catalog.Syncer{
			Service: cat, BaseURL: cfg.CatalogURL, Interval: cfg.CatalogSyncInterval, Tick: pace.Tick,
			Client: &http.Client{Timeout: 15 * time.Second}, Retries: pace.Retries, Backoff: pace.Backoff, Log: log,
		}
		if db.Shared {
			// Once per interval across every instance, not once per instance.
			goJob(ctx, jobs, func(ctx context.Context) {
				db.periodic(ctx, lockCatalogSync, cfg.CatalogSyncInterval, log, "catalog sync", func(ctx context.Context) {
					if err := syncer.SyncOnce(ctx); err != nil && ctx.Err() == nil {
						log.Error("catalogue sync failed; still serving the last catalogue", "err", err)
					}
				})
			})
		} else {
			goJob(ctx, jobs, syncer.Run)
		}
	} else if err := cat.LoadBuiltin(ctx); err != nil {
		return nil, err
	}
	// The stored catalogue is served at once, also while a sync runs (or
	// its service is down); each sync warms again what it changed.
	goJob(ctx, jobs, func(ctx context.Context) { _ = cat.Warm(ctx) }) // it logs its own failure
	// An import by the `catalog import` command (or, with a shared database,
	// another instance) reaches this process's memory within a second.
	// Instances sharing PostgreSQL look four times a second (one
	// single-row read), so all of them serve a change within a second.
	watch := time.Second
	if db.Shared {
		watch = 250 * time.Millisecond
	}
	goJob(ctx, jobs, func(ctx context.Context) { cat.Watch(ctx, watch) })
	// Photos of a back-office import are fetched after its page answered:
	// at shutdown they stop before the database closes.
	goJob(ctx, jobs, func(ctx context.Context) { <-ctx.Done(); cat.StopPhotos() })
	return cat, nil
}

// newMailer keeps every e-mail in the database's outbox; with SMTP_URL set,
// a sender delivers the outbox over SMTP on one instance at a time,
// retrying what the server refuses. Without it the mails stay in the table
// (shown by the demo).
func newMailer(ctx context.Context, cfg *config.Config, db *backend, log *slog.Logger, jobs *errgroup.Group) (mail.Mailer, error) {
	outbox := &mail.Outbox{Store: db, Log: log, Delivered: cfg.SMTPURL != ""}
	if cfg.SMTPURL == "" {
		return outbox, nil
	}
	smtp, err := mail.NewSMTP(cfg.SMTPURL)
	if err != nil {
		return nil, err
	}
	sender := &mail.Sender{Queue: db, Via: smtp, Now: time.Now, Log: log}
	goJob(ctx, jobs, func(ctx context.Context) {
		db.every(ctx, lockMailSender, mailInterval, log, "mail sender", func(ctx context.Context) {
			if _, err := sender.Drain(ctx); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("mail sender", "err", err)
			}
		})
	})
	return outbox, nil
}

// mailInterval is how often the sender looks for due mail: a sign-in link
// arrives within seconds.
const mailInterval = 3 * time.Second

// newGoogle is Google sign-in when it is configured, else nil (the button
// is not shown). A nil *auth.Google, never a nil inside an interface.
func newGoogle(cfg *config.Config) *auth.Google {
	if !cfg.GoogleEnabled() {
		return nil
	}
	return &auth.Google{
		ClientID:     cfg.GoogleClientID,
		ClientSecret: cfg.GoogleClientSecret,
		CallbackURL:  cfg.BaseURL.String() + "/auth/google/callback",
		DiscoveryURL: cfg.GoogleDiscoveryURL,
	}
}

// startCheckout builds the checkout and its recovery sweep: pending orders
// left by a crash are resolved at start, then periodically (completed if the
// gateway charged them, released if not). With several instances, one at a
// time sweeps.
func startCheckout(ctx context.Context, cfg *config.Config, db *backend, methods *checkout.Methods,
	prices *checkout.Prices, mailer mail.Mailer, log *slog.Logger, jobs *errgroup.Group) *checkout.Service {
	svc := &checkout.Service{
		Orders: db, Carts: db, Payments: db, Methods: methods,
		Mailer: mailer, BaseURL: cfg.BaseURL.String(), Now: time.Now, Log: log, PaymentTimeout: cfg.PaymentTimeout, Prices: prices,
		StaffEmail: cfg.StaffNotifyEmail,
	}
	goJob(ctx, jobs, func(ctx context.Context) {
		db.every(ctx, lockRecovery, svc.SweepInterval(), log, "recovery sweep", func(ctx context.Context) {
			if c, r, err := svc.Recover(ctx); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("recovery sweep", "err", err)
			} else if c+r > 0 {
				log.Info("recovery sweep", "completed", c, "released", r)
			}
		})
	})
	return svc
}

// startPaymentSweep, every minute on one instance at a time, cancels the
// orders of methods paid by hand (bank transfers) whose money did not
// arrive within their hold, so their stock goes back on sale, and refunds
// the payments without an order that staff left for
// ORPHAN_PAYMENT_REFUND_AFTER (and any such refund left unfinished). It
// runs for every method, offered or not: orders placed before still hold
// stock.
func startPaymentSweep(ctx context.Context, cfg *config.Config, methods *checkout.Methods, db *backend, office *backoffice.Service, log *slog.Logger, jobs *errgroup.Group) {
	goJob(ctx, jobs, func(ctx context.Context) {
		db.every(ctx, lockPaymentSweep, time.Minute, log, "payment sweep", func(ctx context.Context) {
			for _, m := range methods.All() {
				if n, err := office.ExpireUnpaid(ctx, m.Name(), m.Words()); err != nil && !errors.Is(err, context.Canceled) {
					log.Error("payment sweep", "method", m.Name(), "err", err)
				} else if n > 0 {
					log.Info("payment sweep: unpaid orders cancelled", "method", m.Name(), "orders", n)
				}
			}
			if n, err := office.SweepOrphans(ctx, cfg.Payments.OrphanRefundAfter); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("payment sweep: payments without an order", "err", err)
			} else if n > 0 {
				log.Info("payment sweep: payments without an order refunded", "payments", n)
			}
		})
	})
}

// startRefundSweep finishes, on one instance at a time, the refunds a
// stopped process left between counting them and hearing from the
// provider: each is sent again with its intent's key (the provider pays a
// key once), then completed with its audit entry and mail, or taken back
// (decision 0020). It runs as often as the recovery sweep.
func startRefundSweep(ctx context.Context, db *backend, office *backoffice.Service, interval time.Duration, log *slog.Logger, jobs *errgroup.Group) {
	goJob(ctx, jobs, func(ctx context.Context) {
		db.every(ctx, lockRefundSweep, interval, log, "refund sweep", func(ctx context.Context) {
			if sent, undone, err := office.SweepRefunds(ctx); err != nil && !errors.Is(err, context.Canceled) {
				log.Error("refund sweep", "err", err)
			} else if sent+undone > 0 {
				log.Info("refund sweep", "sent", sent, "taken back", undone)
			}
		})
	})
}

// serve listens on PORT until ctx ends (SIGINT, SIGTERM), then stops
// accepting connections and lets requests and payments under way finish,
// up to the grace period. A payment still running after it stays pending
// and is resolved by the recovery sweep of the next start (or of another
// instance), so exiting then loses nothing.
func serve(ctx context.Context, cfg *config.Config, log *slog.Logger, app *fiber.App, payments *checkout.Service) error {
	addr := fmt.Sprintf(":%d", cfg.Port)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	errc := make(chan error, 1)
	go func() { errc <- app.Listener(netlimit.Wrap(ln, log)) }()
	log.Info("listening", "addr", addr, "base_url", cfg.BaseURL.String(), "dev", cfg.Dev, "database", describe(cfg))

	select {
	case err := <-errc:
		return fmt.Errorf("listen on %s: %w", addr, err)
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", cfg.ShutdownGrace.String())
	grace, cancel := context.WithTimeout(context.Background(), cfg.ShutdownGrace)
	defer cancel()
	if err := app.ShutdownWithContext(grace); err != nil {
		log.Warn("shutdown: requests still open at the end of the grace period", "err", err)
	}
	if !payments.Wait(grace) {
		log.Warn("shutdown: payments still under way at the end of the grace period; the recovery sweep will resolve them")
	}
	return nil
}

// command runs a sub-command such as "catalog import FILE.json".
func command(ctx context.Context, cfg *config.Config, log *slog.Logger, args []string) error {
	switch {
	case len(args) >= 2 && args[0] == "db":
		return dbCommand(ctx, cfg, args)
	case len(args) == 3 && args[0] == "catalog" && (args[1] == "import" || args[1] == "export"):
		return catalogCommand(ctx, cfg, log, args[1], args[2])
	case len(args) >= 2 && args[0] == "staff":
		return withDatabase(ctx, cfg, func(db *backend) error { return staffCommand(ctx, db, args[1:], os.Stdout) })
	case len(args) == 1 && args[0] == "demo":
		return withDatabase(ctx, cfg, func(db *backend) error {
			if err := catalog.NewService(db, log).LoadBuiltin(ctx); err != nil {
				return err
			}
			return printDemo(ctx, db)
		})
	default:
		return unknownCommand(args)
	}
}

// dbCommand runs a "db …" sub-command.
func dbCommand(ctx context.Context, cfg *config.Config, args []string) error {
	switch {
	case len(args) == 2 && args[1] == "status":
		return dbStatusCommand(ctx, cfg, os.Stdout)
	case len(args) == 2 && args[1] == "migrate":
		return dbMigrateCommand(ctx, cfg, os.Stdout)
	case args[1] == "copy":
		return dbCopyCommand(ctx, args[2:], os.Stdout)
	case args[1] == "backup":
		return dbBackupCommand(ctx, cfg, args[2:], os.Stdout)
	case args[1] == "restore":
		return dbRestoreCommand(ctx, cfg, args[2:], os.Stdout)
	}
	return unknownCommand(args)
}

// unknownCommand is the one line a mistyped command gets: every command.
func unknownCommand(args []string) error {
	return fmt.Errorf("unknown command %q; commands: catalog import FILE.csv|FILE.json, catalog export FILE.csv|-, demo, staff add EMAIL --role admin|fulfilment, staff remove EMAIL, db status, db migrate, db copy --from URL --to URL, db backup FILE, db restore FILE [--force]", strings.Join(args, " "))
}

// withDatabase runs fn on the database DATABASE_URL names, and closes it.
func withDatabase(ctx context.Context, cfg *config.Config, fn func(db *backend) error) error {
	db, err := openDatabase(ctx, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	return fn(db)
}

// printDemo creates (or refreshes) the demo account and prints how to sign in.
func printDemo(ctx context.Context, db database) error {
	acct, err := demo.Seed(ctx, db, time.Now())
	if err != nil {
		return err
	}
	fmt.Printf("Demo account: %s / %s (%d orders)\n", acct.Email, acct.Password, acct.Orders)
	return nil
}

// loadAssets serves the embedded assets, or in development the files on disk
// so rebuilt bundles and edited CSS appear on reload.
func loadAssets(dev bool) (static.Source, error) {
	if dev {
		return &static.Disk{FS: os.DirFS("static")}, nil
	}
	set, err := static.Load(static.Embedded)
	if err != nil {
		return nil, fmt.Errorf("load embedded assets: %w", err)
	}
	if set.Entry() == "" {
		slog.Warn("islands are not built; pages work without them (run: go tool task build)")
	}
	return static.Fixed{Set: set}, nil
}

type expirer interface {
	DeleteExpired(ctx context.Context) (int64, error)
}

// sweepExpired deletes expired sessions or rate-limit counters once.
func sweepExpired(ctx context.Context, s expirer, log *slog.Logger) {
	if n, err := s.DeleteExpired(ctx); err != nil && !errors.Is(err, context.Canceled) {
		log.Error("sweep expired", "err", err)
	} else if n > 0 {
		log.Debug("swept expired entries", "count", n)
	}
}

// throttleCounters sweeps the throttles' ended windows.
type throttleCounters struct{ db database }

func (t throttleCounters) DeleteExpired(ctx context.Context) (int64, error) {
	return t.db.DeleteExpiredThrottles(ctx)
}

// newCatalog is the catalogue service with its image fetcher; progress,
// when set, is told how fetching an import's images goes.
func newCatalog(cfg *config.Config, db database, log *slog.Logger, progress func(done, total, failed int)) *catalog.Service {
	cat := catalog.NewService(db, log)
	cat.DefaultStock = cfg.ImportDefaultStock
	cat.Stock = db
	cat.Images = &images.Service{
		Store: db, Fetcher: images.NewFetcher(cfg.ImageFetchAllowPrivate, images.DefaultTimeout),
		MaxPixels: cfg.ImageMaxPixels, Processors: cfg.ImageWorkers,
		Log: log, Progress: progress,
	}
	return cat
}

// progressLine prints an import's image progress on w: one line redrawn in
// place on a terminal, otherwise a line every tenth of the way, so a log
// file is not flooded.
func progressLine(w *os.File) func(done, total, failed int) {
	tty := false
	if st, err := w.Stat(); err == nil {
		tty = st.Mode()&os.ModeCharDevice != 0
	}
	step := 0
	return func(done, total, failed int) {
		line := fmt.Sprintf("images: %d/%d fetched, %d failed", done, total, failed)
		switch {
		case tty && done == total:
			fmt.Fprintf(w, "\r%s\n", line)
		case tty:
			fmt.Fprintf(w, "\r%s", line)
		case done == total || done*10/total > step:
			step = done * 10 / total
			fmt.Fprintln(w, line)
		}
	}
}
