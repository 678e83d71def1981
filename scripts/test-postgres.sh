#!/usr/bin/env bash
# The PostgreSQL part of `go tool task test` that is not Go tests: a smoke
# subset of the browser tests with the shop on PostgreSQL, and two
# instances behind nginx (scripts/two-instances.sh). The Go tests read
# TEST_POSTGRES_URL themselves. Without TEST_POSTGRES_URL this skips with
# one line, except under CI=true, where it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -z "${TEST_POSTGRES_URL:-}" ]; then
  if [ "${CI:-}" = "true" ]; then
    echo "TEST_POSTGRES_URL is not set, and CI=true requires the PostgreSQL tests to run" >&2
    exit 1
  fi
  echo "PostgreSQL browser smoke and nginx check skipped: set TEST_POSTGRES_URL (e.g. postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable)"
  exit 0
fi

echo "== browser smoke on PostgreSQL"
# Cart, wishlist, sign-in hand-over, checkout and the double Place Order:
# the journeys whose rules live in the store. The full suite runs on SQLite.
(cd e2e && E2E_POSTGRES_URL="$TEST_POSTGRES_URL" \
  E2E_ONLY="product page adds the chosen quantity|cart is kept after signing in|heart toggles|wishlist page moves|guest checks out from the cart|pressing Place Order twice|axe: /cart with items" \
  node --test --test-concurrency=1 --test-timeout=300000 tests/shopping.test.js tests/checkout.test.js)

echo "== two instances behind nginx"
scripts/two-instances.sh
