#!/usr/bin/env sh
# Lists the Go files written by hand, which lint holds to the size limits:
# tests, templ's generated code and the store conformance suite (one long
# table of cases every store must pass) are left out.
set -eu
cd "$(dirname "$0")/.."
git ls-files '*.go' | grep -v -e '_test\.go$' -e '_templ\.go$' -e '^internal/store/storetest/'
