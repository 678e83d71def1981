// Package images owns imported product photos: fetching each source image
// once (safely: http(s) only, public addresses only, size, time and
// redirect limits), checking and decoding it without trusting its headers,
// and storing resized WebP and JPEG variants that the shop then serves
// from its own origin.
package images

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// variantsVersion is mixed into every photo's hash: changing how variants
// are made (widths, quality) changes their URLs, so browsers holding the
// old immutable copies fetch the new ones.
const variantsVersion = "v1"

// Report sums up one Sync.
type Report struct {
	Total     int // distinct image URLs
	Fetched   int // downloaded and stored (new or changed)
	Unchanged int // already stored and unchanged at the source
	// Failed counts images the shop cannot show: none stored and this
	// fetch failed. Kept counts failed refreshes of images still stored.
	Failed int
	Kept   int
}

// Service fetches, processes and stores images.
type Service struct {
	Store   shop.ImageStore
	Fetcher *Fetcher
	Log     *slog.Logger
	// Workers is how many images Sync fetches at once (0: 3).
	Workers int
	// MaxPixels refuses a photo with more pixels before it is decoded (0:
	// DefaultMaxPixels).
	MaxPixels int
	// Processors is how many photos this Service decodes, scales and
	// encodes at once, imports and uploads together (0:
	// DefaultProcessors): each holds a decoded photo, up to 4 bytes a
	// pixel, so this and MaxPixels bound the memory photos take.
	Processors int
	// Progress, when set, is called after each image with the counts so
	// far; the import command prints it.
	Progress func(done, total, failed int)
	Now      func() time.Time

	slotsOnce sync.Once
	slots     chan struct{}
	// hook, when set, runs while a photo holds a processing slot (tests).
	hook func(context.Context)
}

// DefaultProcessors is how many photos are processed at once unless
// IMAGE_WORKERS says otherwise.
const DefaultProcessors = 2

// process checks body against the pixel limit, then waits for a free
// processing slot (or for ctx to end) and decodes, scales and encodes it.
// A photo over the limit is refused at once, without waiting.
func (s *Service) process(ctx context.Context, body []byte) (processed, error) {
	maxPixels := s.MaxPixels
	if maxPixels <= 0 {
		maxPixels = DefaultMaxPixels
	}
	if err := check(body, maxPixels); err != nil {
		return processed{}, err
	}
	s.slotsOnce.Do(func() {
		n := s.Processors
		if n <= 0 {
			n = DefaultProcessors
		}
		s.slots = make(chan struct{}, n)
	})
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return processed{}, fmt.Errorf("wait to process a photo: %w", ctx.Err())
	}
	defer func() { <-s.slots }()
	if s.hook != nil {
		s.hook(ctx)
	}
	return process(body, maxPixels)
}

// Sync brings the stored images of urls up to date: new and previously
// failed ones are fetched, stored ones are revalidated with a conditional
// request (an unchanged image is not downloaded again). Failures are
// recorded and counted, never returned: a product whose photo fails shows
// its category's illustration. Only a store failure is an error.
func (s *Service) Sync(ctx context.Context, urls []string) (Report, error) {
	urls = unique(urls)
	rep := Report{Total: len(urls)}
	if len(urls) == 0 {
		return rep, nil
	}
	known, err := s.Store.ImageRecords(ctx, urls)
	if err != nil {
		return rep, err
	}
	workers := s.Workers
	if workers <= 0 {
		workers = 3
	}
	jobs := make(chan string)
	var (
		mu       sync.Mutex
		done     int
		storeErr error
		wg       sync.WaitGroup
	)
	for range min(workers, len(urls)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range jobs {
				outcome, err := s.syncOne(ctx, u, known[u])
				mu.Lock()
				done++
				switch {
				case err != nil:
					storeErr = errors.Join(storeErr, err)
				case outcome == fetchedNew:
					rep.Fetched++
				case outcome == unchanged:
					rep.Unchanged++
				case outcome == failedKept:
					rep.Kept++
				default:
					rep.Failed++
				}
				if s.Progress != nil {
					s.Progress(done, rep.Total, rep.Failed)
				}
				mu.Unlock()
			}
		}()
	}
	for _, u := range urls {
		select {
		case jobs <- u:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if storeErr == nil && ctx.Err() != nil {
		storeErr = ctx.Err()
	}
	return rep, storeErr
}

type outcome int

const (
	failed outcome = iota
	failedKept
	unchanged
	fetchedNew
)

// syncOne fetches one image; only a store error is returned.
func (s *Service) syncOne(ctx context.Context, url string, rec shop.ImageRecord) (outcome, error) {
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	rec.URL = url
	rec.CheckedAt = now()
	// Conditional only when we hold the image: a failed one is fetched in full.
	etag, lastMod := "", ""
	if rec.Hash != "" {
		etag, lastMod = rec.ETag, rec.LastModified
	}
	got, err := s.Fetcher.fetch(ctx, url, etag, lastMod)
	var p processed
	var hash string
	if err == nil && !got.NotModified {
		sum := sha256.Sum256(append([]byte(variantsVersion), got.Body...))
		hash = hex.EncodeToString(sum[:8])
		if hash != rec.Hash {
			p, err = s.process(ctx, got.Body)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return failed, nil // shutting down: leave the record as it was
		}
		rec.Error = err.Error()
		s.Log.Warn("product image failed", "url", redactURL(url), "err", err, "kept_previous", rec.Hash != "")
		if serr := s.Store.SaveImage(ctx, rec, nil); serr != nil {
			return failed, serr
		}
		if rec.Hash != "" {
			return failedKept, nil
		}
		return failed, nil
	}
	rec.Error = ""
	if got.ETag != "" || got.LastModified != "" || !got.NotModified {
		rec.ETag, rec.LastModified = got.ETag, got.LastModified
	}
	if got.NotModified || hash == rec.Hash {
		return unchanged, s.Store.SaveImage(ctx, rec, nil)
	}
	rec.Hash, rec.Width, rec.Height = hash, p.Photo.Width, p.Photo.Height
	if err := s.Store.SaveImage(ctx, rec, p.Variants); err != nil {
		return failed, err
	}
	return fetchedNew, nil
}

// HTTPURL reports whether image names an image to fetch (the built-in
// catalogue names assets instead).
func HTTPURL(image string) bool {
	return strings.HasPrefix(image, "https://") || strings.HasPrefix(image, "http://")
}

func unique(urls []string) []string {
	seen := make(map[string]bool, len(urls))
	out := urls[:0:0]
	for _, u := range urls {
		if HTTPURL(u) && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}

// redactURL drops what may carry a secret from a URL before it is logged:
// a password in it and its query (signed tokens).
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	if u.RawQuery != "" {
		u.RawQuery = "…"
	}
	u.Fragment = ""
	return u.Redacted()
}

// String is the report as the import command prints it.
func (r Report) String() string {
	return fmt.Sprintf("%d images: %d fetched, %d unchanged, %d failed", r.Total, r.Fetched, r.Unchanged, r.Failed+r.Kept)
}

// Prune deletes the images no product names any more.
func (s *Service) Prune(ctx context.Context) error {
	n, err := s.Store.PruneImages(ctx)
	if err == nil && n > 0 {
		s.Log.Info("deleted images no product uses", "count", n)
	}
	return err
}
