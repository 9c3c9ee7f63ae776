#!/usr/bin/env bash
# The house's telephone under SIPp's load (Debian's sip-tester), all on 127.0.0.1: how many calls a second it
# sets up (each answered, spoken to, sent speech and held 3 s; every call is the same unknown caller, the
# phone guest from one address, so the voice limits and the per-address share of the connection budget are
# raised), how many it holds at once with RTP both ways
# and its memory per call (a call set up 20 a second, held until all are up), and how soon the line is
# registered again after the router (kamailio) was away
# for a minute. Steps up until a call fails. A report, not a test.
#
# Usage: ./scripts/sip-bench.sh [BINARY]   (default: a release build of this checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-}"
if [ -z "$BIN" ]; then
  cargo build --release --locked -q
  BIN=target/release/voice-gateway
fi
SCENARIO="$PWD/tests/sipp/bench_call.xml"
WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
HTTP=127.0.0.1:18110
SIP=127.0.0.1:15062
ROUTER=127.0.0.1:15072
KEY=bench-admin-key-0123456789

router() {
  cat > "$WORK/kamailio.cfg" <<CFG
#!KAMAILIO
log_stderror=yes
children=2
listen=udp:$ROUTER
mpath="/usr/lib/x86_64-linux-gnu/kamailio/modules/"
loadmodule "kex.so"
loadmodule "corex.so"
loadmodule "tm.so"
loadmodule "sl.so"
loadmodule "pv.so"
loadmodule "usrloc.so"
loadmodule "registrar.so"
loadmodule "textops.so"
modparam("usrloc", "db_mode", 0)
modparam("registrar", "min_expires", 5)
modparam("registrar", "max_expires", 20)
request_route {
    if (is_method("REGISTER")) { save("location"); exit; }
    sl_send_reply("404", "Not Found");
}
CFG
  /usr/sbin/kamailio -f "$WORK/kamailio.cfg" -DD -E -Y "$WORK" > "$WORK/kamailio.log" 2>&1 &
  KAMAILIO=$!
  PIDS+=("$KAMAILIO")
}
router
DB_PATH="$WORK/gateway.db" LISTEN_ADDR=$HTTP ADMIN_API_KEY=$KEY ENGINES=off \
  SIP_ADDR=$SIP SIP_ALLOWED_FROM=127.0.0.1 PHONE_UNKNOWN_CALLERS=guest SIP_MAX_CALLS=1000 \
  SIP_REGISTRAR=$ROUTER SIP_USER=assistant SIP_PASSWORD=bench-line \
  SIP_RTP_PORTS=42000-44999 RTP_TIMEOUT_SECONDS=120 MAX_CONNECTIONS=4000 MAX_CONNECTIONS_PER_CLIENT=4000 \
  MAX_VOICE_CONNECTIONS=1000 VOICE_CONNECTIONS_PER_USER=1000 \
  DEFAULT_TTS_PROVIDER=espeak DEFAULT_STT_PROVIDER=openai OPENAI_STT_URL=http://127.0.0.1:9/v1 \
  "$BIN" > "$WORK/gateway.log" 2>&1 &
GATEWAY=$!
sleep 1
kill -0 $GATEWAY 2>/dev/null || { cat "$WORK/gateway.log"; exit 1; }
PIDS+=("$GATEWAY")
line() {
  curl -s -H "X-Admin-Key: $KEY" "http://$HTTP/api/admin/providers" \
    | python3 -c 'import json,sys; l=json.load(sys.stdin)["lines"][0]; print(l["state"], l.get("registrations", 0))'
}
for _ in $(seq 100); do [ "$(line 2>/dev/null | cut -d' ' -f1)" = registered ] && break; sleep 0.2; done
echo "the line: $(line) (state, registrations)"
rss() { awk '/VmRSS/ {print $2}' "/proc/$GATEWAY/status"; }
port=20000
# Runs N calls at R a second, each held D ms; prints "successful failed".
calls() {
  port=$((port + 2))
  sipp "$SIP" -sf "$SCENARIO" -s assistant -t u1 -i 127.0.0.1 -p $port -mi 127.0.0.1 -mp $((port + 10000)) \
    -r "$2" -m "$1" -l "$1" -d "$3" -nostdin -timeout 300s -trace_stat -stf "$WORK/stat-$port.csv" \
    > "$WORK/sipp-$port.log" 2>&1 || true
  python3 - "$WORK/stat-$port.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), delimiter=";"))
last = dict(zip(rows[0], rows[-1]))
print(last["SuccessfulCall(C)"], last["FailedCall(C)"])
PY
}

echo "| calls set up per second (10 s of calls, each held 3 s) | successful | failed |"
echo "|---|---|---|"
for rate in 5 10 20 40 80 160; do
  read -r ok failed < <(calls $((rate * 10)) "$rate" 3000)
  echo "| $rate | $ok | $failed |"
  [ "$failed" = 0 ] || break
done

echo
echo "| calls held at once (set up 20 a second, each held until all are up and 10 s more) | successful | failed | memory idle → held (MiB) | per call (KiB) |"
echo "|---|---|---|---|---|"
for held in 50 100 200 400 800; do
  idle=$(rss)
  peak=$idle
  calls "$held" 20 $((held * 50 + 10000)) > "$WORK/held" &
  running=$!
  while kill -0 $running 2>/dev/null; do now=$(rss); [ "$now" -gt "$peak" ] && peak=$now; sleep 0.5; done
  read -r ok failed < "$WORK/held"
  echo "| $held | $ok | $failed | $((idle / 1024)) → $((peak / 1024)) | $(((peak - idle) / held)) |"
  [ "$failed" = 0 ] || break
done

echo
read -r _ before < <(line)
kill "$KAMAILIO" || { echo "the router had stopped:"; tail -5 "$WORK/kamailio.log"; }
wait "$KAMAILIO" 2>/dev/null || true
sleep 60
router
started=$(date +%s.%N)
for _ in $(seq 1200); do
  read -r state count < <(line)
  [ "$state" = registered ] && [ "$count" -gt "$before" ] && break
  sleep 0.1
done
echo "router away for 60 s, back: the line registered again after $(python3 -c "import time; print(round(time.time() - $started, 1))") s"
echo
echo "the gateway's warnings and errors, by message:"
grep -E " (WARN|ERROR) " "$WORK/gateway.log" | sed -E 's/^[^ ]+ +//; s/ [a-z_]+=.*//' | sort | uniq -c | sort -rn | head -8
