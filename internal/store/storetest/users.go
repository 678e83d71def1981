package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// testUsers covers accounts and guests: unique e-mail, lookups, profile,
// password and session generation, deletion and the guest hand-over.
func testUsers(t *testing.T, b Backend) {
	ctx := context.Background()

	t.Run("CreateAndFind", func(t *testing.T) {
		s, _, clock := b.open(t)
		u := &shop.User{ID: "u1", Email: "owl@example.com", DisplayName: "Night Owl", PhoneNumber: "555"}
		must(t, s.CreateUser(ctx, u, []byte("hash1")))
		if u.Country != shop.DefaultCountry || !u.HasPassword || !u.CreatedAt.Equal(clock.Now()) {
			t.Errorf("created: %+v", u)
		}
		got, err := s.UserByID(ctx, "u1")
		if err != nil || got.Email != u.Email || got.DisplayName != u.DisplayName || got.PhoneNumber != "555" ||
			got.Country != shop.DefaultCountry || !got.HasPassword || got.IsGuest || !got.CreatedAt.Equal(u.CreatedAt) {
			t.Errorf("by id: %+v, %v", got, err)
		}
		got, hash, err := s.UserByEmail(ctx, "  OWL@example.com ")
		if err != nil || got.ID != "u1" || string(hash) != "hash1" {
			t.Errorf("by e-mail (normalised): %+v %q %v", got, hash, err)
		}
		err = s.CreateUser(ctx, &shop.User{ID: "u2", Email: "owl@example.com"}, []byte("h"))
		wantCode(t, "taken e-mail", err, shop.ECONFLICT, shop.MsgEmailTaken)
		// Guests have no e-mail, and any number of them may exist; an
		// account without a password (Google) has no hash.
		must(t, s.CreateUser(ctx, &shop.User{ID: shop.GuestIDPrefix + "1", IsGuest: true}, nil))
		must(t, s.CreateUser(ctx, &shop.User{ID: shop.GuestIDPrefix + "2", IsGuest: true}, nil))
		must(t, s.CreateUser(ctx, &shop.User{ID: "g1", Email: "google@example.com"}, nil))
		if g, hash, err := s.UserByEmail(ctx, "google@example.com"); err != nil || g.HasPassword || hash != nil {
			t.Errorf("no password: %+v %q %v", g, hash, err)
		}
		_, err = s.UserByID(ctx, "nobody")
		wantCode(t, "unknown id", err, shop.ENOTFOUND, shop.MsgUserNotFound)
		_, _, err = s.UserByEmail(ctx, "nobody@example.com")
		wantCode(t, "unknown e-mail", err, shop.ENOTFOUND, "")
	})

	t.Run("GoogleProfilePassword", func(t *testing.T) {
		s, _, _ := b.open(t)
		newUser(t, s, "u1", "owl@example.com")
		_, err := s.UserByGoogleSubject(ctx, "sub-1")
		wantCode(t, "unlinked subject", err, shop.ENOTFOUND, "")
		must(t, s.LinkGoogle(ctx, "u1", "sub-1"))
		if u, err := s.UserByGoogleSubject(ctx, "sub-1"); err != nil || u.ID != "u1" || u.GoogleSubject != "sub-1" {
			t.Errorf("by subject: %+v, %v", u, err)
		}
		wantCode(t, "link an unknown user", s.LinkGoogle(ctx, "nobody", "sub-2"), shop.ENOTFOUND, "")

		p := shop.Profile{DisplayName: "Ada", PhoneNumber: "+1 555", Address: "1 Moon St", City: "Oslo", State: "-", ZipCode: "0150", Country: "Canada"}
		must(t, s.UpdateProfile(ctx, "u1", p))
		u, _ := s.UserByID(ctx, "u1")
		if got := (shop.Profile{DisplayName: u.DisplayName, PhoneNumber: u.PhoneNumber, Address: u.Address, City: u.City, State: u.State, ZipCode: u.ZipCode, Country: u.Country}); got != p {
			t.Errorf("profile: got %+v, want %+v", got, p)
		}
		wantCode(t, "profile of an unknown user", s.UpdateProfile(ctx, "nobody", p), shop.ENOTFOUND, "")

		gen0 := u.SessionGen
		gen1, err := s.SetPassword(ctx, "u1", []byte("new-hash"))
		if err != nil || gen1 <= gen0 {
			t.Errorf("set password: gen %d → %d, %v", gen0, gen1, err)
		}
		if _, hash, _ := s.UserByEmail(ctx, "owl@example.com"); string(hash) != "new-hash" {
			t.Errorf("hash: %q", hash)
		}
		gen2, err := s.BumpSessionGen(ctx, "u1")
		if u, _ := s.UserByID(ctx, "u1"); err != nil || gen2 <= gen1 || u.SessionGen != gen2 {
			t.Errorf("bump: %d → %d (stored %d), %v", gen1, gen2, u.SessionGen, err)
		}
		_, err = s.SetPassword(ctx, "nobody", []byte("h"))
		wantCode(t, "password of an unknown user", err, shop.ENOTFOUND, "")
		_, err = s.BumpSessionGen(ctx, "nobody")
		wantCode(t, "bump an unknown user", err, shop.ENOTFOUND, "")
	})

	t.Run("EmailVerified", func(t *testing.T) {
		s, _, _ := b.open(t)
		u := newUser(t, s, "u1", "owl@example.com")
		if got, _ := s.UserByID(ctx, "u1"); got.EmailVerified || u.EmailVerified {
			t.Error("a registered account starts verified")
		}
		must(t, s.CreateUser(ctx, &shop.User{ID: "g1", Email: "g@example.com", GoogleSubject: "sub-g", EmailVerified: true}, nil))
		if got, _, _ := s.UserByEmail(ctx, "g@example.com"); !got.EmailVerified {
			t.Error("an account created verified is not")
		}
		must(t, s.MarkEmailVerified(ctx, "u1"))
		if got, _ := s.UserByID(ctx, "u1"); !got.EmailVerified {
			t.Error("not verified after MarkEmailVerified")
		}
		wantCode(t, "verify an unknown user", s.MarkEmailVerified(ctx, "nobody"), shop.ENOTFOUND, "")
		must(t, s.CreateUser(ctx, &shop.User{ID: shop.GuestIDPrefix + "1", IsGuest: true}, nil))
		wantCode(t, "verify a guest", s.MarkEmailVerified(ctx, shop.GuestIDPrefix+"1"), shop.ENOTFOUND, "")
		wantCode(t, "link a subject another account has", s.LinkGoogle(ctx, "u1", "sub-g"), shop.ECONFLICT, shop.MsgGoogleInUse)
	})

	t.Run("TakeOverUnverified", func(t *testing.T) {
		s, _, _ := b.open(t)
		newUser(t, s, "u1", "owl@example.com")
		gen, err := s.TakeOverUnverified(ctx, "u1", "sub-1")
		if err != nil || gen != 1 {
			t.Fatalf("take over: gen %d, %v", gen, err)
		}
		got, hash, err := s.UserByEmail(ctx, "owl@example.com")
		if err != nil || hash != nil || got.HasPassword || !got.EmailVerified || got.GoogleSubject != "sub-1" || got.SessionGen != 1 {
			t.Errorf("after take-over: %+v %q %v", got, hash, err)
		}
		// Verified now: a second take-over changes nothing.
		_, err = s.TakeOverUnverified(ctx, "u1", "sub-2")
		wantCode(t, "take over a verified account", err, shop.ECONFLICT, "")
		if got, _ := s.UserByID(ctx, "u1"); got.GoogleSubject != "sub-1" || got.SessionGen != 1 {
			t.Errorf("a refused take-over changed the account: %+v", got)
		}
		_, err = s.TakeOverUnverified(ctx, "nobody", "sub-3")
		wantCode(t, "take over an unknown user", err, shop.ENOTFOUND, "")
		newUser(t, s, "u2", "lark@example.com")
		_, err = s.TakeOverUnverified(ctx, "u2", "sub-1")
		wantCode(t, "take over with a subject another account has", err, shop.ECONFLICT, shop.MsgGoogleInUse)
		if got, hash, _ := s.UserByEmail(ctx, "lark@example.com"); got.EmailVerified || hash == nil || got.SessionGen != 0 {
			t.Errorf("a failed take-over changed the account: %+v %q", got, hash)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		s, _, clock := b.open(t)
		seed(t, s)
		newUser(t, s, "u1", "owl@example.com")
		newUser(t, s, "u2", "lark@example.com")
		must(t, s.AddToCart(ctx, "u1", "lamp-1", 1))
		must(t, s.AddToWishlist(ctx, "u1", "lamp-1"))
		must(t, s.SaveCard(ctx, "u1", shop.SavedCard{Brand: "Visa", Last4: "4242", ExpMonth: 1, ExpYear: 2030, Name: "Owl"}))
		must(t, s.CreatePasswordReset(ctx, "u1", "reset-1", clock.Now().Add(time.Hour)))
		must(t, s.InsertOrder(ctx, order("NOC-1", "u1", shop.StatusDelivered, 1000, clock.Now())))
		must(t, s.DeleteUser(ctx, "u1"))
		_, err := s.UserByID(ctx, "u1")
		wantCode(t, "deleted user", err, shop.ENOTFOUND, "")
		if c := cartOf(t, s, "u1"); c != "" {
			t.Errorf("cart kept: %s", c)
		}
		if w := wishlistOf(t, s, "u1"); len(w) != 0 {
			t.Errorf("wishlist kept: %v", w)
		}
		if card, err := s.SavedCard(ctx, "u1"); err != nil || card != nil {
			t.Errorf("card kept: %+v, %v", card, err)
		}
		if ok, _ := s.PasswordResetUsable(ctx, "reset-1"); ok {
			t.Error("reset token still usable")
		}
		// The order stays for the shop's accounts, without personal details.
		if o, err := s.Order(ctx, "NOC-1"); err != nil || o.Email != "" || o.ShipTo.Name != "" || o.ShipTo.Street != "" || o.ShipTo.Phone != "" || o.Total != 1000 {
			t.Errorf("order after deletion: %+v, %v", o, err)
		}
		if _, err := s.UserByID(ctx, "u2"); err != nil {
			t.Errorf("another user went too: %v", err)
		}
		wantCode(t, "delete an unknown user", s.DeleteUser(ctx, "u1"), shop.ENOTFOUND, "")
	})

	t.Run("HandOver", func(t *testing.T) {
		s, _, clock := b.open(t)
		seed(t, s)
		guest := shop.GuestIDPrefix + "1"
		must(t, s.CreateUser(ctx, &shop.User{ID: guest, IsGuest: true}, nil))
		newUser(t, s, "u1", "owl@example.com")
		must(t, s.AddToCart(ctx, guest, "lamp-1", 8))
		must(t, s.AddToCart(ctx, guest, "tv-1", 1))
		must(t, s.AddToCart(ctx, "u1", "lamp-1", 5))
		must(t, s.InsertOrder(ctx, order("NOC-G", guest, shop.StatusProcessing, 2000, clock.Now())))
		must(t, s.HandOver(ctx, guest, "u1"))
		if c := cartOf(t, s, "u1"); c != "lamp-1×10,tv-1×1" {
			t.Errorf("account cart: %s", c)
		}
		if c := cartOf(t, s, guest); c != "" {
			t.Errorf("guest cart: %s", c)
		}
		if o, _ := s.Order(ctx, "NOC-G"); o == nil || o.UserID != "u1" {
			t.Errorf("guest order not handed over: %+v", o)
		}
		_, err := s.UserByID(ctx, guest)
		wantCode(t, "guest after hand-over", err, shop.ENOTFOUND, "")
	})

	// A payment under way for the guest's cart moves to the account's cart,
	// unless the account has a payment under way of its own: a cart has one
	// pending order at a time, and the hand-over must not fail on it.
	t.Run("HandOverPendingOrders", func(t *testing.T) {
		for _, accountPending := range []bool{false, true} {
			s, _, clock := b.open(t)
			seed(t, s)
			guest := shop.GuestIDPrefix + "1"
			must(t, s.CreateUser(ctx, &shop.User{ID: guest, IsGuest: true}, nil))
			newUser(t, s, "u1", "owl@example.com")
			pending := order("NOC-GP", guest, shop.StatusPending, 2000, clock.Now())
			pending.CartOwner = guest
			must(t, s.InsertOrder(ctx, pending))
			placed := order("NOC-GD", guest, shop.StatusProcessing, 2000, clock.Now())
			placed.CartOwner = guest
			must(t, s.InsertOrder(ctx, placed))
			if accountPending {
				own := order("NOC-UP", "u1", shop.StatusPending, 1000, clock.Now())
				own.CartOwner = "u1"
				must(t, s.InsertOrder(ctx, own))
			}
			must(t, s.HandOver(ctx, guest, "u1"))
			wantOwner := map[string]string{"NOC-GD": "u1", "NOC-GP": "u1"}
			if accountPending {
				wantOwner["NOC-GP"], wantOwner["NOC-UP"] = guest, "u1"
			}
			for id, want := range wantOwner {
				if o, err := s.Order(ctx, id); err != nil || o.CartOwner != want || o.UserID != "u1" {
					t.Errorf("account pending %v: %s after hand-over: %+v (%v), want cart %s of u1", accountPending, id, o, err, want)
				}
			}
		}
	})
}

// testTokens covers password-reset tokens and sign-in links: single use,
// expiry, revocation.
func testTokens(t *testing.T, b Backend) {
	ctx := context.Background()
	type tokens struct {
		name    string
		invalid string // the message of a token that cannot be used
		create  func(s Store, user, hash string, exp time.Time) error
		consume func(s Store, hash string) (string, error)
		revoke  func(s Store, user string) error
	}
	for _, k := range []tokens{
		{"PasswordReset", shop.MsgResetLinkInvalid,
			func(s Store, u, h string, exp time.Time) error { return s.CreatePasswordReset(ctx, u, h, exp) },
			func(s Store, h string) (string, error) { return s.ConsumePasswordReset(ctx, h) },
			func(s Store, u string) error { return s.RevokePasswordResets(ctx, u) }},
		{"SignInLink", shop.MsgSignInLinkInvalid,
			func(s Store, u, h string, exp time.Time) error { return s.CreateSignInLink(ctx, u, h, exp) },
			func(s Store, h string) (string, error) { return s.ConsumeSignInLink(ctx, h) },
			func(s Store, u string) error { return s.RevokeSignInLinks(ctx, u) }},
	} {
		t.Run(k.name, func(t *testing.T) {
			s, _, clock := b.open(t)
			newUser(t, s, "u1", "owl@example.com")
			must(t, k.create(s, "u1", "h1", clock.Now().Add(time.Hour)))
			must(t, k.create(s, "u1", "h2", clock.Now().Add(time.Hour)))
			must(t, k.create(s, "u1", "h3", clock.Now().Add(time.Minute)))
			if got, err := k.consume(s, "h1"); err != nil || got != "u1" {
				t.Errorf("consume: %q, %v", got, err)
			}
			_, err := k.consume(s, "h1")
			wantCode(t, "second use", err, shop.ENOTFOUND, k.invalid)
			_, err = k.consume(s, "unknown")
			wantCode(t, "unknown token", err, shop.ENOTFOUND, "")
			clock.Add(2 * time.Minute)
			_, err = k.consume(s, "h3")
			wantCode(t, "expired token", err, shop.ENOTFOUND, k.invalid)
			must(t, k.revoke(s, "u1"))
			_, err = k.consume(s, "h2")
			wantCode(t, "revoked token", err, shop.ENOTFOUND, "")
			wantCode(t, "token of an unknown user", k.create(s, "nobody", "h4", clock.Now().Add(time.Hour)), shop.ENOTFOUND, "")
		})
	}

	t.Run("EmailConfirmation", func(t *testing.T) {
		s, _, clock := b.open(t)
		newUser(t, s, "u1", "owl@example.com")
		exp := clock.Now().Add(time.Hour)
		must(t, s.CreateEmailConfirmation(ctx, "u1", "h1", "", exp))
		must(t, s.CreateEmailConfirmation(ctx, "u1", "h2", "sub-1", exp))
		must(t, s.CreateEmailConfirmation(ctx, "u1", "h3", "", clock.Now().Add(time.Minute)))
		must(t, s.CreateEmailConfirmation(ctx, "u1", "h4", "", exp))
		if u, sub, err := s.ConsumeEmailConfirmation(ctx, "h1"); err != nil || u != "u1" || sub != "" {
			t.Errorf("consume: %q %q %v", u, sub, err)
		}
		if u, sub, err := s.ConsumeEmailConfirmation(ctx, "h2"); err != nil || u != "u1" || sub != "sub-1" {
			t.Errorf("consume with a Google subject: %q %q %v", u, sub, err)
		}
		_, _, err := s.ConsumeEmailConfirmation(ctx, "h2")
		wantCode(t, "second use", err, shop.ENOTFOUND, shop.MsgConfirmLinkInvalid)
		_, _, err = s.ConsumeEmailConfirmation(ctx, "unknown")
		wantCode(t, "unknown link", err, shop.ENOTFOUND, shop.MsgConfirmLinkInvalid)
		clock.Add(2 * time.Minute)
		_, _, err = s.ConsumeEmailConfirmation(ctx, "h3")
		wantCode(t, "expired link", err, shop.ENOTFOUND, shop.MsgConfirmLinkInvalid)
		must(t, s.RevokeEmailConfirmations(ctx, "u1"))
		_, _, err = s.ConsumeEmailConfirmation(ctx, "h4")
		wantCode(t, "revoked link", err, shop.ENOTFOUND, "")
		wantCode(t, "link of an unknown user", s.CreateEmailConfirmation(ctx, "nobody", "h5", "", exp), shop.ENOTFOUND, "")
	})

	t.Run("PasswordResetUsable", func(t *testing.T) {
		s, _, clock := b.open(t)
		newUser(t, s, "u1", "owl@example.com")
		must(t, s.CreatePasswordReset(ctx, "u1", "h1", clock.Now().Add(time.Hour)))
		for range 2 { // asking does not use it
			if ok, err := s.PasswordResetUsable(ctx, "h1"); err != nil || !ok {
				t.Errorf("usable: %v, %v", ok, err)
			}
		}
		if ok, _ := s.PasswordResetUsable(ctx, "unknown"); ok {
			t.Error("unknown token usable")
		}
		clock.Add(2 * time.Hour)
		if ok, _ := s.PasswordResetUsable(ctx, "h1"); ok {
			t.Error("expired token usable")
		}
	})
}
