#!/usr/bin/env python3
"""Issue 74's doors against a gateway binary, as its attacker meets them: 2,000 wrong admin keys from one
address (how many got 401, how many 429, how fast), then the right key from that address and from another
(through TRUSTED_PROXY_IPS=127.0.0.1 and X-Forwarded-For), and a request for a foreign host name.

  scripts/guessing.py BINARY      e.g. target/debug/voice-gateway (or an older build, for "before")

Standard library only. Used for issue 74's before/after table (the closing note).
"""

import collections
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

KEY = "guessing-admin-key-0123456789"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def status(url, headers):
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.headers.get("Retry-After")
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Retry-After")


def main(binary):
    port = free_port()
    folder = tempfile.mkdtemp()
    env = dict(os.environ, LISTEN_ADDR=f"127.0.0.1:{port}", DB_PATH=f"{folder}/gateway.db", ENGINES="off",
               AUTH_ENABLED="true", ADMIN_API_KEY=KEY, TRUSTED_PROXY_IPS="127.0.0.1", WYOMING_ZEROCONF="false",
               RUST_LOG="error")
    gateway = subprocess.Popen([os.path.abspath(binary)], cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                if status(f"{base}/health", {})[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        users = f"{base}/api/admin/users"
        seen = collections.Counter()
        started = time.monotonic()
        for i in range(2000):
            code, _ = status(users, {"X-Admin-Key": f"wrong-{i:04}-abcdefghijkl", "X-Forwarded-For": "192.0.2.1"})
            seen[code] += 1
        seconds = time.monotonic() - started
        print(f"2000 wrong admin keys from 192.0.2.1: {dict(seen)} in {seconds:.1f} s ({2000 / seconds:.0f}/s)")
        print("the right key from 192.0.2.1:", status(users, {"X-Admin-Key": KEY, "X-Forwarded-For": "192.0.2.1"}))
        print("the right key from 192.0.2.2:", status(users, {"X-Admin-Key": KEY, "X-Forwarded-For": "192.0.2.2"}))
        print("Host: attacker.example:", status(f"{base}/api/config", {"Host": "attacker.example"})[0])
    finally:
        gateway.terminate()
        gateway.wait()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
