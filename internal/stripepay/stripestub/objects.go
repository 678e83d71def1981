package stripestub

import "strings"

// Session states, as Stripe names them.
const (
	stateOpen     = "open"
	stateComplete = "complete"
	stateExpired  = "expired"
)

type session struct {
	id, url               string
	status, paymentStatus string
	clientReferenceID     string
	customerEmail         string
	currency              string
	successURL, cancelURL string
	metadata              map[string]string
	lines                 []line
	couponID              string
	amountSubtotal        int64
	amountDiscount        int64
	amountTotal           int64
	amountRefunded        int64
	created, expiresAt    int64
	paymentIntent, charge string
	paymentIntentMetadata map[string]string
	chargeCreated         int64
}

type line struct {
	name       string
	unitAmount int64
	quantity   int64
}

type coupon struct {
	id             string
	amountOff      int64
	currency       string
	duration       string
	name           string
	maxRedemptions int64
	timesRedeemed  int64
	metadata       map[string]string
	created        int64
}

// nullable renders "" as JSON null, as Stripe renders unset fields.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (cs *session) json() map[string]any {
	discounts := []any{}
	if cs.couponID != "" {
		discounts = append(discounts, map[string]any{"coupon": cs.couponID, "promotion_code": nil})
	}
	meta := map[string]any{}
	for k, v := range cs.metadata {
		meta[k] = v
	}
	return map[string]any{
		"id":                   cs.id,
		"object":               "checkout.session",
		"amount_subtotal":      cs.amountSubtotal,
		"amount_total":         cs.amountTotal,
		"cancel_url":           nullable(cs.cancelURL),
		"client_reference_id":  nullable(cs.clientReferenceID),
		"created":              cs.created,
		"currency":             cs.currency,
		"customer_email":       nullable(cs.customerEmail),
		"discounts":            discounts,
		"expires_at":           cs.expiresAt,
		"livemode":             false,
		"metadata":             meta,
		"mode":                 "payment",
		"payment_intent":       nullable(cs.paymentIntent),
		"payment_method_types": []string{"card"},
		"payment_status":       cs.paymentStatus,
		"status":               cs.status,
		"success_url":          cs.successURL,
		"total_details": map[string]any{
			"amount_discount": cs.amountDiscount,
			"amount_shipping": 0,
			"amount_tax":      0,
		},
		"ui_mode": "hosted",
		"url":     nullable(cs.url),
	}
}

// chargeJSON is the charge behind a paid session, as charge.refunded
// carries it: amount_refunded is the sum of every refund so far.
func (cs *session) chargeJSON() map[string]any {
	meta := map[string]any{}
	for k, v := range cs.paymentIntentMetadata {
		meta[k] = v
	}
	return map[string]any{
		"id":              cs.charge,
		"object":          "charge",
		"amount":          cs.amountTotal,
		"amount_captured": cs.amountTotal,
		"amount_refunded": cs.amountRefunded,
		"captured":        true,
		"created":         cs.chargeCreated,
		"currency":        cs.currency,
		"livemode":        false,
		"metadata":        meta,
		"paid":            true,
		"payment_intent":  cs.paymentIntent,
		"refunded":        cs.amountRefunded == cs.amountTotal,
		"status":          "succeeded",
	}
}

func (c *coupon) json() map[string]any {
	meta := map[string]any{}
	for k, v := range c.metadata {
		meta[k] = v
	}
	return map[string]any{
		"id":              c.id,
		"object":          "coupon",
		"amount_off":      c.amountOff,
		"created":         c.created,
		"currency":        c.currency,
		"duration":        c.duration,
		"livemode":        false,
		"max_redemptions": c.maxRedemptions,
		"metadata":        meta,
		"name":            nullable(c.name),
		"percent_off":     nil,
		"times_redeemed":  c.timesRedeemed,
		"valid":           c.maxRedemptions == 0 || c.timesRedeemed < c.maxRedemptions,
	}
}

// successURL is where the shopper goes after paying, with Stripe's
// template variable filled in.
func (cs *session) successTarget() string {
	return strings.ReplaceAll(cs.successURL, "{CHECKOUT_SESSION_ID}", cs.id)
}

// complete marks cs paid, as a successful card payment on the hosted page
// does, and renders checkout.session.completed. Callers hold s.mu.
func (s *Server) complete(cs *session) *event {
	now := s.now().Unix()
	cs.status, cs.paymentStatus = stateComplete, "paid"
	cs.url = ""
	cs.paymentIntent, cs.charge = newID("pi_"), newID("ch_")
	cs.chargeCreated = now
	s.byPayment[cs.paymentIntent] = cs
	if c, ok := s.coupons[cs.couponID]; ok {
		c.timesRedeemed++
	}
	return s.newEvent("checkout.session.completed", cs.id, cs.json(), nil)
}

// expire ends an open session and renders checkout.session.expired.
// Callers hold s.mu.
func (s *Server) expire(cs *session, req map[string]any) *event {
	cs.status = stateExpired
	cs.url = ""
	return s.newEvent("checkout.session.expired", cs.id, cs.json(), req)
}

// expireIfDue expires an open session whose expires_at has passed on the
// stand-in's clock, as Stripe does on its own schedule; the hosted page
// calls it, so a journey with a moved clock meets an expired page. It
// returns nil when nothing changed. Callers hold s.mu.
func (s *Server) expireIfDue(cs *session) *event {
	if cs.status != stateOpen || s.now().Unix() < cs.expiresAt {
		return nil
	}
	return s.expire(cs, nil)
}
