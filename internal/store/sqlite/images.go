package sqlite

import "github.com/nocturne/storefront/internal/shop"

// Product photos are the shared store's (package sqlstore).
var _ shop.ImageStore = (*DB)(nil)
