package catalog

import (
	"context"
	"fmt"

	"github.com/nocturne/storefront/internal/images"
)

// syncImages fetches the photos of an import's products, after the
// products themselves are stored: the catalogue is live at once, with
// category illustrations, and the photos show once all are stored. Photos that
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
	if err != nil {
		return fmt.Errorf("product images: %w", err)
	}
	if rep.Fetched > 0 {
		// New photos change what listings show: a new catalogue version
		// makes every instance reload and every cached page go stale.
		if err := s.Images.Store.PhotosChanged(ctx); err != nil {
			return fmt.Errorf("product images: %w", err)
		}
		if err := s.Reload(ctx); err != nil {
			return fmt.Errorf("product images: %w", err)
		}
	}
	if err := s.Images.Prune(ctx); err != nil {
		return fmt.Errorf("product images: %w", err)
	}
	return nil
}
