package sqlite

import (
	"context"
	"database/sql"

	"github.com/nocturne/storefront/internal/store/sqlstore"
)

// inTx runs fn in the shared store's transaction, for the statements still
// written against database/sql's own transaction.
func (db *DB) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return db.InTx(ctx, func(tx sqlstore.Tx) error { return fn(tx.Tx) })
}
