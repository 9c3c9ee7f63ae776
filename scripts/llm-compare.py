"""Compares GGUF instruct models for the zero-setup start on a small German/English question set.

Usage: target/engines/venv/bin/python scripts/llm-compare.py MODEL.gguf [MODEL.gguf ...]
Starts each model with the engines' llama.cpp server (2 threads), asks every question with the gateway's kind
of system prompt (temperature 0, at most 60 tokens), and prints per model: answers right (the expected word
is in the answer), answers in the language asked (a simple stop-word check), the median time to the first
token and the generation speed.
"""

import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = os.path.join(HERE, "..", "engines", "engines.py")
QUESTIONS = [
    ("en", "What is the capital of France?", ["paris"]),
    ("en", "How many legs does a spider have?", ["eight", "8"]),
    ("en", "What colour is the sky on a clear day?", ["blue"]),
    ("en", "Which planet is closest to the sun?", ["mercury"]),
    ("de", "Was ist die Hauptstadt von Frankreich?", ["paris"]),
    ("de", "Wie viele Beine hat eine Spinne?", ["acht", "8"]),
    ("de", "Welche Farbe hat der Himmel an einem klaren Tag?", ["blau"]),
    ("de", "Welcher Planet ist der Sonne am nächsten?", ["merkur"]),
]
GERMAN = {"der", "die", "das", "ist", "und", "ein", "eine", "hat", "von", "sind", "nicht", "mit", "am", "den"}
ENGLISH = {"the", "is", "and", "a", "an", "has", "of", "are", "not", "with", "it", "to"}
SYSTEM = {
    "en": "You are a friendly voice assistant. Answer in English, in one or two short sentences.",
    "de": "Du bist ein freundlicher Sprachassistent. Antworte auf Deutsch, in ein oder zwei kurzen Sätzen.",
}


def language(text):
    words = {w.strip(".,!?;:").lower() for w in text.split()}
    de, en = len(words & GERMAN), len(words & ENGLISH)
    return "de" if de > en else "en" if en > de else "?"


def ask(port, lang, question):
    body = {"model": "m", "stream": True, "temperature": 0, "max_tokens": 60,
            "messages": [{"role": "system", "content": SYSTEM[lang]}, {"role": "user", "content": question}]}
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    started, first, pieces = time.time(), None, []
    with urllib.request.urlopen(request, timeout=120) as response:
        for line in response:
            line = line.decode().strip()
            if not line.startswith("data: ") or line == "data: [DONE]":
                continue
            delta = json.loads(line[6:])["choices"][0]["delta"].get("content") or ""
            if delta and first is None:
                first = time.time()
            pieces.append(delta)
    end = time.time()
    return "".join(pieces).strip(), (first or end) - started, len(pieces) / max(end - (first or end), 1e-3)


def main():
    for model in sys.argv[1:]:
        port = socket.socket()
        port.bind(("127.0.0.1", 0))
        port_number = port.getsockname()[1]
        port.close()
        server = subprocess.Popen([sys.executable, ENGINES, "llm", "--model", model, "--port", str(port_number),
                                   "--alias", "m"], stderr=subprocess.DEVNULL)
        try:
            for _ in range(240):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port_number}/v1/models", timeout=2)
                    break
                except OSError:
                    time.sleep(0.5)
            ask(port_number, "en", "Hello.")  # warm-up
            right = in_language = 0
            firsts, speeds = [], []
            for lang, question, keywords in QUESTIONS:
                answer, first, speed = ask(port_number, lang, question)
                ok = any(k in answer.lower() for k in keywords)
                same = language(answer) == lang
                right += ok
                in_language += same
                firsts.append(first)
                speeds.append(speed)
                print(f"  {'✓' if ok else '✗'}{'✓' if same else '✗'} {question} -> {answer[:90]!r}")
            print(f"{os.path.basename(model)}: right {right}/{len(QUESTIONS)}, in the language asked "
                  f"{in_language}/{len(QUESTIONS)}, first token {statistics.median(firsts) * 1000:.0f} ms, "
                  f"{statistics.median(speeds):.0f} tokens/s\n", flush=True)
        finally:
            server.terminate()
            server.wait()


main()
