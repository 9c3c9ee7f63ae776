#!/usr/bin/env python3
"""How long the answers of a running gateway run, as a person hears them: asks a few questions through
POST /api/chat (spoken answers, as the page asks for them) and prints, per question, the seconds of audio, the
words, whether the gateway cut the answer, the notice, and the time the turn took.

  scripts/answer-length.py [BASE] [TOKEN] [ROUNDS]
                          BASE defaults to http://127.0.0.1:8080, TOKEN to none (or ""), ROUNDS to 1: each
                          question is asked ROUNDS times (a model samples), and the median and longest shown

Standard library only. Used for issue 41's before/after (docs/decisions.md): the offline model's answer to
the README's German example.
"""

import base64
import json
import statistics
import struct
import sys
import time
import urllib.request

QUESTIONS = [
    ("de", "Wie wird das Wetter morgen?"),
    ("de", "Erzähl mir etwas über Hamburg."),
    ("en", "Tell me everything about the history of Rome."),
    ("en", "How are you today?"),
]
CLOSINGS = ("I'll stop here.", "Ich höre hier auf.")


def wav_seconds(data):
    """Seconds of a WAV file: the data chunk's bytes over the byte rate of its fmt chunk."""
    at, rate, size = 12, None, 0
    while at + 8 <= len(data):
        kind, length = data[at:at + 4], struct.unpack("<I", data[at + 4:at + 8])[0]
        if kind == b"fmt ":
            rate = struct.unpack("<I", data[at + 16:at + 20])[0]
        if kind == b"data":
            size = min(length, len(data) - at - 8)
        at += 8 + length + (length & 1)
    return size / rate if rate else 0.0


def ask(base, token, language, text):
    body = json.dumps({"text": text, "language": language}).encode()
    request = urllib.request.Request(f"{base}/api/chat", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.load(response)
    took = time.monotonic() - started
    audio = base64.b64decode(answer["audio"]) if answer.get("audio") else b""
    return answer, wav_seconds(audio), took


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    token = (sys.argv[2] if len(sys.argv) > 2 else "") or None
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    print("| question | audio s (median / longest) | words (median / most) | cut | notice | turn s (median) |")
    print("|---|---|---|---|---|---|")
    for language, text in QUESTIONS:
        seconds, words, took, cut, notices = [], [], [], 0, set()
        for _ in range(rounds):
            answer, heard, spent = ask(base, token, language, text)
            seconds.append(heard)
            words.append(len(answer["text"].split()))
            took.append(spent)
            cut += any(c in answer["text"] for c in CLOSINGS)
            notices.add((answer["semantic"].get("notice") or "")[:50])
        notice = " / ".join(sorted(n for n in notices if n)) or "none"
        print(f"| {text} | {statistics.median(seconds):.1f} / {max(seconds):.1f} | {statistics.median(words):.0f} / "
              f"{max(words)} | {cut} of {rounds} | {notice} | {statistics.median(took):.1f} |", flush=True)


if __name__ == "__main__":
    main()
