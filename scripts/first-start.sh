#!/usr/bin/env bash
# Times the zero-setup first start: the release binary in an empty folder (fresh engines: venv, pip installs,
# model downloads) until it prints "is ready". Build first: cargo build --release.
# Usage: ./scripts/first-start.sh [port]   (the gateway and its engines are stopped afterwards)
set -euo pipefail
bin="$(cd "$(dirname "$0")/.." && pwd)/target/release/voice-gateway"
port="${1:-18555}"
dir="$(mktemp -d)"
cd "$dir"
start=$(date +%s.%N)
LISTEN_ADDR="127.0.0.1:$port" "$bin" > out.log 2> err.log &
pid=$!
until grep -q "is ready" out.log 2>/dev/null; do
  kill -0 "$pid" 2>/dev/null || { cat err.log; exit 1; }
  sleep 0.5
done
end=$(date +%s.%N)
grep -E '^\[engines\] .*: .*, from ' err.log || true
echo "first start: $(echo "$end - $start" | bc) s (folder $dir)"
kill -TERM "$pid"; wait "$pid" || true
