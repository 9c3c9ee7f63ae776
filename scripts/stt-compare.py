"""Word error rate and latency of the ways the local Whisper can transcribe a question (issue 30).

Run from the repository with the engines' Python (the end-to-end test's engines folder):
  target/engines/venv/bin/python scripts/stt-compare.py [--model target/engines/models/whisper-base]

Every question of examples/questions.tsv is spoken by espeak-ng or Piper (its own silence trimmed) and
transcribed:
  whole-15    the whole clip in a 15 s window (WHISPER_WINDOW_SECONDS=15, the gateway before issue 30)
  whole-fit   the whole clip in a window just long enough (clip + 2 s)
  pieces-15   cut at its pauses (200 ms of silence, as STT_EARLY_MS), each piece in a 15 s window with the
              text before it as the prompt; only the last piece is transcribed after the question ends
  pieces-fit  the same, each piece in a window just long enough
  whole-30    Whisper's own 30 s window (faster-whisper's transcribe), for reference
For each: the word error rate per language, the time the last call takes (what the person waits for) and
the CPU time of all calls per second of speech.
"""

import argparse
import io
import os
import re
import subprocess
import sys
import tempfile
import time
import wave

import numpy as np
from faster_whisper.audio import decode_audio

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "engines"))
import engines  # noqa: E402

RATE = 16000
VOICES = os.environ.get("VOICES", "target/engines/voices")


def synthesize(voice, wpm, text, path):
    """espeak-ng's voice, or `piper:NAME` of the engines' Piper voices (this Python has Piper)."""
    if voice.startswith("piper:"):
        from piper import PiperVoice, SynthesisConfig

        model = os.path.join(VOICES, voice[len("piper:"):] + ".onnx")
        with wave.open(path, "wb") as w:
            PiperVoice.load(model).synthesize_wav(text, w, syn_config=SynthesisConfig(length_scale=170 / wpm))
    else:
        subprocess.run(["espeak-ng", "-v", voice, "-s", str(wpm), "-w", path, text], check=True)


def speak(voice, wpm, text, pause_ms):
    """The voice at 16 kHz, each part's silence trimmed, `pause_ms` between parts."""
    out = []
    for i, part in enumerate(text.split("|")):
        if i:
            out.append(np.zeros(RATE * pause_ms // 1000, np.int16))
        with tempfile.NamedTemporaryFile(suffix=".wav") as f:
            synthesize(voice, wpm, part.strip(), f.name)
            pcm = (decode_audio(f.name, sampling_rate=RATE) * 32767).astype(np.int16)
        loud = np.nonzero(np.abs(pcm.astype(np.int32)) > 328)[0]
        out.append(pcm[loud[0]:loud[-1] + 1] if len(loud) else pcm)
    return np.concatenate(out)


def wav(pcm):
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def pauses(pcm, silence_ms=200):
    """Where the clip can be cut: the end of each silence of `silence_ms` inside the speech (10 ms frames)."""
    frames = len(pcm) // 160
    loud = [np.sqrt(np.mean(pcm[i * 160:(i + 1) * 160].astype(np.float64) ** 2)) > 300 for i in range(frames)]
    cuts, quiet = [], 0
    for i, voiced in enumerate(loud):
        quiet = 0 if voiced else quiet + 1
        if quiet == silence_ms // 10 and i + 1 < frames:
            cuts.append((i + 1) * 160)
    return cuts


def words(text):
    return re.sub(r"[^\w\s']", " ", text.lower()).split()


def errors(ref, hyp):
    """Word-level edit distance."""
    d = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        prev, d[0] = d[0], i
        for j, h in enumerate(hyp, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (r != h))
    return d[len(hyp)]


def transcribe(model, pcm, lang, window, prompt=None):
    started, cpu = time.perf_counter(), time.process_time()
    if window >= 30:
        segments, _ = model.transcribe(io.BytesIO(wav(pcm)), language=lang, beam_size=1, initial_prompt=prompt)
        text = "".join(s.text for s in segments).strip()
    else:
        text = engines.transcribe_short(model, wav(pcm), lang, window, prompt)[0]
    return text, time.perf_counter() - started, time.process_time() - cpu


def run(model, pcm, lang, method):
    """The text, the last call's time and the CPU time of all calls."""
    window = {"15": 15, "fit": 1, "30": 30}[method.split("-")[1]]
    if method.startswith("whole"):
        return transcribe(model, pcm, lang, window)
    text, cpu, start = "", 0.0, 0
    for end in pauses(pcm) + [len(pcm)]:
        piece, last, used = transcribe(model, pcm[start:end], lang, window, text or None)
        text, cpu, start = (text + " " + piece).strip(), cpu + used, end
    return text, last, cpu


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="target/engines/models/whisper-base")
    parser.add_argument("--questions", default="examples/questions.tsv")
    parser.add_argument("--methods", default="whole-15,whole-fit,pieces-15,pieces-fit,whole-30")
    args = parser.parse_args()
    from faster_whisper import WhisperModel

    model = WhisperModel(args.model, device="cpu", compute_type="int8", cpu_threads=2)
    methods = args.methods.split(",")
    rows = [line.rstrip("\n").split("\t") for line in open(args.questions) if line.strip() and line[0] != "#"]
    clips = [(lang, text.replace("|", ""), speak(voice, int(wpm), text, int(pause))) for lang, voice, wpm, pause, text in rows]
    transcribe(model, clips[0][2], clips[0][0], 15)  # warm-up
    stats = {(m, l): [0, 0, [], 0.0, 0.0] for m in methods for l in ("de", "en")}
    for lang, ref, pcm in clips:
        seconds = len(pcm) / RATE
        line = [f"{ref[:40]:40} {seconds:4.1f}s"]
        for m in methods:
            text, last, cpu = run(model, pcm, lang, m)
            e = errors(words(ref), words(text))
            s = stats[(m, lang)]
            s[0] += e
            s[1] += len(words(ref))
            s[2].append(last)
            s[3] += cpu
            s[4] += seconds
            line.append(f"{m}: {last * 1000:4.0f} ms {e} err")
            if e:
                print(f"    {m} heard: {text}", file=sys.stderr)
        print(" | ".join(line), flush=True)
    print("\n| method | language | WER | last call median / max ms | CPU s per s of speech |\n|---|---|---|---|---|")
    for m in methods:
        for l in ("de", "en"):
            errs, n, last, cpu, secs = stats[(m, l)]
            print(f"| {m} | {l} | {100 * errs / max(n, 1):.1f} % | {np.median(last) * 1000:.0f} / "
                  f"{max(last) * 1000:.0f} | {cpu / secs:.3f} |")


if __name__ == "__main__":
    main()
