package catalog

import "context"

// SyncImages runs only the photo step of an import, as the end of a long
// import does while other instances serve.
func (s *Service) SyncImages(ctx context.Context, parsed *Parsed) error {
	return s.syncImages(ctx, parsed)
}
