#!/usr/bin/env bash
# The upgrade smoke: the previous release (its commit in .ci/previous-release)
# must serve on the schema this checkout migrates to, as it does during a
# rolling upgrade (decision 0018). This builds that release's binary in a
# throw-away git worktree (kept in bin/ by commit, so a second run reuses
# it), then runs TestUpgrade_PreviousReleaseOnNewSchema, which migrates a
# fresh database with this checkout's code and walks a shopper and a
# member of staff through the previous binary: on SQLite, and on
# PostgreSQL when TEST_POSTGRES_URL is set.
#
# The previous release is built without its islands bundle: go build needs
# only the committed static/dist/README.md, and the smoke posts forms as a
# browser without JavaScript does.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)

commit="$(grep -v '^[[:space:]]*\(#\|$\)' .ci/previous-release | head -1 | tr -d '[:space:]')"
[ -n "$commit" ] || { echo "upgrade smoke: no commit in .ci/previous-release" >&2; exit 1; }
git cat-file -e "$commit^{commit}" 2>/dev/null || {
  echo "upgrade smoke: the previous release $commit is not in this clone (fetch its history: git fetch --unshallow)" >&2; exit 1; }

bin="$PWD/bin/storefront-previous-${commit:0:12}"
if [ ! -x "$bin" ]; then
  echo "== building the previous release ${commit:0:12}"
  work="$(mktemp -d)"
  cleanup() { git worktree remove --force "$work/src" >/dev/null 2>&1 || true; rm -rf "$work"; }
  trap cleanup EXIT
  git worktree add --quiet --detach "$work/src" "$commit"
  mkdir -p bin
  # Without -trimpath: the packages the two releases share are then the
  # ones test:go just compiled, so only what changed is built again.
  (cd "$work/src" && go build -o "$bin.tmp" .) || { echo "upgrade smoke: building the previous release failed" >&2; exit 1; }
  mv "$bin.tmp" "$bin"
  echo "   built in $(( $(date +%s) - start ))s"
fi

echo "== the previous release on this checkout's schema"
STOREFRONT_PREVIOUS_BIN="$bin" go test -count=1 -run '^TestUpgrade_PreviousReleaseOnNewSchema$' -v . \
  || { echo "upgrade smoke FAILED after $(( $(date +%s) - start ))s: the previous release ${commit:0:12} does not work on this schema (see the step above)" >&2; exit 1; }
echo "upgrade smoke passed in $(( $(date +%s) - start ))s"
