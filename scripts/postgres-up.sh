#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers on 127.0.0.1:5432 with trust
# authentication for user postgres, as the PostgreSQL tests expect
# (TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable).
# When none answers, it installs Debian's PostgreSQL (when missing), lets
# local TCP connections in without a password, and starts the cluster.
# Meant for CI and throwaway machines: trust authentication is no setting
# for a server that holds anything of value.
set -euo pipefail

answers() { (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; }

if answers; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if ! ls /etc/postgresql/*/main >/dev/null 2>&1; then
  echo "== installing PostgreSQL from Debian's packages"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends postgresql postgresql-contrib >/dev/null
fi
version="$(ls /etc/postgresql | sort -V | tail -1)"
hba="/etc/postgresql/$version/main/pg_hba.conf"
if ! $SUDO grep -q '^host all postgres 127.0.0.1/32 trust' "$hba"; then
  # First match wins: the trust lines go on top.
  $SUDO sed -i '1i host all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust' "$hba"
fi
echo "== starting PostgreSQL $version"
$SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start || $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main reload
for _ in $(seq 1 50); do
  answers && exit 0
  sleep 0.2
done
echo "PostgreSQL did not start on 127.0.0.1:5432" >&2
exit 1
