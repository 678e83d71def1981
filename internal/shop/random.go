package shop

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
)

// RandomHex returns n bytes from crypto/rand as 2n hex digits: ids that
// must not be guessed (users, orders, request ids, secrets in files).
func RandomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails: it crashes the program rather than return weak bytes
	return hex.EncodeToString(b)
}

// RandomToken returns n bytes from crypto/rand in URL-safe base64 without
// padding: session ids, cart keys and the tokens of e-mailed links.
func RandomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (see RandomHex)
	return base64.RawURLEncoding.EncodeToString(b)
}
