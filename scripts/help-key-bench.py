"""The help key on the telephone lines, measured: from the key (Asterisk's AudioSocket DTMF, Twilio's `dtmf`
message) to the first audio of the help question reaching the line, with the real espeak-ng voice, on a release
build of this checkout, all on 127.0.0.1. A report, not a test; the house line's keys (RFC 4733 and SIP INFO)
are tested with SIPp in tests/api/sipp.rs.

Run from the repository with a Python that has `websockets` (scripts/test.sh installs it in the openai venv):
  cargo build --release && target/openai-venv/bin/python scripts/help-key-bench.py [BINARY] [--calls N]

Each call: the greeting starts, 0.6 s later the key is pressed; the time until the question's first audio is
taken at the question's first audible sample (AudioSocket: the first loud frame after the greeting stopped,
as Asterisk plays it; Twilio: the first loud sample of the media after the `clear`, from its arrival on).
"""

import argparse
import asyncio
import audioop  # deprecated from 3.11, still there in 3.12
import base64
import hashlib
import hmac
import json
import os
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
import uuid

import websockets

KEY = "bench-admin-key-0123456789"
TOKEN = "bench-twilio-token"
PUBLIC = "https://voice.example.org"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def admin(base, method, path, body=None):
    request = urllib.request.Request(base + path, method=method, headers={"X-Admin-Key": KEY,
                                                                         "Content-Type": "application/json"},
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.loads(r.read() or b"null")


def start(binary, work):
    http, audiosocket = free_port(), free_port()
    env = dict(os.environ, LISTEN_ADDR=f"127.0.0.1:{http}", DB_PATH=f"{work}/gateway.db", ADMIN_API_KEY=KEY,
               AUTH_ENABLED="true", AUDIOSOCKET_ADDR=f"127.0.0.1:{audiosocket}", AUDIOSOCKET_USER="anna",
               TWILIO_AUTH_TOKEN=TOKEN, PUBLIC_URL=PUBLIC, DEFAULT_TTS_PROVIDER="espeak",
               EMERGENCY_CONTACT_EMAIL="tochter@family.example", SMTP_HOST="127.0.0.1", SMTP_PORT="9",
               SMTP_SECURITY="none", ENGINES="off", RUST_LOG="warn", TLS="off")
    proc = subprocess.Popen([binary], env=env, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{http}"
    for _ in range(200):
        try:
            urllib.request.urlopen(base + "/health", timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    user = admin(base, "POST", "/api/admin/users", {"name": "anna"})
    admin(base, "PUT", f"/api/admin/users/{user['id']}/prefs",
          {"full_name": "Anna Muster", "language": "de", "caller_numbers": ["+491701234567"]})
    return proc, base, audiosocket


async def audiosocket_call(port):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(bytes([0x01, 0x00, 0x10]) + uuid.uuid4().bytes)
    silence = bytes([0x10, 0x01, 0x40]) + bytes(320)

    async def speak():
        # Asterisk sends the caller's audio in real time, silence here.
        while True:
            writer.write(silence)
            await asyncio.sleep(0.02)

    speaking = asyncio.create_task(speak())
    greeting_at, pressed, last, question, took = None, None, None, False, None
    try:
        while took is None:
            kind, length = struct.unpack(">BH", await reader.readexactly(3))
            payload = await reader.readexactly(length)
            now = time.perf_counter()
            if kind != 0x10:
                continue
            loud = max(abs(v) for v in struct.unpack(f"<{length // 2}h", payload)) > 1000
            greeting_at = greeting_at or (now if loud else None)
            if pressed is None and greeting_at and now - greeting_at > 0.6:
                writer.write(bytes([0x03, 0x00, 0x01]) + b"0")
                pressed = now
            elif pressed is not None:
                # The gateway writes a frame every 20 ms while it speaks: the greeting stops at the key, and the
                # question's frames begin after a pause; it is heard at its first loud frame.
                question = question or now - last > 0.035
                if question and loud:
                    took = now - pressed
            last = now
    finally:
        speaking.cancel()
        writer.write(bytes([0x00, 0x00, 0x00]))
        writer.close()
    return took


def twilio_signature(url, params):
    data = url + "".join(k + v for k, v in sorted(params.items()))
    return base64.b64encode(hmac.new(TOKEN.encode(), data.encode(), hashlib.sha1).digest()).decode()


async def twilio_call(base, n):
    sid = f"CA{n:032d}"
    fields = {"AccountSid": "AC123", "CallSid": sid, "From": "+491701234567", "To": "+4930000000",
              "Direction": "inbound", "CallStatus": "ringing"}
    request = urllib.request.Request(base + "/api/phone/twilio", data=urllib.parse.urlencode(fields).encode(),
                                     headers={"X-Twilio-Signature": twilio_signature(PUBLIC + "/api/phone/twilio",
                                                                                     fields)})
    twiml = urllib.request.urlopen(request, timeout=10).read().decode()
    params = dict((p.split('name="')[1].split('"')[0], p.split('value="')[1].split('"')[0])
                  for p in twiml.split("<Parameter ")[1:])
    stream = "MZ" + sid[2:]
    async with websockets.connect(base.replace("http", "ws") + "/api/phone/twilio/stream") as ws:
        await ws.send(json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"}))
        await ws.send(json.dumps({"event": "start", "sequenceNumber": "1", "streamSid": stream, "start": {
            "accountSid": "AC123", "streamSid": stream, "callSid": sid, "tracks": ["inbound"],
            "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1},
            "customParameters": params}}))
        pressed, cleared, first, samples = None, False, None, 0
        while True:
            message = json.loads(await ws.recv())
            now = time.perf_counter()
            if pressed is None and message["event"] == "media":
                await ws.send(json.dumps({"event": "dtmf", "streamSid": stream, "sequenceNumber": "2",
                                          "dtmf": {"track": "inbound_track", "digit": "0"}}))
                pressed = now
            elif message["event"] == "clear":
                cleared = True
            elif cleared and message["event"] == "media":
                # Twilio plays what it is sent from its arrival on: the question is heard at its first loud
                # sample, as on AudioSocket.
                first = first or now
                pcm = audioop.ulaw2lin(base64.b64decode(message["media"]["payload"]), 2)
                values = struct.unpack(f"<{len(pcm) // 2}h", pcm)
                loud = next((i for i, v in enumerate(values) if abs(v) > 1000), None)
                if loud is not None:
                    await ws.send(json.dumps({"event": "stop", "streamSid": stream, "sequenceNumber": "3"}))
                    return first + (samples + loud) / 8000 - pressed
                samples += len(values)


def report(name, times):
    times = sorted(t * 1000 for t in times)
    print(f"| {name} | {len(times)} | {statistics.median(times):.0f} | {times[int(len(times) * 0.9) - 1]:.0f} "
          f"| {times[-1]:.0f} |")


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default="target/release/voice-gateway")
    parser.add_argument("--calls", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        proc, base, port = start(os.path.abspath(args.binary), work)
        try:
            audiosocket = [await audiosocket_call(port) for _ in range(args.calls)]
            twilio = [await twilio_call(base, n) for n in range(args.calls)]
        finally:
            proc.terminate()
            proc.wait()
    print("| line | calls | key → question audible, median ms | p90 ms | max ms |")
    print("|---|---|---|---|---|")
    report("AudioSocket (DTMF message)", audiosocket)
    report("Twilio media stream (dtmf)", twilio)


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
