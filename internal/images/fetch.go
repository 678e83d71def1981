package images

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"
)

// Fetch limits. A product photo is rarely above 2 MB; the cap only stops a
// runaway or hostile response.
const (
	DefaultMaxBytes = 15 << 20
	DefaultTimeout  = 20 * time.Second
	maxRedirects    = 5
)

// ErrBlockedAddress is returned for a host that resolves to a loopback,
// private, link-local or otherwise non-public address.
var ErrBlockedAddress = errors.New("address is not a public internet address")

// Fetcher downloads source images over http and https only.
type Fetcher struct {
	Client   *http.Client
	MaxBytes int64
}

// NewFetcher returns a Fetcher whose client refuses non-public addresses
// unless allowPrivate (tests and intranet catalogues), follows at most
// maxRedirects redirects and gives up after timeout.
//
// The address check runs in the dialer's Control hook, on the IP actually
// being connected to, after DNS resolution and for every redirect: a name
// that resolves to a public address when checked and to 127.0.0.1 when
// dialled (DNS rebinding) is still refused.
func NewFetcher(allowPrivate bool, timeout time.Duration) *Fetcher {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	dialer := &net.Dialer{Timeout: min(timeout, 10*time.Second)}
	if !allowPrivate {
		dialer.Control = func(network, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				return fmt.Errorf("dial %s: %w", address, err)
			}
			if !publicAddr(ap.Addr()) {
				return fmt.Errorf("dial %s: %w", address, ErrBlockedAddress)
			}
			return nil
		}
	}
	transport := &http.Transport{
		// No proxy from the environment: the address check must see the
		// image's host, not a proxy's.
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   min(timeout, 10*time.Second),
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
	}
	return &Fetcher{
		MaxBytes: DefaultMaxBytes,
		Client: &http.Client{
			Transport: transport,
			Timeout:   timeout,
			CheckRedirect: func(req *http.Request, via []*http.Request) error {
				if len(via) >= maxRedirects {
					return fmt.Errorf("more than %d redirects", maxRedirects)
				}
				if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
					return fmt.Errorf("redirect to a %s URL", req.URL.Scheme)
				}
				return nil
			},
		},
	}
}

// reserved are ranges netip has no predicate for that are not the public
// internet either.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"), // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64 can reach private IPv4
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64: the same, by a site's own translator
	// IPv4-compatible IPv6 (deprecated): a stack that still honours it
	// reaches the IPv4 address inside, which Unmap does not unwrap.
	netip.MustParsePrefix("::/96"),
}

func publicAddr(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range reserved {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// fetched is one fetch's outcome.
type fetched struct {
	Body         []byte
	ETag         string
	LastModified string
	NotModified  bool
}

// fetch GETs rawURL, conditionally when etag or lastModified is known.
func (f *Fetcher) fetch(ctx context.Context, rawURL, etag, lastModified string) (fetched, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fetched{}, fmt.Errorf("not an http(s) URL")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return fetched{}, fmt.Errorf("image request: %w", err)
	}
	req.Header.Set("Accept", "image/webp,image/png,image/jpeg,image/gif;q=0.9,*/*;q=0.1")
	req.Header.Set("User-Agent", "Nocturne-storefront-image-fetcher/1")
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastModified != "" {
		req.Header.Set("If-Modified-Since", lastModified)
	}
	res, err := f.Client.Do(req)
	if err != nil {
		// Without the URL the error repeats: its query may hold a signed
		// token, and the error is logged and stored.
		var ue *url.Error
		if errors.As(err, &ue) {
			return fetched{}, fmt.Errorf("%s: %w", ue.Op, ue.Err)
		}
		return fetched{}, err
	}
	defer res.Body.Close()
	out := fetched{ETag: res.Header.Get("ETag"), LastModified: res.Header.Get("Last-Modified")}
	switch {
	case res.StatusCode == http.StatusNotModified && (etag != "" || lastModified != ""):
		out.NotModified = true
		return out, nil
	case res.StatusCode != http.StatusOK:
		return fetched{}, fmt.Errorf("status %d", res.StatusCode)
	case res.ContentLength > f.MaxBytes:
		return fetched{}, fmt.Errorf("%d bytes is more than the %d byte limit", res.ContentLength, f.MaxBytes)
	}
	out.Body, err = io.ReadAll(io.LimitReader(res.Body, f.MaxBytes+1))
	if err != nil {
		return fetched{}, fmt.Errorf("read body: %w", err)
	}
	if int64(len(out.Body)) > f.MaxBytes {
		return fetched{}, fmt.Errorf("more than the %d byte limit", f.MaxBytes)
	}
	return out, nil
}
