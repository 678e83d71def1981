-- +goose Up
-- The search index's vocabulary: each term (a stem, "headphon") with how
-- many products hold it. Search uses it to tell which typed words match the
-- same products ("walnuts" and "walnut", "wirel" and "wireless") and which
-- words are frequent enough to score in advance.
CREATE VIRTUAL TABLE products_vocab USING fts5vocab (products_fts, row);

-- +goose Down
DROP TABLE products_vocab;
