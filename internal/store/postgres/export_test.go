package postgres

// ResetConns closes every idle connection, database/sql's and the pool's,
// so the next statements start new sessions (tests change database-level
// settings, which apply to new sessions only).
func (db *DB) ResetConns() {
	db.SQL().SetMaxIdleConns(-1) // closes database/sql's idle connections
	db.SQL().SetMaxIdleConns(idleConns(db.pool))
	db.pool.Reset()
}
