package catalog

import (
	"context"
	"fmt"

	"github.com/nocturne/storefront/internal/images"
)

// syncImages fetches the photos of an import's products, after the
// products themselves are stored: the catalogue is live at once, with
// category illustrations, and each photo shows once stored. Photos that
// fail are retried by the next import or sync. Images no product names
// any more are deleted.
func (s *Service) syncImages(ctx context.Context, parsed *Parsed) error {
	if s.Images == nil {
		return nil
	}
	urls := make([]string, 0, len(parsed.Products))
	for _, p := range parsed.Products {
		if images.HTTPURL(p.Image) {
			urls = append(urls, p.Image)
		}
	}
	rep, err := s.Images.Sync(ctx, urls)
	parsed.Images = rep
	if rep.Fetched > 0 {
		s.Invalidate() // listings now show the new photos
	}
	if err != nil {
		return fmt.Errorf("product images: %w", err)
	}
	if err := s.Images.Prune(ctx); err != nil {
		return fmt.Errorf("product images: %w", err)
	}
	return nil
}
