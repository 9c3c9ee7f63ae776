"""Can the offline chat model tell a finished question from a fragment by its text (a text turn detector)?

Run from the repository with a Python that has `xllamacpp` (the engines' venv has it):
  nice -n 10 target/engines/venv/bin/python scripts/eot-compare.py [--model target/engines/models/SmolLM2-135M-Instruct.Q4_1.gguf]
It starts its own llama.cpp server (engines/engines.py llm, 2 threads, 127.0.0.1 on a free port) and stops it.

The question text turn detectors (LiveKit's, for example) ask a small language model: the transcript is put in
the chat template as the user's message, the message's end token is left off, and the probability of that end
token as the next token is read. SmolLM2's template is ChatML, the end token `<|im_end|>`:
  <|im_start|>system\n{the gateway's default system prompt}<|im_end|>\n<|im_start|>user\n{text}  -> P(<|im_end|>)
read from `/completion` with `n_predict: 1` and the top `--top` probabilities before sampling (0 when the
token is not among them). The end token is checked to be one special token (`/tokenize` with `parse_special`) and
found by its id.

Texts (below, per language): fragments a person pauses after mid-sentence and finished questions or commands.
The gateway's words rule (src/listen/words.rs, copied here) already holds back fragments that end in a function
word; the rest ("passed") are the ones this model would be asked about, and the hardest of them end in a noun
and sound finished ("Tell me about my appointments" before "... for tomorrow"; HARD below). Each text in four written forms:
  asr    finished texts with their final punctuation, fragments without (Whisper at its most helpful)
  punct  fragments punctuated too, "?" or "." (Whisper often writes "What is the capital of?")
  bare   no final punctuation on anything
  norm   lowercase, no punctuation at all (LiveKit's normalisation before its model)
For each form and language: P for fragments and finished texts (median, min, max), the ROC AUC, the best
threshold (balanced accuracy, chosen on the same texts, so optimistic), the AUC against the passed fragments and
against the noun-ending ones, and their best threshold. Then the time per query (wall clock of the HTTP request, the system prompt cached in the server's slot
as it would be in the gateway): median and p90, idle and again with `yes > /dev/null` busy on one core, with the
server on 2 threads and on 1 (`--threads`). The machine's load average before each pass is printed with it.
`--system template` uses SmolLM2's own default system prompt instead of the gateway's.
"""

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = os.path.join(HERE, "..", "engines", "engines.py")
END = "<|im_end|>"
SYSTEM = {
    # src/config/keys.rs DEFAULT_SYSTEM_PROMPT
    "gateway": "You are a friendly voice assistant. Answer briefly in plain spoken sentences, without lists, tables "
               "or markdown, in the language of the user.",
    # SmolLM2's chat template when no system message is given
    "template": "You are a helpful AI assistant named SmolLM, trained by Hugging Face",
}

# Fragments a person pauses after (the turn is not over) ...
FRAGMENTS = {
    "en": [
        "I would like to know", "Can you tell me", "What is the capital of", "My daughter is coming to visit and",
        "Could you please", "What time does the", "Remind me to",
        "Turn on the lights in the", "I need you to", "How long does it take to", "Set a timer for",
        "What's the weather going to be like on", "Play some music by", "Send a message to",
        "Who was the first person to", "I was wondering", "So what I wanted to ask is",
    ],
    "de": [
        "Ich möchte wissen", "Kannst du mir sagen", "Meine Tochter kommt am Wochenende und",
        "Wer hat das", "Was ist die Hauptstadt von", "Erinnere mich daran, dass", "Schalte bitte das Licht im",
        "Wie lange braucht man bis", "Stell einen Timer für", "Spiel mal etwas von", "Schick eine Nachricht an",
        "Wer war der erste Mensch, der", "Kannst du bitte", "Wie viel Uhr ist es in", "Ich hätte gern", "Sag mir mal",
        "Ich wollte fragen",
    ],
}
# The hard case: fragments that end in a noun (or a complete-sounding phrase) and sound finished; the person
# goes on ("... for tomorrow", "... im Wohnzimmer"). Counted as fragments too.
HARD = {
    "en": [
        "And so my fellow Americans", "I would like to know the weather", "Tell me about my appointments",
        "Turn on the lights", "What is the population of Germany", "Set an alarm", "Add milk to the shopping list",
        "Call my mother", "Play the new album", "How far is it to Munich", "Remind me about the meeting",
    ],
    "de": [
        "Wie wird das Wetter", "Erzähl mir von meinen Terminen", "Stell einen Wecker",
        "Setz Milch auf die Einkaufsliste", "Spiel das neue Album", "Wie weit ist es nach München",
        "Erinnere mich an das Treffen", "Was ist die Einwohnerzahl von Deutschland", "Ich möchte das Wetter wissen",
    ],
}
# ... and finished questions and commands.
COMPLETE = {
    "en": [
        "What is the capital of France?", "Tell me a joke.", "What time is it?", "How is the weather tomorrow in London?",
        "Set a timer for ten minutes.", "Turn off the kitchen lights.", "Who wrote Pride and Prejudice?",
        "How many legs does a spider have?", "Remind me to call my mother at six.", "What's on my calendar today?",
        "Play some jazz.", "Can you tell me the time in Tokyo?", "I would like to know the weather for tomorrow.",
        "Add eggs to my shopping list.", "How far is the moon from the earth?", "What is two plus two?",
        "Thank you.", "Send a message to Anna saying I'm late.", "Which planet is closest to the sun?",
        "Is it going to rain this afternoon?", "Name a colour.",
    ],
    "de": [
        "Wie spät ist es in Berlin?", "Nenne eine Farbe.", "Was ist die Hauptstadt von Frankreich?",
        "Erzähl mir einen Witz.", "Wie wird das Wetter morgen in Hamburg?", "Stell einen Timer auf zehn Minuten.",
        "Schalte das Licht in der Küche aus.", "Wer hat Faust geschrieben?", "Wie viele Beine hat eine Spinne?",
        "Erinnere mich um sechs daran, meine Mutter anzurufen.", "Was steht heute in meinem Kalender?",
        "Spiel etwas Jazz.", "Wie viel Uhr ist es in Tokio?", "Setz Eier auf meine Einkaufsliste.",
        "Wie weit ist der Mond von der Erde entfernt?", "Was ist zwei plus zwei?", "Danke schön.",
        "Schick Anna eine Nachricht, dass ich später komme.", "Welcher Planet ist der Sonne am nächsten?",
        "Regnet es heute Nachmittag?", "Kannst du mir sagen, wie spät es ist?",
    ],
}
# src/listen/words.rs UNFINISHED for en and de
UNFINISHED = {
    "en": {"a", "an", "the", "of", "in", "at", "with", "into", "onto", "than", "and", "or", "but", "because", "if",
           "when", "while", "although", "whether", "my", "your", "its", "our", "their", "um", "uh", "erm"},
    "de": {"der", "die", "den", "dem", "des", "eine", "einen", "einem", "einer", "eines", "von", "vom", "zum", "zur",
           "in", "im", "am", "für", "mit", "über", "unter", "bei", "gegen", "und", "oder", "aber", "weil", "dass",
           "wenn", "ob", "sondern", "mein", "meine", "meinen", "meinem", "meiner", "dein", "deine", "seine", "ihre",
           "unser", "unsere", "äh", "ähm"},
}
QUESTION_WORDS = {"what", "what's", "who", "how", "can", "could", "is", "which", "wie", "was", "wer", "kannst",
                  "welcher"}
FORMS = ["asr", "punct", "bare", "norm"]


def words_rule(text, lang):
    """The gateway's words rule: the last word is one a finished sentence does not end with."""
    last = text.split()[-1].strip(".,?!").lower()
    return last in UNFINISHED[lang]


def written(text, complete, form):
    bare = text.rstrip(".?!")
    if form == "asr":
        return text if complete else bare
    if form == "punct":
        return text if complete else bare + ("?" if bare.split()[0].lower() in QUESTION_WORDS else ".")
    if form == "bare":
        return bare
    return " ".join(re.sub(r"[^\w\s'-]", " ", text.lower()).split())  # norm


def post(port, path, body):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def end_token(port):
    """The id of `<|im_end|>`, checked to be one special token."""
    tokens = post(port, "/tokenize", {"content": END, "parse_special": True, "with_pieces": True})["tokens"]
    assert len(tokens) == 1 and tokens[0]["piece"] == END, tokens
    plain = post(port, "/tokenize", {"content": END, "parse_special": False})["tokens"]
    assert len(plain) > 1, "without `parse_special` the end token should be spelled out as text"
    # /completion parses special tokens in the prompt as /tokenize does by default: one id each
    ids = post(port, "/tokenize", {"content": prompt_for("x", "Hi")})["tokens"]
    assert ids.count(tokens[0]["id"]) == 1 and ids[-1] != tokens[0]["id"], ids
    return tokens[0]["id"]


def prompt_for(system, text):
    """The ChatML conversation up to the user's text, its end token left off."""
    return f"<|im_start|>system\n{system}{END}\n<|im_start|>user\n{text}"


def p_end(port, end_id, system, text, top):
    """P(end token) as the next token after the user's text, and the request's wall time in seconds."""
    prompt = prompt_for(system, text)
    started = time.perf_counter()
    reply = post(port, "/completion", {"prompt": prompt, "n_predict": 1, "n_probs": top, "temperature": 0,
                                       "cache_prompt": True, "post_sampling_probs": False})
    took = time.perf_counter() - started
    probs = reply["completion_probabilities"][0]["top_logprobs"]
    p = next((2.718281828459045 ** t["logprob"] for t in probs if t["id"] == end_id), 0.0)
    return p, took


def auc(pos, neg):
    """ROC AUC: the chance a finished text scores above a fragment (ties count half)."""
    if not pos or not neg:
        return float("nan")
    return sum((a > b) + 0.5 * (a == b) for a in pos for b in neg) / (len(pos) * len(neg))


def best_threshold(pos, neg):
    """The threshold (finished when P >= t) with the best balanced accuracy, and that accuracy."""
    best = (0.0, 0.0)
    for t in sorted(set(pos + neg)):
        acc = (sum(p >= t for p in pos) / len(pos) + sum(n < t for n in neg) / len(neg)) / 2
        if acc > best[1]:
            best = (t, acc)
    return best


def spread(values):
    return f"{statistics.median(values):.2g} [{min(values):.2g}–{max(values):.2g}]"


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def measure(port, end_id, system, top, forms, verbose):
    """{(lang, form): {"complete": [p], "fragment": [p], "hard": [p]}} and the wall times."""
    results, times = {}, []
    for lang in ("en", "de"):
        for form in forms:
            r = results[(lang, form)] = {"complete": [], "fragment": [], "passed": [], "hard": []}
            for kind, texts in (("complete", COMPLETE[lang]), ("fragment", FRAGMENTS[lang]), ("hard", HARD[lang])):
                for text in texts:
                    shown = written(text, kind == "complete", form)
                    p, took = p_end(port, end_id, system, shown, top)
                    times.append(took)
                    r[kind].append(p)
                    if kind != "complete":
                        if kind == "hard":
                            r["fragment"].append(p)
                        if not words_rule(text, lang):
                            r["passed"].append(p)
                    if verbose:
                        print(f"  {lang} {form:5} {kind:8} {p:.6f} {took * 1000:4.0f} ms  {shown}", file=sys.stderr)
    return results, times


def timing(port, end_id, system, top, rounds):
    """Wall times of `rounds` passes over all asr-form texts."""
    times = []
    for _ in range(rounds):
        for lang in ("en", "de"):
            for complete, texts in ((True, COMPLETE[lang]), (False, FRAGMENTS[lang] + HARD[lang])):
                for text in texts:
                    times.append(p_end(port, end_id, system, written(text, complete, "asr"), top)[1])
    return times


def start(model, threads):
    """engines.py's llama.cpp server on a free loopback port, ready: (process, port)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = subprocess.Popen([sys.executable, ENGINES, "llm", "--model", model, "--port", str(port),
                               "--alias", "m", "--threads", str(threads)], stderr=subprocess.DEVNULL)
    for _ in range(240):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2)
            return server, port
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise SystemExit("the llama.cpp server did not start")


def stop(process):
    if process is not None:
        process.terminate()
        process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="target/engines/models/SmolLM2-135M-Instruct.Q4_1.gguf")
    parser.add_argument("--system", default="gateway", choices=sorted(SYSTEM))
    parser.add_argument("--top", type=int, default=1000, help="how many top probabilities the server returns")
    parser.add_argument("--forms", default=",".join(FORMS))
    parser.add_argument("--threads", default="2,1", help="the server's threads for the latency figures")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the texts per latency figure (0: none)")
    parser.add_argument("--verbose", action="store_true", help="every text's P on stderr")
    args = parser.parse_args()
    system = SYSTEM[args.system]
    forms = args.forms.split(",") if args.forms else []

    server, port = start(args.model, 2)
    try:
        end_id = end_token(port)
        p_end(port, end_id, system, "Hello.", args.top)  # warm-up, and the system prompt into the slot's cache
        results, _ = measure(port, end_id, system, args.top, forms, args.verbose)
    finally:
        stop(server)
    if forms:
        print(f"\nP({END}) (id {end_id}) after the user's text, system prompt '{args.system}', top {args.top}; "
              f"median [min–max]; 'passed' = fragments the words rule lets through, 'noun' = the hard ones ending "
              f"in a noun; AUC finished vs each; best threshold (finished when P >= t) and its balanced accuracy")
        print("\n| lang | form | finished (n) | all fragments (n) | noun-ending (n) | AUC all | AUC passed | AUC noun | "
              "best t: bal. acc. all | best t: bal. acc. noun |\n|---|---|---|---|---|---|---|---|---|---|")
        for (lang, form), r in results.items():
            c, f, w, h = r["complete"], r["fragment"], r["passed"], r["hard"]
            t_all, a_all = best_threshold(c, f)
            t_hard, a_hard = best_threshold(c, h)
            print(f"| {lang} | {form} | {spread(c)} ({len(c)}) | {spread(f)} ({len(f)}) | {spread(h)} ({len(h)}) | "
                  f"{auc(c, f):.2f} | {auc(c, w):.2f} | {auc(c, h):.2f} | {t_all:.2g}: {a_all:.0%} | "
                  f"{t_hard:.2g}: {a_hard:.0%} |", flush=True)
    if args.rounds <= 0:
        return
    print("\n| threads | load | queries | median ms | p90 ms | min ms | max ms | ≤ 150 ms | load avg before |\n"
          "|---|---|---|---|---|---|---|---|---|")
    for threads in [int(t) for t in args.threads.split(",")]:
        (server, port), busy = start(args.model, threads), None
        try:
            p_end(port, end_id, system, "Hello.", args.top)
            for name in ("idle", "one core busy (yes)"):
                if name != "idle":
                    busy = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL)
                load = os.getloadavg()[0]
                ms = [t * 1000 for t in timing(port, end_id, system, args.top, args.rounds)]
                print(f"| {threads} | {name} | {len(ms)} | {statistics.median(ms):.0f} | {percentile(ms, 0.9):.0f} | "
                      f"{min(ms):.0f} | {max(ms):.0f} | {sum(m <= 150 for m in ms) / len(ms):.0%} | {load:.1f} |",
                      flush=True)
        finally:
            stop(busy)
            stop(server)


if __name__ == "__main__":
    main()
