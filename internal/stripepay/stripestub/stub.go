// Package stripestub is a small, stateful stand-in for Stripe's API and
// its hosted Checkout page, for tests and local journeys on a loopback
// address.
//
// stripe-mock, Stripe's own mock, checks that requests are well formed but
// keeps no state: a session created there is not the one read back, and it
// never calls a webhook. Journeys need the whole loop, create → pay on the
// hosted page → signed webhook → success redirect, so this stand-in keeps
// sessions, coupons, payments and refunds in memory and speaks exactly the
// part of the REST API that package stripepay's Client uses: form-encoded
// requests with a Bearer test key, Idempotency-Key honoured, JSON answers
// and errors shaped like Stripe's so stripe-go decodes them. A parameter it
// does not implement is refused, as Stripe refuses unknown ones, rather than
// silently ignored.
//
// Webhook events are signed with the configured secret and carry
// stripe.APIVersion, so stripepay.ParseWebhook accepts them. They are
// delivered synchronously, before the triggering request is answered, so a
// test sees their effect without waiting. The delivery happens with no lock
// held, so the receiver may call back into the stand-in; but the caller of
// an API request that sends an event (expire, refund) must not hold
// anything the webhook handler needs, such as a database transaction, across
// the call. Real Stripe gives no ordering either way, so the shop must
// not depend on the order of API answer and event in any case.
package stripestub

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/nocturne/storefront/internal/shop"
	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"
)

// Options configure a Server.
type Options struct {
	// WebhookURL receives the signed events; "" sends none (they are still
	// recorded in Deliveries). SetWebhookURL changes it later, e.g. once
	// the shop under test has its address.
	WebhookURL string
	// WebhookSecret signs the events (the shop's whsec_…).
	WebhookSecret string
	// Now is the stand-in's clock for created and expires_at times and
	// for expiring sessions whose time has come; nil means time.Now.
	// Signatures always carry the wall-clock time, since a receiver checks
	// them against its own clock.
	Now func() time.Time
	// HTTPClient delivers the webhooks; nil means a client with a 10 s
	// timeout.
	HTTPClient *http.Client
	// Logf reports failed deliveries; nil means log.Printf.
	Logf func(format string, args ...any)
}

// Server is the stand-in: an http.Handler serving the API under /v1/ and
// the hosted payment page under /pay/. It is safe for concurrent use.
type Server struct {
	mux    *http.ServeMux
	now    func() time.Time
	secret string
	hc     *http.Client
	logf   func(string, ...any)

	mu         sync.Mutex
	webhookURL string
	sessions   map[string]*session
	byPayment  map[string]*session // payment intent id → its session
	coupons    map[string]*coupon
	idem       map[string]idemEntry // API key + Idempotency-Key → first answer
	deliveries []Delivery
}

// Delivery records one attempt to send an event to the webhook URL.
type Delivery struct {
	EventID, Type, SessionID string
	// StatusCode is the receiver's answer; 0 when the request failed or no
	// webhook URL was set.
	StatusCode int
	Err        string
}

// Session is a read-only view of a stand-in session, for assertions.
type Session struct {
	ID, URL, Status, PaymentStatus string
	OrderID                        string
	Email                          string
	Currency                       string
	AmountSubtotal                 shop.Cents
	AmountDiscount                 shop.Cents
	AmountTotal                    shop.Cents
	AmountRefunded                 shop.Cents
	PaymentIntent                  string
	ExpiresAt                      time.Time
	Lines                          []Line
}

// Line is one line item as the stand-in received it.
type Line struct {
	Name       string
	UnitAmount shop.Cents
	Quantity   int64
}

// New returns a stand-in with no sessions.
func New(o Options) *Server {
	s := &Server{
		mux:        http.NewServeMux(),
		now:        o.Now,
		secret:     o.WebhookSecret,
		hc:         o.HTTPClient,
		logf:       o.Logf,
		webhookURL: o.WebhookURL,
		sessions:   map[string]*session{},
		byPayment:  map[string]*session{},
		coupons:    map[string]*coupon{},
		idem:       map[string]idemEntry{},
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.hc == nil {
		s.hc = &http.Client{Timeout: 10 * time.Second}
	}
	if s.logf == nil {
		s.logf = log.Printf
	}
	s.routes()
	return s
}

// ServeHTTP serves the API and the hosted page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// SetWebhookURL changes where events are sent.
func (s *Server) SetWebhookURL(u string) {
	s.mu.Lock()
	s.webhookURL = u
	s.mu.Unlock()
}

// Deliveries returns every event sent (or due to be sent) so far, oldest
// first.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Delivery(nil), s.deliveries...)
}

// Sessions returns every session made so far, as each is now.
func (s *Server) Sessions() []Session {
	s.mu.Lock()
	ids := make([]string, 0, len(s.sessions))
	for id := range s.sessions {
		ids = append(ids, id)
	}
	s.mu.Unlock()
	out := make([]Session, 0, len(ids))
	for _, id := range ids {
		if st, ok := s.Session(id); ok {
			out = append(out, st)
		}
	}
	return out
}

// Session returns the session with the given id as it is now.
func (s *Server) Session(id string) (Session, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cs, ok := s.sessions[id]
	if !ok {
		return Session{}, false
	}
	out := Session{
		ID: cs.id, URL: cs.url, Status: cs.status, PaymentStatus: cs.paymentStatus,
		OrderID: cs.clientReferenceID, Email: cs.customerEmail, Currency: cs.currency,
		AmountSubtotal: shop.Cents(cs.amountSubtotal), AmountDiscount: shop.Cents(cs.amountDiscount),
		AmountTotal: shop.Cents(cs.amountTotal), AmountRefunded: shop.Cents(cs.amountRefunded),
		PaymentIntent: cs.paymentIntent, ExpiresAt: time.Unix(cs.expiresAt, 0),
	}
	for _, l := range cs.lines {
		out.Lines = append(out.Lines, Line{Name: l.name, UnitAmount: shop.Cents(l.unitAmount), Quantity: l.quantity})
	}
	return out, true
}

// ErrNotOpen is returned by Pay and Expire for a session that is already
// complete or expired.
var ErrNotOpen = errors.New("stripestub: checkout session is not open")

// Pay does what the hosted page's Pay button does: the session becomes
// complete and paid, and checkout.session.completed is delivered before
// Pay returns.
func (s *Server) Pay(id string) error {
	s.mu.Lock()
	cs, ok := s.sessions[id]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("stripestub: no checkout session %q", id)
	}
	var evs []*event
	if ev := s.expireIfDue(cs); ev != nil {
		evs = append(evs, ev)
	}
	if cs.status != stateOpen {
		s.mu.Unlock()
		s.deliver(evs)
		return fmt.Errorf("%w (%s)", ErrNotOpen, cs.status)
	}
	evs = append(evs, s.complete(cs))
	s.mu.Unlock()
	s.deliver(evs)
	return nil
}

// Expire ends an open session as Stripe does when its expires_at passes,
// delivering checkout.session.expired.
func (s *Server) Expire(id string) error {
	s.mu.Lock()
	cs, ok := s.sessions[id]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("stripestub: no checkout session %q", id)
	}
	if cs.status != stateOpen {
		s.mu.Unlock()
		return fmt.Errorf("%w (%s)", ErrNotOpen, cs.status)
	}
	ev := s.expire(cs, nil)
	s.mu.Unlock()
	s.deliver([]*event{ev})
	return nil
}

// EventFor builds and signs an event of the given type for a session as it
// is now, without sending it, so a test can deliver it itself: late, out of
// order or more than once. Types: the four checkout.session.* events the
// shop listens for, and charge.refunded (for a paid session). Each call
// makes a new event id; to repeat one event, send the same payload again.
func (s *Server) EventFor(eventType, sessionID string) (payload []byte, header string, err error) {
	s.mu.Lock()
	cs, ok := s.sessions[sessionID]
	if !ok {
		s.mu.Unlock()
		return nil, "", fmt.Errorf("stripestub: no checkout session %q", sessionID)
	}
	var ev *event
	switch eventType {
	case "checkout.session.completed", "checkout.session.async_payment_succeeded",
		"checkout.session.async_payment_failed", "checkout.session.expired":
		ev = s.newEvent(eventType, cs.id, cs.json(), nil)
	case "charge.refunded":
		if cs.paymentIntent == "" {
			s.mu.Unlock()
			return nil, "", fmt.Errorf("stripestub: checkout session %q has no payment to refund", sessionID)
		}
		ev = s.newEvent(eventType, cs.id, cs.chargeJSON(), nil)
	default:
		s.mu.Unlock()
		return nil, "", fmt.Errorf("stripestub: no events of type %q", eventType)
	}
	s.mu.Unlock()
	header = s.sign(ev.payload)
	return ev.payload, header, nil
}

// sign returns the Stripe-Signature header for payload, timed now.
func (s *Server) sign(payload []byte) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{
		Payload:   payload,
		Secret:    s.secret,
		Timestamp: time.Now(),
	}).Header
}

// event is a rendered event waiting to be delivered.
type event struct {
	id, typ, sessionID string
	payload            []byte
}

// newEvent renders an event around object. Callers hold s.mu, so object
// is the state at this moment, as a real event's is.
func (s *Server) newEvent(typ, sessionID string, object map[string]any, req map[string]any) *event {
	id := newID("evt_")
	body := map[string]any{
		"id":               id,
		"object":           "event",
		"api_version":      stripe.APIVersion,
		"created":          s.now().Unix(),
		"data":             map[string]any{"object": object},
		"livemode":         false,
		"pending_webhooks": 1,
		"request":          req,
		"type":             typ,
	}
	if req == nil {
		body["request"] = map[string]any{"id": nil, "idempotency_key": nil}
	}
	payload, err := json.Marshal(body)
	if err != nil {
		// The objects are maps of strings, numbers and nested maps.
		panic(fmt.Sprintf("stripestub: render event: %v", err))
	}
	return &event{id: id, typ: typ, sessionID: sessionID, payload: payload}
}

// deliver sends events in order to the webhook URL and records each
// attempt. It must be called without s.mu held: the receiver may call the
// stand-in's API while handling the event.
func (s *Server) deliver(evs []*event) {
	for _, ev := range evs {
		if ev == nil {
			continue
		}
		s.mu.Lock()
		target := s.webhookURL
		s.mu.Unlock()
		d := Delivery{EventID: ev.id, Type: ev.typ, SessionID: ev.sessionID}
		if target == "" {
			d.Err = "no webhook URL set"
		} else {
			d.StatusCode, d.Err = s.post(target, ev.payload)
			if d.Err != "" {
				s.logf("stripestub: webhook %s %s to %s: %s", ev.typ, ev.id, target, d.Err)
			}
		}
		s.mu.Lock()
		s.deliveries = append(s.deliveries, d)
		s.mu.Unlock()
	}
}

func (s *Server) post(target string, payload []byte) (int, string) {
	req, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(payload))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
	req.Header.Set("Stripe-Signature", s.sign(payload))
	resp, err := s.hc.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, "receiver answered " + resp.Status
	}
	return resp.StatusCode, ""
}

// newID makes an id like Stripe's: a prefix and 24 random letters and
// digits. Random rather than counted, so ids from a restarted stand-in
// never collide with ones a shop database still holds.
func newID(prefix string) string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("stripestub: random id: %v", err))
	}
	var sb strings.Builder
	sb.WriteString(prefix)
	for _, c := range b {
		sb.WriteByte(alphabet[int(c)%len(alphabet)])
	}
	return sb.String()
}
