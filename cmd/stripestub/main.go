// Command stripestub runs the Stripe stand-in (package stripestub) on a
// loopback address, for browser journeys and local runs without a Stripe
// account. Point the shop's Stripe API URL at it and its webhook URL at the
// shop:
//
//	stripestub -addr 127.0.0.1:0 -webhook-url http://127.0.0.1:3000/webhooks/stripe -webhook-secret whsec_test
//
// Its first line on stdout is "listening on http://ADDR", which tests read
// to learn the port. It stops on SIGINT or SIGTERM.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/nocturne/storefront/internal/stripepay/stripestub"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback host:port to listen on; port 0 picks a free one")
	hook := flag.String("webhook-url", "", "where to POST signed webhook events (empty: send none)")
	secret := flag.String("webhook-secret", "whsec_stripestub", "the secret events are signed with (the shop's webhook secret)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Stdout, *addr, *hook, *secret); err != nil {
		fmt.Fprintln(os.Stderr, "stripestub:", err)
		os.Exit(1)
	}
}

// run serves the stand-in on addr until ctx ends, after writing the
// "listening on" line to out.
func run(ctx context.Context, out io.Writer, addr, hook, secret string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("-addr: %w", err)
	}
	// The stand-in answers to any test key and pays without a card: it
	// must never be reachable from another machine.
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-addr %s: only a loopback address is allowed", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	stub := stripestub.New(stripestub.Options{WebhookURL: hook, WebhookSecret: secret})
	srv := &http.Server{Handler: stub, ReadHeaderTimeout: 10 * time.Second}

	if _, err := fmt.Fprintf(out, "listening on http://%s\n", ln.Addr()); err != nil {
		ln.Close()
		return err
	}

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Printf("stripestub: shutdown: %v", err)
	}
	return nil
}
