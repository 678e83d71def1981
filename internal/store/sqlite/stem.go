package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"
)

// searchTokenizer is products_fts's tokenizer (migration 00003).
const searchTokenizer = `porter unicode61 remove_diacritics 2`

// stemmer turns a word into the terms products_fts would index it as,
// with the index's own tokenizer: a scratch FTS5 table in a private
// in-memory database, written and rolled back for each word. A Go port of
// the Porter stemmer could disagree with SQLite's on some word, and a
// disagreement here would serve one word's results for another.
type stemmer struct {
	mu sync.Mutex
	db *sql.DB
}

func newStemmer(ctx context.Context) (*stemmer, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, fmt.Errorf("open stemmer: %w", err)
	}
	db.SetMaxOpenConns(1) // each connection to :memory: is its own database
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	if _, err := db.ExecContext(ctx, `CREATE VIRTUAL TABLE scratch USING fts5 (w, tokenize = '`+searchTokenizer+`');
		CREATE VIRTUAL TABLE scratch_terms USING fts5vocab (scratch, instance);`); err != nil {
		db.Close()
		return nil, fmt.Errorf("create stemmer: %w", err)
	}
	return &stemmer{db: db}, nil
}

// terms returns word's index terms, in order.
func (s *stemmer) terms(ctx context.Context, word string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("stem %q: %w", word, err)
	}
	defer tx.Rollback() // nothing is kept
	if _, err := tx.ExecContext(ctx, `INSERT INTO scratch (rowid, w) VALUES (1, ?)`, word); err != nil {
		return nil, fmt.Errorf("stem %q: %w", word, err)
	}
	// Terms hold no spaces: the tokenizer splits on them.
	var terms string
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(string_agg(term, ' ' ORDER BY offset), '') FROM scratch_terms`).Scan(&terms); err != nil {
		return nil, fmt.Errorf("stem %q: %w", word, err)
	}
	return strings.Fields(terms), nil
}

func (s *stemmer) Close() error { return s.db.Close() }
