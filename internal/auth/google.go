package auth

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/markbates/goth/providers/openidConnect"

	"github.com/nocturne/storefront/internal/shop"
)

// GoogleDiscoveryURL is Google's OpenID Connect discovery document. Tests
// and staging point GOOGLE_DISCOVERY_URL at a local provider instead.
const GoogleDiscoveryURL = "https://accounts.google.com/.well-known/openid-configuration"

// Google signs shoppers in with Google through goth's OpenID Connect
// provider. It owns the provider (no goth globals, no gothic) and discovers
// the endpoints lazily, so a network hiccup at start-up does not stop the
// shop: the next sign-in attempt tries again.
type Google struct {
	ClientID, ClientSecret, CallbackURL, DiscoveryURL string
	HTTPClient                                        *http.Client

	mu       sync.Mutex
	provider *openidConnect.Provider
}

func (g *Google) getProvider() (*openidConnect.Provider, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.provider != nil {
		return g.provider, nil
	}
	client := g.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 10 * time.Second}
	}
	// goth discovers with http.DefaultClient inside NewNamed; the timeout
	// matters more to us than sharing its client, so fetch it ourselves first.
	if err := reachable(client, g.DiscoveryURL); err != nil {
		return nil, err
	}
	p, err := openidConnect.NewNamed("google", g.ClientID, g.ClientSecret, g.CallbackURL, g.DiscoveryURL, "openid", "email", "profile")
	if err != nil {
		return nil, fmt.Errorf("google discovery: %w", err)
	}
	// NewNamed calls itself "google-oidc"; the shop knows it as "google".
	p.SetName("google")
	p.HTTPClient = client
	// The id token already carries the claims we use; one request fewer.
	p.SkipUserInfoRequest = true
	g.provider = p
	return p, nil
}

// reachable checks that the discovery document answers, within the client's
// timeout.
func reachable(c *http.Client, u string) error {
	res, err := c.Get(u)
	if err != nil {
		return fmt.Errorf("google discovery: %w", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("google discovery: status %d", res.StatusCode)
	}
	return nil
}

// Begin returns the provider's sign-in URL for state and the goth session to
// keep until the callback.
func (g *Google) Begin(state string) (authURL, saved string, err error) {
	p, err := g.getProvider()
	if err != nil {
		return "", "", err
	}
	sess, err := p.BeginAuth(state)
	if err != nil {
		return "", "", fmt.Errorf("google begin: %w", err)
	}
	authURL, err = sess.GetAuthURL()
	if err != nil {
		return "", "", fmt.Errorf("google begin: %w", err)
	}
	return authURL, sess.Marshal(), nil
}

// Complete exchanges the callback's code for the shopper's identity.
func (g *Google) Complete(ctx context.Context, saved string, params url.Values) (GoogleIdentity, error) {
	p, err := g.getProvider()
	if err != nil {
		return GoogleIdentity{}, err
	}
	sess, err := p.UnmarshalSession(saved)
	if err != nil {
		return GoogleIdentity{}, fmt.Errorf("google session: %w", err)
	}
	if _, err := sess.Authorize(p, params); err != nil {
		return GoogleIdentity{}, fmt.Errorf("google token exchange: %w", err)
	}
	gu, err := p.FetchUser(sess)
	if err != nil {
		return GoogleIdentity{}, fmt.Errorf("google user: %w", err)
	}
	id := GoogleIdentity{Subject: gu.UserID, Email: gu.Email, Name: gu.Name}
	switch v := gu.RawData["email_verified"].(type) {
	case bool:
		id.EmailVerified = v
	case string:
		id.EmailVerified = v == "true"
	}
	return id, nil
}

// googleState is what the session keeps between Begin and Complete.
type googleState struct {
	State string `json:"state"`
	Saved string `json:"saved"`
	From  string `json:"from"`
}

// EncodeGoogleState and DecodeGoogleState keep the OAuth round trip's state
// as one session value.
func EncodeGoogleState(state, saved, from string) string {
	b, _ := json.Marshal(googleState{state, saved, from})
	return string(b)
}

// DecodeGoogleState reverses EncodeGoogleState.
func DecodeGoogleState(s string) (state, saved, from string, err error) {
	var st googleState
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		return "", "", "", fmt.Errorf("google state: %w", err)
	}
	return st.State, st.Saved, st.From, nil
}

// NewState returns a random OAuth state value.
func NewState() string { return shop.RandomToken(32) }
