"""Words lost before a pause (issue 66): the paused questions of examples/paused_questions.tsv (English and German,
pauses of 0.5 to 2 s, and each again with a 3 s pause), at 16 kHz and through a telephone's 8 kHz, transcribed by
the zero-setup Whisper the ways the engine can:
  own         faster-whisper's own transcribe (30 s window, timestamps), the reference the issue names
  engine      the engine's transcription (`engines.transcribe` of engines/engines.py, or of --engines FILE:
              `git show REV:engines/engines.py > /tmp/e.py` measures REV's)
For each: the word error rate, the words of the reference lost (deletions), and the time per utterance.

Run with the engines' Python:
  target/engines/venv/bin/python scripts/paused-stt.py [--methods own,engine] [--rates 16000,8000]
      [--engines FILE] [--max-wer 40 --max-lost 5]
With --max-wer / --max-lost (per cent of the reference's words) it exits 1 when `engine` does worse: the test
(tests/api/e2e.rs).
"""

import argparse
import importlib.util
import io
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compare = load("stt_compare", os.path.join(HERE, "stt-compare.py"))
engines = None
RATE = compare.RATE


def corpus(path, rates):
    """(language, pause, rate, reference, pcm at 16 kHz): each question with its own pause and with 3 s, at 16 and
    8 kHz (down to 8 kHz and back, as a telephone line hears it)."""
    rows = [line.rstrip("\n").split("\t") for line in open(path) if line.strip() and line[0] != "#"]
    for kind, _, lang, voice, wpm, pause, text in rows:
        if kind == "interrupt":
            continue
        for ms in sorted({int(pause), 3000}):
            pcm = compare.speak(voice, int(wpm), text, ms)
            for rate in rates:
                yield lang, ms, rate, text.replace("|", " "), pcm if rate == RATE else telephone(pcm)


def telephone(pcm):
    """Down to 8 kHz and back: what a telephone line leaves of the voice."""
    import av

    def resample(samples, src, dst):
        out = []
        frame = av.AudioFrame.from_ndarray(samples[None], format="s16", layout="mono")
        frame.sample_rate = src
        r = av.AudioResampler(format="s16", layout="mono", rate=dst)
        for f in list(r.resample(frame)) + list(r.resample(None)):
            out.append(f.to_ndarray()[0])
        return np.concatenate(out)

    return resample(resample(pcm, RATE, 8000), 8000, RATE)


def transcribe(model, method, pcm, lang):
    audio = compare.wav(pcm)
    if method == "own":
        segments, _ = model.transcribe(io.BytesIO(audio), language=lang, beam_size=1, word_timestamps=True)
        return "".join(s.text for s in segments).strip()
    if not hasattr(engines, "transcribe"):  # an engines.py from before 2026-11-29: its short window, else own
        short = engines.transcribe_short(model, audio, lang, 15)
        return short[0] if short else transcribe(model, "own", pcm, lang)
    return engines.transcribe(model, audio, lang, 15)[0]


def deletions(ref, hyp):
    """Words of `ref` missing from `hyp` in the edit-distance alignment."""
    rows = [[(j, 0) for j in range(len(hyp) + 1)]]
    for i, r in enumerate(ref, 1):
        row = [(i, i)]
        for j, h in enumerate(hyp, 1):
            sub, up, left = rows[i - 1][j - 1], rows[i - 1][j], row[j - 1]
            row.append(min((sub[0] + (r != h), sub[1]), (up[0] + 1, up[1] + 1), (left[0] + 1, left[1])))
        rows.append(row)
    return rows[-1][-1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="target/engines/models/whisper-base")
    parser.add_argument("--questions", default=os.path.join(HERE, "..", "examples", "paused_questions.tsv"))
    parser.add_argument("--methods", default="own,engine")
    parser.add_argument("--rates", default="16000,8000")
    parser.add_argument("--engines", default=os.path.join(HERE, "..", "engines", "engines.py"))
    parser.add_argument("--max-wer", type=float)
    parser.add_argument("--max-lost", type=float)
    args = parser.parse_args()
    from faster_whisper import WhisperModel

    global engines
    engines = load("engines", args.engines)

    model = WhisperModel(args.model, device="cpu", compute_type="int8", cpu_threads=2)
    methods = args.methods.split(",")
    clips = list(corpus(args.questions, [int(r) for r in args.rates.split(",")]))
    transcribe(model, methods[0], clips[0][4], clips[0][0])  # warm-up
    stats = {}
    for lang, pause, rate, ref, pcm in clips:
        for m in methods:
            started = time.perf_counter()
            text = transcribe(model, m, pcm, lang)
            took = time.perf_counter() - started
            ref_words, hyp = compare.words(ref), compare.words(text)
            err, (edits, lost) = compare.errors(ref_words, hyp), deletions(ref_words, hyp)
            for key in ((m, lang, rate), (m, "all", 0)):
                s = stats.setdefault(key, [0, 0, 0, []])
                s[0], s[1], s[2] = s[0] + err, s[1] + lost, s[2] + len(ref_words)
                s[3].append(took)
            if lost:
                print(f"{m:7} {lang} {pause:4} ms {rate // 1000} kHz lost {lost}: {text!r} ({ref})", file=sys.stderr)
    print("\n| method | language | rate | WER | words lost | time per utterance median / max ms |\n|---|---|---|---|---|---|")
    for (m, lang, rate), (err, lost, n, took) in sorted(stats.items()):
        print(f"| {m} | {lang} | {rate // 1000 or 'all'} kHz | {100 * err / n:.1f} % | {lost} ({100 * lost / n:.1f} %) | "
              f"{np.median(took) * 1000:.0f} / {max(took) * 1000:.0f} |")
    err, lost, n, _ = stats.get(("engine", "all", 0), (0, 0, 1, []))
    if args.max_wer is not None and 100 * err / n > args.max_wer or args.max_lost is not None and 100 * lost / n > args.max_lost:
        print(f"engine: WER {100 * err / n:.1f} %, lost {100 * lost / n:.1f} %: over the thresholds", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
