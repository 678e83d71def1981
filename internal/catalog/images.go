package catalog

import (
	"context"

	"github.com/nocturne/storefront/internal/images"
)

// syncImages fetches the photos of an import's products, after the
// products themselves are stored: the catalogue is live at once, with
// category illustrations, and the photos show once all are stored. Photos that
// fail are retried by the next import or sync. Images no product names
// any more are deleted (FetchPhotos).
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
	rep, err := s.FetchPhotos(ctx, urls)
	parsed.Images = rep
	return err
}
