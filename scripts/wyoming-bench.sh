#!/usr/bin/env bash
# The gateway's Wyoming server beside the reference servers Home Assistant users run, on this machine, with the
# same models: wyoming-faster-whisper with the engines folder's Whisper, wyoming-piper with its Piper voice.
# wyoming-bench (PyPI) measures both: transcription (time to the transcript, real-time factor, word error rate
# on a corpus spoken by Piper) and speech (time to the first audio, real-time factor), whole and streamed.
# A report, not a test: everything runs on 127.0.0.1, offline once the tools and models are here.
#
# Usage: ./scripts/wyoming-bench.sh [ROUNDS]   (needs the zero-setup engines in target/engines: run
# ./scripts/test.sh once, or the gateway's zero-setup start with ENGINES_DIR=target/engines)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${1:-3}"
ENGINES="$PWD/target/engines"
WHISPER="$ENGINES/models/whisper-base"
VOICE="en_US-joe-medium"
[ -f "$WHISPER/model.bin" ] && [ -f "$ENGINES/voices/$VOICE.onnx" ] \
  || { echo "the engines are missing in $ENGINES: run ./scripts/test.sh once" >&2; exit 1; }

# The reference servers and the benchmark, pinned, in their own venv.
VENV=target/bench-venv
if [ ! -x "$VENV/bin/wyoming-bench" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    wyoming-faster-whisper==3.8.1 wyoming-piper==2.5.2 wyoming-bench==2026.10.0
fi
cargo build --release --locked -q

WORK=$(mktemp -d)
PIDS=()
trap 'kill "${PIDS[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {
  for _ in $(seq 600); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return; sleep 0.2; done
  echo "nothing listens on port $1" >&2; exit 1
}

WHISPER_PORT=$(free_port); GREEDY_PORT=$(free_port); PIPER_PORT=$(free_port); GATEWAY_PORT=$(free_port)
# The reference as it starts (beam 5 on x86), and with the greedy decoding the gateway's engines use.
"$VENV/bin/python" -m wyoming_faster_whisper --uri "tcp://127.0.0.1:$WHISPER_PORT" --model "$WHISPER" \
  --data-dir "$WORK" --stt-library faster-whisper --language en --local-files-only >"$WORK/whisper.log" 2>&1 &
PIDS+=($!)
"$VENV/bin/python" -m wyoming_faster_whisper --uri "tcp://127.0.0.1:$GREEDY_PORT" --model "$WHISPER" \
  --data-dir "$WORK" --stt-library faster-whisper --language en --local-files-only --beam-size 1 \
  >"$WORK/greedy.log" 2>&1 &
PIDS+=($!)
"$VENV/bin/python" -m wyoming_piper --uri "tcp://127.0.0.1:$PIPER_PORT" --voice "$VOICE" \
  --data-dir "$ENGINES/voices" >"$WORK/piper.log" 2>&1 &
PIDS+=($!)
# The gateway with its zero-setup engines for speech (faster-whisper and Piper from target/engines); the
# language model is not needed, so none is started (the address is never called).
(cd "$WORK" && exec env -i PATH="$PATH" HOME="$HOME" ENGINES=auto ENGINES_DIR="$ENGINES" \
  LOCAL_LLM_URL=http://127.0.0.1:9/v1 LISTEN_ADDR="127.0.0.1:$(free_port)" \
  WYOMING_ADDR="127.0.0.1:$GATEWAY_PORT" WYOMING_ZEROCONF=false DAILY_REQUEST_LIMIT=100000 \
  "$OLDPWD/target/release/voice-gateway") >"$WORK/gateway.log" 2>&1 &
PIDS+=($!)
# The gateway listens once its engines are up.
wait_port "$WHISPER_PORT"; wait_port "$GREEDY_PORT"; wait_port "$PIPER_PORT"; wait_port "$GATEWAY_PORT"

BENCH="$VENV/bin/wyoming-bench"
echo "## Speech (TTS): gateway 127.0.0.1:$GATEWAY_PORT, wyoming-piper 127.0.0.1:$PIPER_PORT, voice $VOICE"
"$BENCH" tts "127.0.0.1:$GATEWAY_PORT" "127.0.0.1:$PIPER_PORT" --rounds "$ROUNDS"
echo "## Transcription (STT): gateway 127.0.0.1:$GATEWAY_PORT, wyoming-faster-whisper 127.0.0.1:$WHISPER_PORT"
echo "## (beam 5) and 127.0.0.1:$GREEDY_PORT (beam 1, as the gateway's engines), Whisper base"
"$BENCH" generate-corpus "127.0.0.1:$PIPER_PORT" --out "$WORK/corpus" >/dev/null
"$BENCH" stt "127.0.0.1:$GATEWAY_PORT" "127.0.0.1:$WHISPER_PORT" "127.0.0.1:$GREEDY_PORT" --corpus "$WORK/corpus" \
  --rounds "$ROUNDS"
