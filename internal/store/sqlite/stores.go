package sqlite

import "github.com/nocturne/storefront/internal/store/sqlstore"

// Every store of package shop is written once, in package sqlstore, and
// promoted to DB through its embedded *sqlstore.Store; this backend adds
// what its database does its own way (opening and migrations, search,
// locks, the session KV, the heartbeat).
var _ sqlstore.Stores = (*DB)(nil)
