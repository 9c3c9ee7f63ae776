#!/usr/bin/env python3
"""The six attacks of issue 42, and the memory of idle voice sessions, against a gateway binary: each starts
the binary afresh (engines off, its own folder, loopback ports), runs one attack, and prints the process's
peak memory (VmHWM), the most descriptors it held, the time, and what the attacker and /health saw.

  scripts/attacks.py BINARY [ATTACK…]
      BINARY   e.g. target/debug/voice-gateway (or an older build, for "before")
      ATTACK   decoder wyoming-deaf audiosocket-flood streamed-text log-flood https-refusal idle-voice
               (default: all)

Standard library only. Used for issue 42's before/after table (docs/decisions.md).
"""

import json
import os
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOMB = os.path.join(ROOT, "tests/fixtures/attacks/silence-384k-7.1.flac")
ADMIN_KEY = "attacks-admin-key"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def connect(port, timeout=20):
    """A connection to a port the gateway opens a moment after its HTTP port."""
    deadline = time.time() + timeout
    while True:
        try:
            return socket.create_connection(("127.0.0.1", port))
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)


class Gateway:
    """The binary on loopback ports, with `env`, under `prlimit --nofile=N` when `descriptors` is given."""

    def __init__(self, binary, env=(), descriptors=None):
        self.dir = tempfile.TemporaryDirectory()
        self.port = free_port()
        command = [binary] if descriptors is None else ["prlimit", f"--nofile={descriptors}:{descriptors}", binary]
        full = dict(os.environ, ENGINES="off", LISTEN_ADDR=f"127.0.0.1:{self.port}", WYOMING_ZEROCONF="false",
                    ADMIN_API_KEY=ADMIN_KEY, **dict(env))
        self.log_path = os.path.join(self.dir.name, "log.txt")
        self.log_file = open(self.log_path, "w")
        self.process = subprocess.Popen(command, cwd=self.dir.name, env=full, stdout=subprocess.DEVNULL,
                                        stderr=self.log_file)
        self.fds_peak = 0
        self.sampling = True
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        self.sampler = threading.Thread(target=self.sample, daemon=True)
        self.sampler.start()
        self.start_rss = self.status("VmRSS")

    def sample(self):
        while self.sampling:
            try:
                self.fds_peak = max(self.fds_peak, len(os.listdir(f"/proc/{self.process.pid}/fd")))
            except OSError:
                pass
            time.sleep(0.05)

    def status(self, field):
        """A /proc status field in MiB."""
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return 0

    def health(self, timeout=5):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/health", timeout=timeout) as r:
                return str(r.status)
        except Exception as err:  # noqa: BLE001 - what the attacker's neighbour sees is the result
            return f"no answer ({type(err).__name__})"

    def metric(self, series):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/metrics?format=prometheus",
                                         headers={"X-Admin-Key": ADMIN_KEY})
        try:
            with urllib.request.urlopen(request, timeout=5) as r:
                for line in r.read().decode().splitlines():
                    if line.startswith(series + " "):
                        return line.split()[1]
        except Exception:  # noqa: BLE001
            return "?"
        return "0"

    def log_lines(self):
        with open(self.log_path, errors="replace") as f:
            return sum(1 for _ in f)

    def stop(self):
        result = {"peak MiB": round(self.status("VmHWM")), "start MiB": round(self.start_rss),
                  "descriptors": self.fds_peak}
        self.sampling = False
        self.process.kill()
        self.process.wait()
        self.log_file.close()
        self.dir.cleanup()
        return result


def wyoming_frame(kind, data=None, payload=b""):
    header = {"type": kind, "version": "1.5.0"}
    body = b""
    if data is not None:
        body = json.dumps(data).encode()
        header["data_length"] = len(body)
    if payload:
        header["payload_length"] = len(payload)
    return json.dumps(header).encode() + b"\n" + body + payload


def decoder(binary):
    gw = Gateway(binary)
    with open(BOMB, "rb") as f:
        bomb = f.read()
    start = time.time()
    request = urllib.request.Request(f"http://127.0.0.1:{gw.port}/api/transcribe", data=bomb,
                                     headers={"content-type": "audio/flac"})
    try:
        with urllib.request.urlopen(request, timeout=120) as r:
            seen = str(r.status)
    except urllib.error.HTTPError as err:
        seen = f"{err.code} {json.loads(err.read())['error']['code']}"
    took = time.time() - start
    return gw, took, f"{len(bomb) // 1000} KB FLAC 384 kHz 7.1: {seen}"


def wyoming_deaf(binary, clients=20, seconds=20):
    port = free_port()
    gw = Gateway(binary, {"WYOMING_ADDR": f"127.0.0.1:{port}", "WRITE_TIMEOUT_SECONDS": "5"})
    frame = wyoming_frame("ping", {"text": "x"}, b"\0" * (4 * 1024 * 1024))
    dropped = []
    connect(port).close()

    def deaf():
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.connect(("127.0.0.1", port))
        s.settimeout(1)
        # Minutes of speech asked for and none of it read: the gateway's writes block.
        s.sendall(wyoming_frame("synthesize", {"text": "A sentence spoken again and again. " * 100}))
        end = time.time() + seconds
        while time.time() < end:
            try:
                s.sendall(frame)
            except socket.timeout:
                continue
            except OSError:
                dropped.append(1)
                return
        s.close()

    start = time.time()
    threads = [threading.Thread(target=deaf) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return gw, time.time() - start, f"{clients} clients asking for speech and sending 4 MiB pings, reading nothing: {len(dropped)} dropped"


def audiosocket_flood(binary, count=1100):
    port = free_port()
    gw = Gateway(binary, {"AUDIOSOCKET_ADDR": f"127.0.0.1:{port}"}, descriptors=1024)
    connect(port).close()
    held = []
    start = time.time()
    for n in range(count):
        s = socket.socket()
        s.bind((f"127.0.0.{2 + n % 50}", 0))
        s.settimeout(0.5)
        try:
            s.connect(("127.0.0.1", port))
            held.append(s)
        except OSError:
            s.close()
    # Asked at once: a connection that sends no call id is closed after 5 s.
    health = gw.health(timeout=3)
    took = time.time() - start
    refused = gw.metric('connections_refused_total{door="audiosocket"}')
    for s in held:
        s.close()
    return gw, took, f"{count} idle connections from 50 addresses at 1024 descriptors: /health {health}, refused {refused}"


def streamed_text(binary, chars=1_000_000, seconds=60):
    port = free_port()
    gw = Gateway(binary, {"WYOMING_ADDR": f"127.0.0.1:{port}"})
    s = connect(port)
    got = {"bytes": 0, "refused": False}

    def drain():
        tail = b""
        s.settimeout(seconds)
        while True:
            try:
                data = s.recv(1 << 16)
            except OSError:
                return
            if not data:
                return
            got["bytes"] += len(data)
            got["refused"] |= b"payload_too_large" in tail + data
            tail = data[-64:]

    reader = threading.Thread(target=drain)
    reader.start()
    start = time.time()
    chunk = "A sentence of fifty characters for the speaker. " * 20
    sent = 0
    try:
        s.sendall(wyoming_frame("synthesize-start", {}))
        while sent < chars:
            s.sendall(wyoming_frame("synthesize-chunk", {"text": chunk}))
            sent += len(chunk)
        s.sendall(wyoming_frame("synthesize-stop", {}))
    except OSError:
        pass
    reader.join(seconds)
    took = time.time() - start
    s.close()
    reader.join()
    answer = "error payload_too_large" if got["refused"] else "no refusal"
    return gw, took, (f"{chars // 1000} K characters streamed ({sent // 1000} K sent): {answer}, "
                      f"{got['bytes'] / 1e6:.1f} MB received")


def log_flood(binary, chunks=200_000):
    port = free_port()
    gw = Gateway(binary, {"WYOMING_ADDR": f"127.0.0.1:{port}", "MAX_UTTERANCE_SECONDS": "1"})
    s = connect(port)
    before = gw.log_lines()
    fmt = {"rate": 16000, "width": 2, "channels": 1}
    s.sendall(wyoming_frame("transcribe", {}) + wyoming_frame("audio-start", fmt))
    s.sendall(wyoming_frame("audio-chunk", fmt, b"\0" * 32000))
    tiny = wyoming_frame("audio-chunk", fmt, b"\0\0")
    start = time.time()
    batch = tiny * 1000
    for _ in range(chunks // 1000):
        s.sendall(batch)
    s.sendall(wyoming_frame("audio-stop", {}))
    s.settimeout(30)
    try:
        s.recv(65536)
    except OSError:
        pass
    took = time.time() - start
    time.sleep(0.5)
    lines = gw.log_lines() - before
    s.close()
    return gw, took, f"{chunks} chunks of 2 bytes past the utterance limit: {lines} log lines"


def https_refusal(binary):
    https = free_port()
    gw = Gateway(binary, {"TLS": "auto", "HTTPS_ADDR": f"127.0.0.1:{https}", "MAX_CONNECTIONS_PER_CLIENT": "1",
                          "HEADER_READ_TIMEOUT_SECONDS": "30"})
    time.sleep(1)
    held = []
    for _ in range(5):
        s = socket.socket()
        s.bind(("127.0.0.2", 0))
        s.connect(("127.0.0.1", https))
        held.append(s)
    time.sleep(0.3)
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    start = time.time()
    try:
        raw = socket.socket()
        raw.bind(("127.0.0.2", 0))
        raw.settimeout(5)
        raw.connect(("127.0.0.1", https))
        with context.wrap_socket(raw, server_hostname="localhost") as tls:
            tls.sendall(b"GET /api/config HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n")
            answer = tls.recv(4096).decode(errors="replace")
            status = answer.split("\r\n")[0]
            retry = "retry-after: 1" in answer.lower()
            seen = f"{status}{', Retry-After' if retry else ''}"
    except (OSError, ssl.SSLError) as err:
        seen = f"TLS error ({type(err).__name__}: {err})"[:90]
    took = time.time() - start
    for s in held:
        s.close()
    return gw, took, f"a sixth connection of a client allowed one: {seen}"


def idle_voice(binary, sessions=200):
    gw = Gateway(binary, {"MAX_CONNECTIONS_PER_CLIENT": "1000", "VOICE_CONNECTIONS_PER_USER": "1000",
                          "MAX_VOICE_CONNECTIONS": "1000"})
    time.sleep(1)
    before = gw.status("VmRSS")
    held, start = [], time.time()
    for n in range(sessions):
        s = socket.create_connection(("127.0.0.1", gw.port))
        s.sendall((f"GET /ws/voice HTTP/1.1\r\nhost: 127.0.0.1:{gw.port}\r\nupgrade: websocket\r\n"
                   "connection: upgrade\r\nsec-websocket-version: 13\r\n"
                   f"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\norigin: http://127.0.0.1:{gw.port}\r\n\r\n").encode())
        s.settimeout(5)
        if not s.recv(4096).startswith(b"HTTP/1.1 101"):
            s.close()
            break
        held.append(s)
    time.sleep(2)
    after = gw.status("VmRSS")
    took = time.time() - start
    for s in held:
        s.close()
    per = (after - before) * 1024 / max(len(held), 1)
    return gw, took, f"{len(held)} idle /ws/voice sessions: {per:.0f} KiB each"


ATTACKS = {
    "decoder": decoder,
    "wyoming-deaf": wyoming_deaf,
    "audiosocket-flood": audiosocket_flood,
    "streamed-text": streamed_text,
    "log-flood": log_flood,
    "https-refusal": https_refusal,
    "idle-voice": idle_voice,
}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary, names = sys.argv[1], sys.argv[2:] or list(ATTACKS)
    print("| attack | peak MiB (start) | descriptors | seconds | what was seen |")
    print("|---|---|---|---|---|")
    for name in names:
        gw, took, seen = ATTACKS[name](binary)
        health = gw.health()
        result = gw.stop()
        print(f"| {name} | {result['peak MiB']} ({result['start MiB']}) | {result['descriptors']} | {took:.1f} | "
              f"{seen}; /health after: {health} |", flush=True)


if __name__ == "__main__":
    main()
