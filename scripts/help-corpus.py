"""Spoken calls for help and harmless sentences, as the gateway's offline recogniser hears them.

Run from the repository with the engines' Python (the folder `engines.py prepare --dir target/engines` fills):
  target/engines/venv/bin/python scripts/help-corpus.py make     # synthesize, transcribe, write the fixture
  target/engines/venv/bin/python scripts/help-corpus.py before   # the current matcher on the fixture

`make` speaks every sentence below (German and English; `call` = a call for help that must reach the help
dialogue, `harmless` = a sentence that must not) with the voices the engines have for its language: espeak-ng
(`apt-get install espeak-ng`; four voices at a normal speed for calls, and two of them also slow and fast with
a raised pitch, as a frightened person speaks; two voices for harmless sentences) and each Piper voice of
target/engines/voices whose name starts with the language (en_US-joe-medium, ...). The WAVs are made with the
gateway's resampler (a port of src/providers/resample.rs) and only the voice's own silence is trimmed (300 ms
of silence each side). Each clip goes over two lines:
  browser    16 kHz 16-bit PCM as it is
  telephone  down to 8 kHz, G.711 µ-law encoded and decoded, back up to 16 kHz (what a phone line gives the
             gateway)
and is transcribed by `engines.transcribe_short(model, wav, language, 15)` with the language fixed, exactly
as the gateway's local Whisper (base, int8, greedy, 15 s window) does, then once more with the help prompt
(PROMPTS), as the gateway's second hearing of an utterance the recogniser was unsure of does. It writes
tests/fixtures/help_corpus.json (one entry a line: kind, language, said, voice, line, heard, words with their
probability, again and again_words from the second hearing); the WAVs stay out of git, under target/help-corpus/ (--keep-wavs).

`before` reads the fixture and prints, per language and line, the calls the gateway's matcher misses and the
harmless sentences it takes for calls, using a Python port of `is_call_for_help` (src/emergency/spoken.rs).
"""

import argparse
import audioop  # deprecated from 3.11, still there in 3.12; the engines' venv is 3.11
import datetime
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import wave

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "engines"))
import engines  # noqa: E402

RATE = 16000
FIXTURE = "tests/fixtures/help_corpus.json"

# The words the gateway's second hearing gives the recogniser as the text said before the clip (`prompt` of
# `help_prompt` in src/emergency/spoken.rs; the corpus test checks they are the same).
PROMPTS = {
    "de": "Hilfe! Ich bin gestürzt und komme nicht mehr hoch. Ruf den Notarzt, einen Krankenwagen! "
          "Ich habe Schmerzen in der Brust, ich bekomme keine Luft.",
    "en": "Help! I have fallen and I can't get up. Call an ambulance! I have chest pain, I can't breathe.",
}

# ---------------------------------------------------------------------------------------------------------------
# The sentences. A call is what a frightened older person says when something has happened; a harmless sentence
# uses the same words in a harmless sense, or is an ordinary question. Nothing here that a careful carer would
# count as a call for help is harmless.

SENTENCES = {
    "de": {
        "call": [
            # calls for help
            "Hilfe!",
            "Hilfe, Hilfe!",
            "Hilfe, bitte!",
            "Ich brauche Hilfe!",
            "Bitte helfen Sie mir!",
            "Hilf mir doch!",
            "Hilf mir, bitte!",
            "Oh Gott, hilf mir!",
            "Hilfe, kann mir jemand helfen?",
            "Schnell, hol Hilfe!",
            # falls
            "Ich bin gestürzt.",
            "Hilfe, ich bin gestürzt!",
            "Ich bin hingefallen und komme nicht mehr hoch.",
            "Ich bin hingefallen und komme nicht hoch.",
            "Ich komme nicht mehr hoch.",
            "Ich kann nicht aufstehen.",
            "Hilfe, ich kann nicht mehr aufstehen!",
            "Ich liege auf dem Boden.",
            "Ich bin gefallen und kann nicht mehr aufstehen.",
            "Ich bin im Bad ausgerutscht.",
            "Ich bin die Treppe runtergefallen.",
            "Ich habe mir das Bein gebrochen.",
            # pain, heart, breathing
            "Ich habe starke Schmerzen in der Brust.",
            "Mein Herz tut so weh.",
            "Ich glaube, ich habe einen Herzinfarkt.",
            "Ich kriege keine Luft.",
            "Ich bekomme keine Luft mehr.",
            "Mir ist so schwindelig, ich falle gleich um.",
            "Ich kann meinen Arm nicht mehr bewegen.",
            "Oh Gott, ich blute so.",
            # emergency services
            "Ruf den Notarzt!",
            "Ich brauche einen Notarzt.",
            "Ruf einen Krankenwagen!",
            "Bitte einen Krankenwagen!",
            "Ruf die 112!",
            "Notfall!",
            "Das ist ein Notfall.",
            "Es brennt, ruf die Feuerwehr!",
            # someone else
            "Mein Mann ist umgefallen.",
            "Meine Frau ist zusammengebrochen und antwortet nicht.",
        ],
        "harmless": [
            "Kannst du mir beim Rezept helfen?",
            "Kannst du mir helfen, das Radio lauter zu stellen?",
            "Der Film heißt Hilfe.",
            "Ich brauche Hilfe bei der Steuererklärung.",
            "Hilf mir bitte, einen Brief zu schreiben.",
            "Danke für deine Hilfe.",
            "Das war sehr hilfreich.",
            "Ich helfe meiner Tochter morgen beim Umzug.",
            "Mein Nachbar hilft mir beim Einkaufen.",
            "Der Film hat mir gut gefallen.",
            "Der Schnee ist gestern gefallen.",
            "Die Aktie ist stark gefallen.",
            "Die Temperatur ist in der Nacht stark gefallen.",
            "Die Luft ist heute frisch.",
            "Ich habe heute keine Lust auf Fernsehen.",
            "Wie hoch ist die Zugspitze?",
            "Ich komme morgen nicht.",
            "Ich bin heute früh aufgestanden.",
            "Wer hat den Notruf erfunden?",
            "Im Fernsehen läuft heute eine Serie über Notärzte.",
            "Mein Bruder hatte vor Jahren einen Herzinfarkt, heute geht es ihm wieder gut.",
            "Erinnere mich morgen an meinen Arzttermin.",
            "Wie spät ist es?",
            "Wie wird das Wetter morgen?",
            "Erzähl mir einen Witz.",
            "Was kann ich heute kochen?",
            "Wie lange muss ein Ei kochen?",
            "Wann fährt der nächste Bus?",
            "Ich bin gestern spazieren gegangen.",
            "Mein Enkel hat angerufen.",
            "Spiel etwas Musik.",
            "Stell einen Wecker für sieben Uhr.",
            "Lies mir die Nachrichten vor.",
            "Wer hat gestern beim Fußball gewonnen?",
            "Hallo.",
            "Guten Morgen.",
            "Gute Nacht.",
            "Helga kommt heute zum Kaffee.",
        ],
    },
    "en": {
        "call": [
            # calls for help
            "Help!",
            "Help, help!",
            "Help me, please!",
            "Please help me!",
            "Somebody help me!",
            "Somebody help!",
            "I need help!",
            "Oh God, help me!",
            "Get help, quickly!",
            "Help, I'm hurt!",
            # falls
            "Help, I've fallen!",
            "I've fallen and I can't get up.",
            "I have fallen.",
            "I fell and I can't get up.",
            "I can't get up.",
            "I'm on the floor and can't get up.",
            "I fell down the stairs.",
            "I slipped in the bathroom.",
            "I think I broke my hip.",
            # pain, heart, breathing
            "I have terrible chest pain.",
            "My chest hurts so much.",
            "I think I'm having a heart attack.",
            "I can't breathe.",
            "I can't catch my breath.",
            "I'm so dizzy, I'm going to fall.",
            "I can't move my arm.",
            "Oh God, I'm bleeding.",
            # emergency services
            "Call an ambulance!",
            "I need an ambulance.",
            "Call 911!",
            "Call 112!",
            "I need a doctor, it's an emergency.",
            "Emergency!",
            "This is an emergency.",
            "There's a fire, call the fire brigade!",
            # someone else
            "My husband collapsed.",
            "My wife fell and she's not moving.",
        ],
        "harmless": [
            "I fell asleep early.",
            "I have fallen in love with jazz.",
            "The leaves have fallen.",
            "The stock market fell today.",
            "The temperature fell overnight.",
            "I fell for that joke again.",
            "Can you help me with a recipe?",
            "Can you help me find a good book?",
            "Help me write a letter to my son.",
            "I need help with my homework.",
            "Tell me about the Beatles song Help.",
            "Play Help Me Rhonda by the Beach Boys.",
            "Thanks for your help.",
            "That was very helpful.",
            "My neighbour helps me with the shopping.",
            "Helen is coming for tea today.",
            "I can't get up at six anymore, I'm retired.",
            "I breathe better since I quit smoking.",
            "I watched a documentary about heart surgery.",
            "Remind me to call my doctor tomorrow.",
            "When is my next doctor's appointment?",
            "Hello.",
            "Hello there.",
            "Good morning.",
            "Good night.",
            "What's the weather tomorrow?",
            "Play some music.",
            "What time is it?",
            "How high is Mount Everest?",
            "My grandson called me today.",
            "I went for a walk.",
            "Tell me a joke.",
            "Read me the news.",
            "How long do I boil an egg?",
            "Set an alarm for seven.",
            "Who won the football yesterday?",
            "What's on TV tonight?",
        ],
    },
}

# espeak-ng voices per language and kind: (voice, words a minute, pitch or None for the voice's own). Every voice at
# a normal speed for calls, and two more for calls as a frightened person says them: slow and fast with a raised
# pitch. Harmless sentences with two voices (what makes them look like calls is their words, not the voice).
# About 690 clips, 1,380 transcriptions: some 10 minutes on 2 cores.
ESPEAK = {
    "de": {"call": [("de", 160, None), ("de+m3", 160, None), ("de+f2", 160, None), ("de+f4", 160, None),
                    ("de+m3", 120, 70), ("de+f4", 190, 70)],
           "harmless": [("de", 160, None), ("de+f2", 160, None)]},
    "en": {"call": [("en-us", 160, None), ("en-gb", 160, None), ("en+f3", 160, None), ("en-us+m7", 160, None),
                    ("en-us+m7", 120, 70), ("en+f3", 190, 70)],
           "harmless": [("en-us", 160, None), ("en+f3", 160, None)]},
}
PIPER_SPEEDS = {"call": [1.0], "harmless": [1.0]}  # Piper's length_scale for each voice whose name starts "de_"/"en_"

# ---------------------------------------------------------------------------------------------------------------
# The gateway's matcher as it is: a port of `is_call_for_help` of src/emergency/spoken.rs at commit 5502504
# (`git log -1 --format=%h -- src/emergency/spoken.rs`), German and English lists only.

PORTED_COMMIT = "5502504"
PHRASES = {
    "en": {
        "alone": ["help", "help me", "i need help", "emergency", "this is an emergency", "call for help",
                  "somebody help", "someone help"],
        "anywhere": ["i have fallen", "i've fallen", "i fell", "i can't get up", "i cannot get up",
                     "call an ambulance", "call the ambulance", "i can't breathe", "i cannot breathe", "heart attack",
                     "call 112", "call 911"],
        "filler": ["please", "quick", "quickly", "now", "urgent", "urgently", "oh", "god"],
    },
    "de": {
        "alone": ["hilfe", "hilf mir", "helft mir", "helfen sie mir", "ich brauche hilfe", "notfall",
                  "das ist ein notfall", "ruf hilfe"],
        "anywhere": ["ich bin gestürzt", "ich bin hingefallen", "ich komme nicht mehr hoch", "ich komme nicht hoch",
                     "ruf den notarzt", "ruf einen krankenwagen", "ruf den krankenwagen", "ich bekomme keine luft",
                     "ich kriege keine luft", "herzinfarkt", "ruf die 112", "notruf"],
        "filler": ["bitte", "schnell", "sofort", "dringend", "jetzt", "oh", "gott", "mein"],
    },
}


def words(text):
    """Lower case, the words only, apostrophes kept ("I've fallen!" → "i've fallen")."""
    cleaned = "".join(c if c.isalnum() or c in "'’-" else " " for c in text.lower())
    return " ".join(cleaned.replace("’", "'").split())


def contains_words(text, phrase):
    return f" {phrase} " in f" {text} "


def without(text, lists):
    """What is left of `text` once every occurrence of the listed phrases (longest in UTF-8 bytes first,
    as Rust's stable sort by `len()`) is taken out."""
    every = sorted((p for lst in lists for p in lst), key=lambda p: -len(p.encode()))
    rest = f" {text} "
    for phrase in every:
        needle = f" {words(phrase)} "
        while needle in rest:
            rest = rest.replace(needle, " ")
    return " ".join(rest.split())


def is_call_for_help(text, language):
    heard = words(text)
    if not heard:
        return False
    for p in (PHRASES.get(language, PHRASES["en"]), PHRASES["en"]):
        anywhere = any(contains_words(heard, words(phrase)) for phrase in p["anywhere"])
        alone = any(contains_words(heard, words(phrase)) for phrase in p["alone"]) \
            and not without(heard, [p["alone"], p["filler"]])
        if anywhere or alone:
            return True
    return False


# ---------------------------------------------------------------------------------------------------------------
# Audio: the gateway's resampler (src/providers/resample.rs: polyphase windowed sinc, Blackman window, 16 zero
# crossings a side, cut-off at 45 % of the lower rate) for a whole clip, and G.711 µ-law.

_TAPS = {}


def resample(samples, source, target):
    if source == target:
        return samples.astype(np.int16)
    common = math.gcd(source, target)
    up, down = target // common, source // common
    if (up, down) not in _TAPS:
        cutoff = 0.45 / max(up, down)
        half = math.ceil(16 / (2 * cutoff))
        n = np.arange(2 * half + 1, dtype=np.float64)
        x = n - half
        with np.errstate(invalid="ignore", divide="ignore"):
            sinc = np.where(x == 0, 2 * cutoff, np.sin(2 * np.pi * cutoff * x) / (np.pi * x))
        phase = 2 * np.pi * n / (2 * half)
        blackman = 0.42 - 0.5 * np.cos(phase) + 0.08 * np.cos(2 * phase)
        _TAPS[(up, down)] = (sinc * blackman * up, half)
    taps, half = _TAPS[(up, down)]
    x = samples.astype(np.float64)
    total = -(-len(x) * up // down)
    t = np.arange(total, dtype=np.int64) * down  # output m: the filter centred at up-sampled time m·down
    first = -(-(t - half) // up)  # ceil((t - half) / up), inputs before 0 count as silence
    span = (2 * half) // up + 2
    i = first[:, None] + np.arange(span)[None, :]
    tap = i * up + half - t[:, None]
    ok = (tap >= 0) & (tap <= 2 * half) & (i >= 0) & (i < len(x))
    contrib = np.where(ok, x[np.clip(i, 0, len(x) - 1)] * taps[np.clip(tap, 0, 2 * half)], 0.0)
    out = contrib.sum(axis=1)
    out = np.sign(out) * np.floor(np.abs(out) + 0.5)  # Rust's round(): half away from zero
    return np.clip(out, -32768, 32767).astype(np.int16)


def telephone(pcm16k):
    """16 kHz → 8 kHz → G.711 µ-law and back → 16 kHz, as a phone line reaches the gateway."""
    narrow = resample(pcm16k, RATE, 8000)
    decoded = audioop.ulaw2lin(audioop.lin2ulaw(narrow.tobytes(), 2), 2)
    return resample(np.frombuffer(decoded, np.int16), 8000, RATE)


def wav_bytes(pcm, rate=RATE):
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.astype(np.int16).tobytes())
    return buf.getvalue()


def read_wav(path_or_file):
    with wave.open(path_or_file, "rb") as w:
        assert w.getsampwidth() == 2, "16-bit WAV expected"
        rate, channels = w.getframerate(), w.getnchannels()
        pcm = np.frombuffer(w.readframes(w.getnframes()), np.int16)
    if channels > 1:
        pcm = pcm.reshape(-1, channels).mean(axis=1).astype(np.int16)
    return pcm, rate


def trimmed(pcm, pad_ms=300):
    """The voice's own leading and trailing silence cut, `pad_ms` of silence on each side (what the voice
    detector's pre-roll and end of turn leave around the speech)."""
    loud = np.nonzero(np.abs(pcm.astype(np.int32)) > 328)[0]
    if len(loud):
        pcm = pcm[loud[0]:loud[-1] + 1]
    pad = np.zeros(RATE * pad_ms // 1000, np.int16)
    return np.concatenate([pad, pcm, pad])


_PIPER = {}


def synthesize(voice, text):
    """`voice` is ("espeak", name, wpm, pitch) or ("piper", path, length_scale); the clip at 16 kHz."""
    if voice[0] == "espeak":
        _, name, wpm, pitch = voice
        with tempfile.NamedTemporaryFile(suffix=".wav") as f:
            command = ["espeak-ng", "-v", name, "-s", str(wpm)] + (["-p", str(pitch)] if pitch else [])
            subprocess.run(command + ["-w", f.name, text], check=True)
            pcm, rate = read_wav(f.name)
    else:
        from piper import PiperVoice, SynthesisConfig

        _, path, scale = voice
        if path not in _PIPER:
            _PIPER[path] = PiperVoice.load(path)
        buf = io.BytesIO()
        with wave.open(buf, "wb") as w:
            _PIPER[path].synthesize_wav(text, w, syn_config=SynthesisConfig(length_scale=scale))
        buf.seek(0)
        pcm, rate = read_wav(buf)
    return trimmed(resample(pcm, rate, RATE))


def voice_name(voice):
    if voice[0] == "espeak":
        _, name, wpm, pitch = voice
        return f"espeak-ng {name} s{wpm}" + (f" p{pitch}" if pitch else "")
    _, path, scale = voice
    name = os.path.basename(path)[:-5]
    return f"piper {name}" + (f" x{scale}" if scale != 1.0 else "")


def voices_for(language, kind, voices_dir):
    out = []
    for name, wpm, pitch in ESPEAK[language][kind]:
        out.append(("espeak", name, wpm, pitch))
    for path in sorted(os.listdir(voices_dir)) if os.path.isdir(voices_dir) else []:
        if path.endswith(".onnx") and path.lower().startswith(language + "_"):
            for scale in PIPER_SPEEDS[kind]:
                out.append(("piper", os.path.join(voices_dir, path), scale))
    return out


# ---------------------------------------------------------------------------------------------------------------


def write_fixture(path, header, entries):
    """Pretty enough to diff: the header, then one entry a line."""
    with open(path, "w", encoding="utf-8") as f:
        f.write("{\n")
        for key, value in header.items():
            f.write(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n")
        f.write('  "entries": [\n')
        f.write(",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in entries))
        f.write("\n  ]\n}\n")


def make(args):
    import faster_whisper
    from faster_whisper import WhisperModel

    model = WhisperModel(args.model, device="cpu", compute_type="int8", cpu_threads=args.threads)
    jobs = [(language, kind, said, voice)
            for language in args.languages.split(",")
            for kind in ("call", "harmless")
            for said in SENTENCES[language][kind]
            for voice in voices_for(language, kind, args.voices)]
    print(f"{len(jobs)} clips, {2 * len(jobs)} transcriptions", flush=True)
    if args.keep_wavs:
        os.makedirs(args.keep_wavs, exist_ok=True)
    entries, failed, started = [], {}, time.time()
    engines.transcribe_short(model, wav_bytes(np.zeros(RATE, np.int16)), "en", 15)  # warm-up
    for n, (language, kind, said, voice) in enumerate(jobs, 1):
        name = voice_name(voice)
        try:
            pcm = synthesize(voice, said)
        except Exception as e:  # a voice that fails is reported, the rest goes on
            failed.setdefault(name, f"{type(e).__name__}: {e}")
            continue
        for line, audio in (("browser", pcm), ("telephone", telephone(pcm))):
            data = wav_bytes(audio)
            if args.keep_wavs:
                with open(os.path.join(args.keep_wavs, f"{n:04d}-{language}-{kind}-{line}.wav"), "wb") as f:
                    f.write(data)
            text, _, _, heard_words = engines.transcribe_short(model, data, language, 15)
            # What the gateway's second hearing gets (src/voice/listen.rs): the same clip with the help prompt.
            again, _, _, again_words = engines.transcribe_short(model, data, language, 15, PROMPTS[language])
            entries.append({"kind": kind, "language": language, "said": said, "voice": name, "line": line,
                            "heard": text, "words": [[w["word"], w["probability"]] for w in heard_words],
                            "again": again, "again_words": [[w["word"], w["probability"]] for w in again_words]})
        if n % 25 == 0 or n == len(jobs):
            print(f"{n}/{len(jobs)} clips, {time.time() - started:.0f} s", flush=True)
    size = os.path.basename(args.model.rstrip("/")).replace("whisper-", "")
    header = {
        "recogniser": f"faster-whisper {faster_whisper.__version__}, Whisper {size} int8, engines.py "
                      f"transcribe_short (15 s window)",
        "made": datetime.date.today().isoformat(),
        "command": "target/engines/venv/bin/python scripts/help-corpus.py make",
        "took_seconds": round(time.time() - started),
        "prompts": {language: PROMPTS[language] for language in args.languages.split(",")},
    }
    write_fixture(args.fixture, header, entries)
    print(f"wrote {args.fixture}: {len(entries)} entries in {time.time() - started:.0f} s")
    for name, error in failed.items():
        print(f"voice failed: {name}: {error}")
    if not any(e["words"] for e in entries):
        print("warning: no entry has word probabilities")


def before(args):
    corpus = json.load(open(args.fixture, encoding="utf-8"))
    entries = corpus["entries"]
    print(f"is_call_for_help as of {PORTED_COMMIT} on {args.fixture} ({corpus['recogniser']}, {corpus['made']})\n")
    print(f"{'language':8} {'line':9} {'calls':>5} {'missed':>6} {'miss %':>6}   {'harmless':>8} {'flagged':>7} {'flag %':>6}")
    groups = sorted({(e["language"], e["line"]) for e in entries}) + [("all", "all")]
    for language, line in groups:
        chosen = [e for e in entries if language in ("all", e["language"]) and line in ("all", e["line"])]
        calls = [e for e in chosen if e["kind"] == "call"]
        harmless = [e for e in chosen if e["kind"] == "harmless"]
        missed = sum(not is_call_for_help(e["heard"], e["language"]) for e in calls)
        flagged = sum(is_call_for_help(e["heard"], e["language"]) for e in harmless)
        print(f"{language:8} {line:9} {len(calls):5} {missed:6} {100 * missed / max(1, len(calls)):6.1f}   "
              f"{len(harmless):8} {flagged:7} {100 * flagged / max(1, len(harmless)):6.1f}")
    print("\nPer voice (both lines): calls missed, harmless flagged")
    for language, voice in sorted({(e["language"], e["voice"]) for e in entries}):
        chosen = [e for e in entries if e["language"] == language and e["voice"] == voice]
        calls = [e for e in chosen if e["kind"] == "call"]
        harmless = [e for e in chosen if e["kind"] == "harmless"]
        missed = sum(not is_call_for_help(e["heard"], language) for e in calls)
        flagged = sum(is_call_for_help(e["heard"], language) for e in harmless)
        print(f"  {language} {voice:28} calls {missed:3}/{len(calls):<3}  harmless {flagged:2}/{len(harmless)}")
    print("\nAs said (the sentence itself, before any recogniser):")
    for language in SENTENCES:
        missed = [s for s in SENTENCES[language]["call"] if not is_call_for_help(s, language)]
        flagged = [s for s in SENTENCES[language]["harmless"] if is_call_for_help(s, language)]
        print(f"  {language}: {len(missed)} of {len(SENTENCES[language]['call'])} calls missed, "
              f"{len(flagged)} of {len(SENTENCES[language]['harmless'])} harmless flagged")
    for kind, title, wrong in (("call", "Missed calls", False), ("harmless", "Harmless sentences taken for calls", True)):
        print(f"\n{title} (said → heard [voice, line]):")
        last = None
        for e in sorted((e for e in entries if e["kind"] == kind and is_call_for_help(e["heard"], e["language"]) == wrong),
                        key=lambda e: (e["language"], e["said"], e["line"], e["voice"])):
            if (e["language"], e["said"]) != last:
                last = (e["language"], e["said"])
                print(f"  {e['language']} {e['said']}")
            print(f"      → {e['heard']!r:60} [{e['voice']}, {e['line']}]")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="synthesize, transcribe and write the fixture")
    m.add_argument("--model", default="target/engines/models/whisper-base")
    m.add_argument("--voices", default="target/engines/voices")
    m.add_argument("--languages", default="de,en")
    m.add_argument("--threads", type=int, default=2)
    m.add_argument("--keep-wavs", nargs="?", const="target/help-corpus", default=None,
                   help="also write each clip's WAV (default folder target/help-corpus)")
    m.add_argument("--fixture", default=FIXTURE)
    b = sub.add_parser("before", help="the current matcher's misses and needless questions")
    b.add_argument("--fixture", default=FIXTURE)
    args = parser.parse_args()
    {"make": make, "before": before}[args.command](args)


if __name__ == "__main__":
    main()
