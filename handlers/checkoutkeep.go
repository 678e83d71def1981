package handlers

import (
	"encoding/json"

	"github.com/gofiber/fiber/v2"
)

// keptCheckout is what a shopper gave the checkout before signing in (as
// a guest, by password, link or Google): the promo code, the address typed
// and the shipping method chosen. Signing in moves to a new session so
// that an id planted before is worthless; these are the shopper's own
// choices, not the session's secrets, so they move with them. A code
// that no longer applies to the account signed in to is priced out by
// checkout and said next to the code field, as any stale code is.
type keptCheckout struct {
	code  string
	state checkoutState
}

// keepCheckout reads what the session being left holds of the checkout.
// The card's token and an order being placed stay behind: they belong to
// the session that gave them.
func (a *accountHandlers) keepCheckout(c *fiber.Ctx) keptCheckout {
	var k keptCheckout
	k.code = promoCode(c, a.sessions)
	if v, err := a.sessions.Get(c, sessionCheckout); err == nil {
		if s, _ := v.(string); s != "" {
			var st checkoutState
			if json.Unmarshal([]byte(s), &st) == nil {
				k.state = checkoutState{Shipping: st.Shipping, ShipMethod: st.ShipMethod}
			}
		}
	}
	return k
}

// restore puts what was kept into the session just started.
func (k keptCheckout) restore(c *fiber.Ctx, s Sessions) error {
	if k.code != "" {
		if err := s.Set(c, sessionCode, k.code); err != nil {
			return err
		}
	}
	if k.state.Shipping == nil && k.state.ShipMethod == "" {
		return nil
	}
	b, err := json.Marshal(k.state)
	if err != nil {
		return err
	}
	return s.Set(c, sessionCheckout, string(b))
}
