"""Times POST /api/chat (the answer's text and its whole audio) on a running gateway, five English and five
German questions, and prints each with the voice that spoke it and the medians.

Usage: python3 scripts/chat-time.py [http://127.0.0.1:8080]   (local-dev, no token needed)
"""

import json
import statistics
import sys
import time
import urllib.request

BASE = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
QUESTIONS = {
    "en": ["What is the capital of France?", "How far away is the moon?", "Name a large animal.",
           "What colour is the sky?", "Tell me something about dogs."],
    "de": ["Was ist die Hauptstadt von Frankreich?", "Wie spät ist es?", "Nenne eine Farbe.",
           "Welche Farbe hat der Himmel?", "Erzähl mir etwas über Hunde."],
}


def chat(text, lang):
    body = json.dumps({"text": text, "language": lang}).encode()
    request = urllib.request.Request(f"{BASE}/api/chat", body, {"Content-Type": "application/json"})
    started = time.time()
    with urllib.request.urlopen(request, timeout=120) as response:
        answer = json.load(response)
    return time.time() - started, answer


chat("Hello.", "en")  # warm-up
for lang, questions in QUESTIONS.items():
    times = []
    for question in questions:
        seconds, answer = chat(question, lang)
        times.append(seconds)
        tts = answer["semantic"]["tts"]["provider"]
        print(f"{lang} {seconds * 1000:5.0f} ms {tts:6} {answer['text'][:70]!r}")
    print(f"{lang}: median {statistics.median(times) * 1000:.0f} ms\n")
