package stripestub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// minimumUSD is Stripe's smallest USD charge in cents.
const minimumUSD = 50

// Stripe's window for a Checkout Session's expires_at, from its creation.
const (
	minExpiry = 30 * 60
	maxExpiry = 24 * 60 * 60
)

func (s *Server) routes() {
	s.mux.HandleFunc("POST /v1/checkout/sessions", s.api(s.createSession))
	s.mux.HandleFunc("GET /v1/checkout/sessions/{id}", s.api(s.getSession))
	s.mux.HandleFunc("POST /v1/checkout/sessions/{id}/expire", s.api(s.expireSession))
	s.mux.HandleFunc("POST /v1/coupons", s.api(s.createCoupon))
	s.mux.HandleFunc("POST /v1/refunds", s.api(s.createRefund))
	s.mux.HandleFunc("/v1/", s.api(func(r *http.Request, _ url.Values) result {
		return fail(http.StatusNotFound, "", "", fmt.Sprintf("Unrecognized request URL (%s: %s).", r.Method, r.URL.Path))
	}))
	s.mux.HandleFunc("GET /pay/{id}", s.page)
	s.mux.HandleFunc("POST /pay/{id}/pay", s.payAction)
	s.mux.HandleFunc("POST /pay/{id}/cancel", s.cancelAction)
}

// result is an API handler's answer: a status and an object, plus the
// events it caused, which are delivered before the answer is written.
type result struct {
	status int
	body   map[string]any
	events []*event
}

func ok(body map[string]any, evs ...*event) result {
	return result{status: http.StatusOK, body: body, events: evs}
}

// fail renders an error as Stripe does: {"error": {type, code, param,
// message}}. Every error here is an invalid_request_error, the type
// stripe-go turns into a *stripe.Error with that type.
func fail(status int, code, param, msg string) result {
	e := map[string]any{"type": "invalid_request_error", "message": msg}
	if code != "" {
		e["code"] = code
	}
	if param != "" {
		e["param"] = param
	}
	return result{status: status, body: map[string]any{"error": e}}
}

func missing(param string) result {
	return fail(http.StatusBadRequest, "parameter_missing", param, "Missing required param: "+param+".")
}

func invalid(param, msg string) result {
	return fail(http.StatusBadRequest, "parameter_invalid_integer", param, msg)
}

type idemEntry struct {
	method, path, params string
	status               int
	body                 []byte
}

// api wraps a handler with what every Stripe endpoint does: check the key,
// parse the form, and answer a repeated Idempotency-Key with the first
// answer. The handler runs under s.mu; its events are delivered after the
// lock is released and before the answer is written.
func (s *Server) api(h func(*http.Request, url.Values) result) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		key, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !strings.HasPrefix(key, "sk_test_") && !strings.HasPrefix(key, "rk_test_") {
			// A live key never belongs here; it is not echoed back.
			writeJSON(w, "", fail(http.StatusUnauthorized, "", "", "Invalid API Key provided: the stand-in takes sk_test_ or rk_test_ keys only."))
			return
		}
		if err := r.ParseForm(); err != nil {
			writeJSON(w, "", fail(http.StatusBadRequest, "", "", "Invalid request body: "+err.Error()))
			return
		}
		form := r.PostForm
		if r.Method == http.MethodGet {
			form = r.URL.Query()
		}
		idemKey := r.Header.Get("Idempotency-Key")
		cacheKey := key + "\x00" + idemKey
		params := form.Encode() // sorted, so equal forms compare equal

		s.mu.Lock()
		if r.Method == http.MethodPost && idemKey != "" {
			if prev, seen := s.idem[cacheKey]; seen {
				s.mu.Unlock()
				if prev.method != r.Method || prev.path != r.URL.Path || prev.params != params {
					writeJSON(w, "", fail(http.StatusBadRequest, "idempotency_key_in_use", "",
						"Keys for idempotent requests can only be used with the same parameters they were first used with."))
					return
				}
				w.Header().Set("Idempotent-Replayed", "true")
				writeRaw(w, idemKey, prev.status, prev.body)
				return
			}
		}
		res := h(r, form)
		body, err := json.Marshal(res.body)
		if err != nil {
			panic(fmt.Sprintf("stripestub: render answer: %v", err))
		}
		// Only answers that did something are kept for replay: a request
		// Stripe refused may be sent again, corrected, with the same key.
		if r.Method == http.MethodPost && idemKey != "" && res.status == http.StatusOK {
			s.idem[cacheKey] = idemEntry{method: r.Method, path: r.URL.Path, params: params, status: res.status, body: body}
		}
		s.mu.Unlock()

		s.deliver(res.events)
		writeRaw(w, idemKey, res.status, body)
	}
}

func writeJSON(w http.ResponseWriter, idemKey string, res result) {
	body, _ := json.Marshal(res.body)
	writeRaw(w, idemKey, res.status, body)
}

func writeRaw(w http.ResponseWriter, idemKey string, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Request-Id", newID("req_"))
	if idemKey != "" {
		w.Header().Set("Idempotency-Key", idemKey)
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// requestRef is an event's "request" member for an API-triggered event.
func requestRef(r *http.Request) map[string]any {
	return map[string]any{"id": newID("req_"), "idempotency_key": nullable(r.Header.Get("Idempotency-Key"))}
}

// unknownParam refuses the first top-level parameter not in known:
// Stripe refuses parameters it does not know, and a parameter this
// stand-in does not implement must not pass as if it had been honoured.
func unknownParam(form url.Values, known ...string) (result, bool) {
	for k := range form {
		top, _, _ := strings.Cut(k, "[")
		found := false
		for _, kn := range known {
			if top == kn {
				found = true
				break
			}
		}
		if !found {
			return fail(http.StatusBadRequest, "parameter_unknown", top,
				"Received unknown parameter: "+top+" (the Stripe stand-in does not implement it)."), true
		}
	}
	return result{}, false
}

// metadata collects name[key]=value pairs into a map.
func metadata(form url.Values, name string) map[string]string {
	m := map[string]string{}
	for k, v := range form {
		if rest, found := strings.CutPrefix(k, name+"["); found && strings.HasSuffix(rest, "]") && !strings.Contains(rest, "[") {
			m[strings.TrimSuffix(rest, "]")] = v[0]
		}
	}
	return m
}

// intParam reads an integer parameter; present reports whether it was sent.
func intParam(form url.Values, name string) (v int64, present bool, bad result, isBad bool) {
	raw := form.Get(name)
	if raw == "" {
		return 0, false, result{}, false
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0, true, invalid(name, "Invalid integer: "+raw), true
	}
	return n, true, result{}, false
}

var lineKey = regexp.MustCompile(`^line_items\[(\d+)\]`)

func (s *Server) createSession(r *http.Request, form url.Values) result {
	if res, bad := checkSessionParams(form); bad {
		return res
	}
	n := lineCount(form)
	if n == 0 {
		return missing("line_items")
	}
	cs := &session{
		id:                    newID("cs_test_"),
		status:                stateOpen,
		paymentStatus:         "unpaid",
		clientReferenceID:     form.Get("client_reference_id"),
		customerEmail:         form.Get("customer_email"),
		successURL:            form.Get("success_url"),
		cancelURL:             form.Get("cancel_url"),
		metadata:              metadata(form, "metadata"),
		paymentIntentMetadata: metadata(form, "payment_intent_data[metadata]"),
		created:               s.now().Unix(),
	}
	for i := range n {
		if res, bad := readLine(form, i, cs); bad {
			return res
		}
	}
	if res, bad := readExpiry(form, cs); bad {
		return res
	}
	if res, bad := s.applyCoupon(form, cs); bad {
		return res
	}
	cs.amountTotal = cs.amountSubtotal - cs.amountDiscount
	if cs.currency == "usd" && cs.amountTotal < minimumUSD {
		return fail(http.StatusBadRequest, "amount_too_small", "", "The Checkout Session's total amount due must add up to at least $0.50 usd")
	}

	cs.url = baseURL(r) + "/pay/" + cs.id
	s.sessions[cs.id] = cs
	return ok(cs.json())
}

// checkSessionParams refuses, as Stripe would, a session that asks for
// what the stand-in does not implement (another mode than payment, other
// payment methods than cards) or lacks a required parameter.
func checkSessionParams(form url.Values) (result, bool) {
	if res, bad := unknownParam(form, "mode", "payment_method_types", "client_reference_id", "metadata",
		"payment_intent_data", "success_url", "cancel_url", "customer_email", "expires_at", "line_items",
		"discounts"); bad {
		return res, true
	}
	for k := range form {
		if strings.HasPrefix(k, "payment_intent_data[") && !strings.HasPrefix(k, "payment_intent_data[metadata][") {
			return fail(http.StatusBadRequest, "parameter_unknown", k, "Received unknown parameter: "+k+" (the Stripe stand-in does not implement it)."), true
		}
	}
	if form.Get("mode") == "" {
		return missing("mode"), true
	}
	if form.Get("mode") != "payment" {
		return fail(http.StatusBadRequest, "", "mode", "The stand-in implements mode=payment only."), true
	}
	for k, v := range form {
		if strings.HasPrefix(k, "payment_method_types") && v[0] != "card" {
			return fail(http.StatusBadRequest, "", k, "The stand-in implements card payments only."), true
		}
	}
	if form.Get("success_url") == "" {
		return missing("success_url"), true
	}
	return result{}, false
}

// lineCount is how many line items the form numbers: one past the highest
// index sent.
func lineCount(form url.Values) int {
	n := 0
	for k := range form {
		if m := lineKey.FindStringSubmatch(k); m != nil {
			i, _ := strconv.Atoi(m[1])
			n = max(n, i+1)
		}
	}
	return n
}

// readLine adds line item i to cs: a price_data item with a name, a
// currency all items share, an amount and a quantity.
func readLine(form url.Values, i int, cs *session) (result, bool) {
	p := fmt.Sprintf("line_items[%d]", i)
	name := form.Get(p + "[price_data][product_data][name]")
	cur := form.Get(p + "[price_data][currency]")
	switch {
	case form.Get(p+"[price]") != "":
		return fail(http.StatusBadRequest, "", p+"[price]", "The stand-in implements price_data line items only."), true
	case cur == "":
		return missing(p + "[price_data][currency]"), true
	case name == "":
		return missing(p + "[price_data][product_data][name]"), true
	}
	amount, res, bad := requiredInt(form, p+"[price_data][unit_amount]")
	if bad {
		return res, true
	}
	qty, res, bad := requiredInt(form, p+"[quantity]")
	if bad {
		return res, true
	}
	if amount < 0 || qty < 1 {
		return fail(http.StatusBadRequest, "", p, "Line item amounts must be at least 0 and quantities at least 1."), true
	}
	if cs.currency == "" {
		cs.currency = cur
	} else if cur != cs.currency {
		return fail(http.StatusBadRequest, "", p+"[price_data][currency]", "All line items must share one currency."), true
	}
	cs.lines = append(cs.lines, line{name: name, unitAmount: amount, quantity: qty})
	cs.amountSubtotal += amount * qty
	return result{}, false
}

// requiredInt reads an integer parameter that must be sent.
func requiredInt(form url.Values, name string) (int64, result, bool) {
	v, present, bad, isBad := intParam(form, name)
	if isBad {
		return 0, bad, true
	}
	if !present {
		return 0, missing(name), true
	}
	return v, result{}, false
}

// readExpiry sets when cs expires: expires_at, between Stripe's bounds,
// or else the longest Stripe allows.
func readExpiry(form url.Values, cs *session) (result, bool) {
	cs.expiresAt = cs.created + maxExpiry
	at, present, bad, isBad := intParam(form, "expires_at")
	switch {
	case isBad:
		return bad, true
	case !present:
		return result{}, false
	case at < cs.created+minExpiry:
		return fail(http.StatusBadRequest, "", "expires_at", "The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation."), true
	case at > cs.created+maxExpiry:
		return fail(http.StatusBadRequest, "", "expires_at", "The `expires_at` timestamp must be less than 24 hours from Checkout Session creation."), true
	}
	cs.expiresAt = at
	return result{}, false
}

// applyCoupon applies the one coupon a session may name, refusing one that
// is unknown, used up or in another currency; its discount is at most the
// subtotal.
func (s *Server) applyCoupon(form url.Values, cs *session) (result, bool) {
	for k := range form {
		if strings.HasPrefix(k, "discounts[") && k != "discounts[0][coupon]" {
			return fail(http.StatusBadRequest, "", k, "The stand-in implements one coupon in discounts[0][coupon] only."), true
		}
	}
	id := form.Get("discounts[0][coupon]")
	if id == "" {
		return result{}, false
	}
	c, found := s.coupons[id]
	switch {
	case !found:
		return fail(http.StatusBadRequest, "resource_missing", "discounts[0][coupon]", fmt.Sprintf("No such coupon: '%s'", id)), true
	case c.maxRedemptions > 0 && c.timesRedeemed >= c.maxRedemptions:
		return fail(http.StatusBadRequest, "coupon_expired", "discounts[0][coupon]", fmt.Sprintf("Coupon %s is no longer valid.", id)), true
	case c.currency != cs.currency:
		return fail(http.StatusBadRequest, "", "discounts[0][coupon]", "The coupon's currency must match the line items'."), true
	}
	cs.couponID = id
	cs.amountDiscount = min(c.amountOff, cs.amountSubtotal)
	return result{}, false
}

// baseURL is the stand-in's own address as the client reached it, so the
// hosted page's link works from wherever the API was called.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (s *Server) lookup(id string) (*session, result, bool) {
	cs, found := s.sessions[id]
	if !found {
		return nil, fail(http.StatusNotFound, "resource_missing", "id", fmt.Sprintf("No such checkout.session: '%s'", id)), false
	}
	return cs, result{}, true
}

func (s *Server) getSession(r *http.Request, form url.Values) result {
	if res, bad := unknownParam(form); bad {
		return res
	}
	cs, res, found := s.lookup(r.PathValue("id"))
	if !found {
		return res
	}
	return ok(cs.json())
}

func (s *Server) expireSession(r *http.Request, form url.Values) result {
	if res, bad := unknownParam(form); bad {
		return res
	}
	cs, res, found := s.lookup(r.PathValue("id"))
	if !found {
		return res
	}
	if cs.status != stateOpen {
		return fail(http.StatusBadRequest, "", "",
			fmt.Sprintf("Only an open Checkout Session can be expired; this one is %s.", cs.status))
	}
	ev := s.expire(cs, requestRef(r))
	return ok(cs.json(), ev)
}

func (s *Server) createCoupon(r *http.Request, form url.Values) result {
	if res, bad := unknownParam(form, "amount_off", "currency", "duration", "max_redemptions", "name", "metadata"); bad {
		return res
	}
	off, present, bad, isBad := intParam(form, "amount_off")
	switch {
	case isBad:
		return bad
	case !present:
		return fail(http.StatusBadRequest, "", "amount_off", "The stand-in implements amount_off coupons only.")
	case off <= 0:
		return fail(http.StatusBadRequest, "", "amount_off", "amount_off must be a positive integer.")
	case form.Get("currency") == "":
		return missing("currency")
	}
	duration := form.Get("duration")
	if duration == "" {
		duration = "once"
	}
	if duration != "once" {
		return fail(http.StatusBadRequest, "", "duration", "The stand-in implements duration=once only.")
	}
	maxRed, _, bad, isBad := intParam(form, "max_redemptions")
	if isBad {
		return bad
	}
	c := &coupon{
		id:             newID(""),
		amountOff:      off,
		currency:       form.Get("currency"),
		duration:       duration,
		name:           form.Get("name"),
		maxRedemptions: maxRed,
		metadata:       metadata(form, "metadata"),
		created:        s.now().Unix(),
	}
	s.coupons[c.id] = c
	return ok(c.json())
}

func (s *Server) createRefund(r *http.Request, form url.Values) result {
	if res, bad := unknownParam(form, "payment_intent", "amount", "reason", "metadata"); bad {
		return res
	}
	pi := form.Get("payment_intent")
	if pi == "" {
		return fail(http.StatusBadRequest, "", "payment_intent", "The stand-in implements refunds by payment_intent only.")
	}
	cs, found := s.byPayment[pi]
	if !found {
		return fail(http.StatusNotFound, "resource_missing", "payment_intent", fmt.Sprintf("No such payment_intent: '%s'", pi))
	}
	switch reason := form.Get("reason"); reason {
	case "", "duplicate", "fraudulent", "requested_by_customer":
	default:
		return fail(http.StatusBadRequest, "", "reason", "Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer")
	}
	left := cs.amountTotal - cs.amountRefunded
	amount, present, bad, isBad := intParam(form, "amount")
	if isBad {
		return bad
	}
	if !present {
		amount = left
	}
	switch {
	case left == 0:
		return fail(http.StatusBadRequest, "charge_already_refunded", "", fmt.Sprintf("Charge %s has already been refunded.", cs.charge))
	case amount <= 0:
		return fail(http.StatusBadRequest, "", "amount", "Refund amount must be a positive integer.")
	case amount > left:
		return fail(http.StatusBadRequest, "amount_too_large", "amount", fmt.Sprintf(
			"Refund amount (%s) is greater than unrefunded amount on charge (%s)", formatAmount(amount), formatAmount(left)))
	}
	cs.amountRefunded += amount
	refund := map[string]any{
		"id":             newID("re_"),
		"object":         "refund",
		"amount":         amount,
		"charge":         cs.charge,
		"created":        s.now().Unix(),
		"currency":       cs.currency,
		"metadata":       metadata(form, "metadata"),
		"payment_intent": pi,
		"reason":         nullable(form.Get("reason")),
		"status":         "succeeded",
	}
	return ok(refund, s.newEvent("charge.refunded", cs.id, cs.chargeJSON(), requestRef(r)))
}
