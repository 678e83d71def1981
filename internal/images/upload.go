package images

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/nocturne/storefront/internal/shop"
)

// UploadPrefix starts the image name of a photo staff uploaded: it names
// the stored photo, not a URL to fetch, so no import or sync fetches it.
const UploadPrefix = "upload:"

// Upload processes a photo staff uploaded in the product editor through the
// same pipeline as imported photos (sniffed, pixel-checked, every variant as
// WebP and JPEG) and stores it. It returns the image name to give the
// product. Bytes that are not an image, or a photo over the pixel limit,
// are an EINVALID; it waits for a processing slot like an import does.
func (s *Service) Upload(ctx context.Context, body []byte) (string, error) {
	sum := sha256.Sum256(append([]byte(variantsVersion), body...))
	hash := hex.EncodeToString(sum[:8])
	p, err := s.process(ctx, body)
	var big *tooManyPixels
	switch {
	case err == nil:
	case errors.As(err, &big):
		return "", shop.Errorf(shop.EINVALID, "That photo is %d×%d pixels, more than the %s megapixels we can process. Please upload a smaller one.",
			big.width, big.height, megapixels(big.max))
	case ctx.Err() != nil: // the request ended while it waited for a slot
		return "", fmt.Errorf("process uploaded photo: %w", err)
	default:
		return "", shop.Errorf(shop.EINVALID, "That file is not a JPEG, PNG, GIF or WebP photo we can use (%v).", err)
	}
	now := time.Now
	if s.Now != nil {
		now = s.Now
	}
	name := UploadPrefix + hash
	rec := shop.ImageRecord{URL: name, Hash: hash, Width: p.Photo.Width, Height: p.Photo.Height, CheckedAt: now()}
	if err := s.Store.SaveImage(ctx, rec, p.Variants); err != nil {
		return "", fmt.Errorf("store uploaded photo: %w", err)
	}
	return name, nil
}
