#!/usr/bin/env bash
# The whole test suite, as a newcomer and CI run it: installs what the tests need when it is missing,
# then runs every test, including the end-to-end test with the real engines (ignored by a plain `cargo test`),
# on SQLite, then the integration tests once more on a throwaway PostgreSQL server.
# Usage: ./scripts/test.sh [test name filter]
set -euo pipefail
cd "$(dirname "$0")/.."

# System packages the tests use (Debian names; the README lists them). Installed only when a command is
# missing, with apt-get: as root, or through sudo.
need=()
command -v cc >/dev/null || need+=(gcc)
command -v kill >/dev/null || need+=(procps)
command -v ip >/dev/null || need+=(iproute2)
command -v unshare >/dev/null || need+=(util-linux)
command -v espeak-ng >/dev/null || need+=(espeak-ng)
command -v python3 >/dev/null || need+=(python3)
python3 -c 'import ensurepip, venv' 2>/dev/null || need+=(python3-venv)
command -v chromium >/dev/null || need+=(chromium)
command -v certutil >/dev/null || need+=(libnss3-tools)
command -v pebble >/dev/null || need+=(pebble)
command -v node >/dev/null || need+=(nodejs npm)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || need+=(nginx-light)
[ -x /usr/sbin/kamailio ] || need+=(kamailio)
command -v baresip >/dev/null || need+=(baresip-core)
command -v sipp >/dev/null || need+=(sip-tester)
command -v linphonec >/dev/null || need+=(linphone-cli)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing test dependencies with apt-get (as root, or through sudo): ${need[*]}"
  # Debian starts (and enables at boot) the services of three of them: nginx on port 80, PostgreSQL's own
  # cluster on 5432 and kamailio on 5060. The tests use none (they run their own on free ports); the README
  # says how to stop them.
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

# The browser tests drive Debian's Chromium with playwright-core (no browser download) and check every screen
# with axe-core.
[ -d ui-tests/node_modules/playwright-core ] && [ -f ui-tests/node_modules/axe-core/axe.min.js ] \
  || (cd ui-tests && npm ci --no-audit --no-fund --loglevel=error)

# The turn-taking models and their runtime, fetched once into target/engines by the same code the gateway's
# zero-setup start runs (Silero VAD, Smart Turn and ONNX Runtime's library, from the PyPI wheels that ship them).
if [ ! -f target/engines/models/silero_vad.onnx ] || [ ! -f target/engines/models/smart-turn-v3.2-cpu.onnx ] \
  || [ ! -f target/engines/onnxruntime/libonnxruntime.so ]; then
  python=python3
  python3 -m pip --version >/dev/null 2>&1 || { python3 -m venv target/fetch-venv && python=target/fetch-venv/bin/python; }
  "$python" engines/engines.py vad --dir target/engines
fi

# The property-based run of the API description (tests/api/api_fuzz.rs) uses Schemathesis and an OpenAPI
# validator, pinned, in their own venv.
if [ ! -x target/api-venv/bin/st ] || [ ! -x target/api-venv/bin/openapi-spec-validator ]; then
  python3 -m venv target/api-venv
  target/api-venv/bin/pip install -q --disable-pip-version-check schemathesis==4.32.5 openapi-spec-validator==0.9.0
fi

# The OpenAI-compatible API is tested with the official openai SDK (tests/api/openai_sdk.rs), pinned, in its own venv.
if [ ! -x target/openai-venv/bin/python ] || ! target/openai-venv/bin/python -c 'import openai, websockets' 2>/dev/null; then
  python3 -m venv target/openai-venv
  target/openai-venv/bin/pip install -q --disable-pip-version-check 'openai[realtime]==3.54.0'
fi

# The Wyoming server is tested with the reference wyoming client (tests/api/wyoming.rs) and its discovery with
# the zeroconf package Home Assistant browses with (tests/api/wyoming_mdns.rs), pinned, in their own venv.
if [ ! -x target/wyoming-venv/bin/python ] || ! target/wyoming-venv/bin/python -c 'import zeroconf, wyoming.version as v; assert v.__version__ == "1.10.2" and zeroconf.__version__ == "0.154.0"' 2>/dev/null; then
  python3 -m venv target/wyoming-venv
  target/wyoming-venv/bin/pip install -q --disable-pip-version-check wyoming==1.10.2 zeroconf==0.154.0
fi

# The end-to-end test sets up the local engines in target/engines (a minute the first time, seconds after),
# first and alone: the house telephone's tests run the gateway in a network namespace where nothing can be
# fetched. (The deployment test needs the PostgreSQL below.)
cargo test --locked --test api -- --ignored --exact e2e::the_engines_are_set_up_in_the_folder_the_tests_share
cargo test --locked -- --include-ignored --skip deploy:: "$@"

# The integration suite again, on PostgreSQL: a throwaway server, each test's gateway with its own database.
eval "$(scripts/postgres.sh start)"
trap 'scripts/postgres.sh stop "$PG_TEST_DIR"' EXIT
echo "the integration tests on PostgreSQL ($TEST_DATABASE_URL)"
# The ignored tests (browser, engines, SDKs) ran above on SQLite: skipped here by name rather than listed as
# "ignored" again.
skip=()
while read -r name; do skip+=(--skip "$name"); done \
  < <(cargo test --locked --test api -- --list --ignored 2>/dev/null | sed -n 's/: test$//p')
TEST_DATABASE_URL="$TEST_DATABASE_URL" cargo test --locked --test api "$@" -- "${skip[@]}"
# Two gateway binaries on that PostgreSQL behind nginx, configured by docs/deploy.md (tests/api/deploy.rs).
TEST_DATABASE_URL="$TEST_DATABASE_URL" cargo test --locked --test api deploy -- --ignored "$@"
