#!/usr/bin/env bash
# The carers' board at scale (issue 65): 1,000 residents and 40 carers on PostgreSQL with two gateway
# instances on 127.0.0.1; see ui-tests/carer-bench.mjs for what is measured. A report, not a test.
#
# Usage: ./scripts/carer-bench.sh [BINARY]   (default: a release build of this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-}"
if [ -z "$BIN" ]; then
  cargo build --release --locked -q
  BIN=target/release/voice-gateway
fi
# pg_stat_statements counts the statements and rows of each request exactly.
eval "$(PG_OPTIONS='-c shared_preload_libraries=pg_stat_statements' scripts/postgres.sh start)"
WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null; scripts/postgres.sh stop "$PG_TEST_DIR"; rm -rf "$WORK"' EXIT
KEY=bench-admin-key-0123456789
start() {
  DATABASE_URL=$TEST_DATABASE_URL INSTANCE_ID=$1 LISTEN_ADDR=127.0.0.1:$2 ADMIN_API_KEY=$KEY ENGINES=off \
    MAX_CONNECTIONS_PER_CLIENT=1000 DEFAULT_TTS_PROVIDER=espeak DEFAULT_STT_PROVIDER=openai \
    OPENAI_STT_URL=http://127.0.0.1:9/v1 WYOMING_ZEROCONF=false RUST_LOG=warn \
    "$BIN" > "$WORK/gateway-$1.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$2/health" > /dev/null && return; sleep 0.2; done
  cat "$WORK/gateway-$1.log"
  exit 1
}
start a 18130
start b 18131
(cd ui-tests && [ -d node_modules ] || npm ci --silent)
A=http://127.0.0.1:18130 B=http://127.0.0.1:18131 KEY=$KEY DB=$TEST_DATABASE_URL node ui-tests/carer-bench.mjs
