#!/usr/bin/env bash
# Runs two Nocturne instances on one fresh PostgreSQL database behind nginx
# (deploy/nginx.conf) and checks, through the proxy, that they act as one
# shop: both serve, a sign-in and a cart hold whichever instance answers,
# and failed sign-ins are counted per shopper address (X-Forwarded-For
# from the trusted proxy), not per instance. CI runs it (.ci/run).
#
# Needs: bin/storefront (go tool task build), nginx, psql, a PostgreSQL
# server at TEST_POSTGRES_URL (scripts/postgres-up.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

server="${TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}"
bin="${STOREFRONT_BIN:-bin/storefront}"
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
[ -x "$bin" ] || { echo "build first: go tool task build" >&2; exit 1; }
[ -x "$nginx_bin" ] || { echo "nginx is not installed (apt-get install nginx-light)" >&2; exit 1; }

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
port_a="$(free_port)"; port_b="$(free_port)"; listen="$(free_port)"
work="$(mktemp -d)"
db="nocturne_lb_$$"
db_url="$(python3 -c 'import sys,urllib.parse as u; p=u.urlparse(sys.argv[1]); print(p._replace(path="/"+sys.argv[2]).geturl())' "$server" "$db")"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  psql "$server" -X -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
psql "$server" -X -q -c "CREATE DATABASE $db"

base="http://127.0.0.1:$listen"
secret="$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')"
for port in "$port_a" "$port_b"; do
  mkdir -p "$work/$port"
  PORT="$port" DATABASE_URL="$db_url" DATABASE_MAX_CONNS=8 BASE_URL="$base" SESSION_SECRET="$secret" \
    TRUSTED_PROXIES=127.0.0.1 DATA_DIR="$work/$port" LOG_LEVEL=warn "$bin" 2>"$work/$port.log" &
  pids+=("$!")
done
mkdir -p "$work/nginx"
sed -e "s|@PREFIX@|$work/nginx|g" -e "s|@PORT_A@|$port_a|" -e "s|@PORT_B@|$port_b|" -e "s|@LISTEN@|$listen|" \
  deploy/nginx.conf >"$work/nginx.conf"
sed -i "s|^pid .*|pid $work/nginx.pid;|" "$work/nginx.conf"
"$nginx_bin" -p "$work/nginx" -c "$work/nginx.conf" -e "$work/nginx/error.log" 2>/dev/null || "$nginx_bin" -p "$work/nginx" -c "$work/nginx.conf"

fail() { echo "FAIL: $*" >&2; for f in "$work"/*.log; do echo "--- $f" >&2; tail -5 "$f" >&2; done; exit 1; }
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port_a/healthz" >/dev/null 2>&1 && curl -fs "http://127.0.0.1:$port_b/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done

echo "== both instances serve through nginx"
upstreams="$(for _ in 1 2 3 4; do curl -fs -o /dev/null -D - "$base/healthz" | tr -d '\r' | sed -n 's/^X-Upstream: //Ip'; done | sort -u | wc -l)"
[ "$upstreams" -eq 2 ] || fail "4 requests reached $upstreams instance(s), want 2"

# A browser stand-in: cookies kept, same-origin POSTs, source address $1.
post() { local ip="$1" path="$2"; shift 2
  curl -s -o "$work/body" -w '%{http_code}' --interface "$ip" -b "$work/jar.$ip" -c "$work/jar.$ip" \
    -H 'Sec-Fetch-Site: same-origin' -H "Origin: $base" "$@" "$base$path"; }
get() { local ip="$1" path="$2"; curl -s --interface "$ip" -b "$work/jar.$ip" -c "$work/jar.$ip" "$base$path"; }

echo "== a sign-in and a cart hold on whichever instance answers"
post 127.0.0.5 /register --data-urlencode displayName=Ada --data-urlencode email=ada@example.com \
  --data-urlencode password=night-owl-41 --data-urlencode confirmPassword=night-owl-41 >/dev/null
post 127.0.0.5 /cart/items -d product_id=nb-001 -d quantity=2 >/dev/null
for i in 1 2 3 4; do
  get 127.0.0.5 /profile | grep -q 'ada@example.com' || fail "request $i: /profile does not show the signed-in account"
  get 127.0.0.5 /cart | grep -q '/product/nb-001"' || fail "request $i: the cart line is missing"
done

echo "== failed sign-ins count per shopper address across both instances"
for i in 1 2 3 4 5; do
  post 127.0.0.7 /login -H 'X-Forwarded-For: 198.51.100.1' --data-urlencode email=ada@example.com --data-urlencode "password=wrong-$i" >/dev/null
done
post 127.0.0.7 /login --data-urlencode email=ada@example.com --data-urlencode password=night-owl-41 >/dev/null
grep -q 'Too many sign-in attempts' "$work/body" || fail "after 5 failures from 127.0.0.7 the 6th attempt was not throttled"
code="$(post 127.0.0.8 /login --data-urlencode email=ada@example.com --data-urlencode password=night-owl-41)"
[ "$code" = 303 ] || [ "$code" = 302 ] || fail "another address (127.0.0.8) was refused too ($code): the limit is not per address"

echo "ok: two instances behind nginx act as one shop"
