"""Smart Turn on a shorter window (issue 66): would a shorter input cut its cost and keep its verdicts?

Smart Turn v3.2 (Whisper tiny's encoder, int8) hears the last 8 s: 800 log-mel frames, 400 positions after its
convolutions. Edited to hear the last N frames (its positional table cut to its last N/2 rows, so that the
speech keeps the positions it had; its shapes set to N/2), a run costs less. Its verdicts are compared with the
8 s model's on the paused questions of examples/paused_questions.tsv: each first half (unfinished) and each
whole question, spoken as scripts/paused-stt.py speaks them, with `--silence` seconds after, the features those
of the 8 s window (so that the waveform's normalisation is the same) cut to the last N frames.

Two steps, since the edit needs the onnx package, which the engines' Python has not:
  python3 -m venv /tmp/ox && /tmp/ox/bin/pip install onnx numpy
  /tmp/ox/bin/python scripts/smart-turn-window.py edit /tmp/windows [--frames 600,500,400,300]
  target/engines/venv/bin/python scripts/smart-turn-window.py judge /tmp/windows [--silence 0.3]
"""

import argparse
import glob
import importlib.util
import os
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODEL = os.path.join(HERE, "..", "target", "engines", "models", "smart-turn-v3.2-cpu.onnx")
FRAMES, POSITIONS, SAMPLES = 800, 400, 128_000


def edit(folder, frames):
    """The model cut to the last `frames` frames, as folder/frames.onnx."""
    import onnx
    from onnx import numpy_helper

    os.makedirs(folder, exist_ok=True)
    for n in frames:
        model = onnx.load(MODEL)
        for tensor in model.graph.initializer:
            values = numpy_helper.to_array(tensor)
            if tensor.name == "inner.encoder.embed_positions.weight":
                values = np.ascontiguousarray(values[POSITIONS - n // 2:])
            elif tensor.data_type == onnx.TensorProto.INT64 and POSITIONS in values:
                values = np.where(values == POSITIONS, n // 2, values)  # the reshapes' sequence length
            else:
                continue
            tensor.CopyFrom(numpy_helper.from_array(values, tensor.name))
        model.graph.input[0].type.tensor_type.shape.dim[2].dim_value = n
        del model.graph.value_info[:]
        onnx.save(model, os.path.join(folder, f"{n}.onnx"))


def clips():
    """(name, unfinished, pcm at 16 kHz) of every paused question's first half and whole."""
    spec = importlib.util.spec_from_file_location("compare", os.path.join(HERE, "stt-compare.py"))
    compare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compare)
    path = os.path.join(HERE, "..", "examples", "paused_questions.tsv")
    for line in open(path):
        if not line.strip() or line[0] == "#":
            continue
        kind, _, lang, voice, wpm, _, text = line.rstrip("\n").split("\t")
        if kind == "interrupt":
            continue
        half, whole = text.split("|")[0].strip(), text.replace("|", " ")
        yield f"{lang} {half} …", True, compare.speak(voice, int(wpm), half, 0)
        yield f"{lang} {whole}", False, compare.speak(voice, int(wpm), whole, 0)


def features(extract, pcm, silence):
    """The 8 s window's log-mel features (80 × 800), as the gateway computes them, by `extract` (faster-whisper's
    FeatureExtractor for 8 s)."""
    audio = np.concatenate([pcm, np.zeros(int(16_000 * silence), np.int16)]).astype(np.float32) / 32_768
    audio = np.pad(audio[-SAMPLES:], (max(0, SAMPLES - len(audio)), 0))
    audio = (audio - audio.mean()) / np.sqrt(audio.var() + 1e-7)
    return extract(audio, padding=0).astype(np.float32)


def judge(folder, silence):
    import onnxruntime as ort
    from faster_whisper.feature_extractor import FeatureExtractor

    options = ort.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    models = {FRAMES: MODEL} | {int(os.path.basename(p)[:-5]): p for p in glob.glob(f"{folder}/*.onnx")}
    extract = FeatureExtractor(chunk_length=8)
    heard = [(name, unfinished, features(extract, pcm, silence)) for name, unfinished, pcm in clips()]
    verdicts = {}
    print("| frames (seconds) | ms per run | verdicts as the 8 s model's | unfinished heard as unfinished, finished as finished |")
    print("|---|---|---|---|")
    for n in sorted(models, reverse=True):
        session = ort.InferenceSession(models[n], options)
        start, verdicts[n] = time.perf_counter(), []
        for _, _, mel in heard:
            p = session.run(None, {"input_features": np.ascontiguousarray(mel[None, :, -n:])})[0][0].item()
            verdicts[n].append(p)
        ms = 1000 * (time.perf_counter() - start) / len(heard)
        same = sum((p > 0.5) == (q > 0.5) for p, q in zip(verdicts[n], verdicts[FRAMES]))
        right = sum((p > 0.5) != unfinished for p, (_, unfinished, _) in zip(verdicts[n], heard))
        print(f"| {n} ({n / 100:g} s) | {ms:.0f} | {same} of {len(heard)} | {right} of {len(heard)} |")
    for i, (name, _, _) in enumerate(heard):
        if len({verdicts[n][i] > 0.5 for n in verdicts}) > 1:
            print(f"  changed: {name!r}: " + ", ".join(f"{n}: {verdicts[n][i]:.2f}" for n in sorted(verdicts, reverse=True)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("step", choices=["edit", "judge"])
    parser.add_argument("folder")
    parser.add_argument("--frames", default="600,500,400,300")
    parser.add_argument("--silence", type=float, default=0.3)
    args = parser.parse_args()
    if args.step == "edit":
        edit(args.folder, [int(n) for n in args.frames.split(",")])
    else:
        judge(args.folder, args.silence)


if __name__ == "__main__":
    main()
