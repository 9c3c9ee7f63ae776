#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: `initdb` and `pg_ctl` from Debian's `postgresql` package into a
# temporary folder, on a free loopback port, no password (trust on loopback only), no Docker.
# Usage: eval "$(scripts/postgres.sh start)"   # exports TEST_DATABASE_URL and PG_TEST_DIR
#        (PG_OPTIONS: more server options, such as a benchmark's `-c shared_preload_libraries=…`)
#        scripts/postgres.sh stop "$PG_TEST_DIR"
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

# PostgreSQL refuses to run as root: as root, the server runs as the package's `postgres` user.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    dir=$(mktemp -d /tmp/vg-postgres.XXXXXX)
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    # Many short test databases: fsync off and a larger connection limit keep the suite fast.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c max_connections=500 ${PG_OPTIONS:-}" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:$port/postgres PG_TEST_DIR=$dir"
    ;;
  stop)
    dir=${2:?the folder printed by start}
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
