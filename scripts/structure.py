#!/usr/bin/env python3
"""The figures of the code's order (issue 44), for a before/after table: run from the checkout's root.

- `json!` calls in `src/` outside the unit tests;
- functions longer than 80 lines in `src/` (from the `fn` line to its closing brace, as rustfmt writes them);
- imports that run up: a module below the crate root importing what `lib.rs` itself defines, and the voice
  core (`voice`, `listen`, `turn`) importing a channel;
- engine-specific branches outside the engines' own files: a provider id's variant named in code outside
  `src/providers/`, the engines' set-up (`src/engines.rs`) and the settings (`src/config/`), each of which is
  counted on its own row;
- fixed sleeps in `tests/` (a sleep of a literal duration, not a wait for an event);
- the largest files of `src/` and `tests/`.

`--list` prints what each figure counts.
"""

import pathlib
import re
import sys

LIMIT = 80
CHANNELS = ["ws", "wyoming", "phone", "sip", "openai", "routes", "server"]
CORE = ["voice", "listen", "turn"]


def code(path):
    """The file without its unit tests (by convention the `#[cfg(test)] mod tests` at its end)."""
    text = path.read_text()
    cut = re.search(r"^#\[cfg\(test\)\]\s*\nmod tests", text, re.M)
    return text[: cut.start()] if cut else text


def functions(path):
    lines = code(path).splitlines()
    found = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)(pub(\([^)]*\))? )?(const )?(async )?(unsafe )?fn (\w+)", line)
        if not m:
            continue
        indent = m.group(1)
        for j in range(i, len(lines)):
            if lines[j].rstrip().endswith(";") and "{" not in "".join(lines[i : j + 1]):
                break  # a declaration without a body
            if lines[j] == indent + "}":
                found.append((j - i + 1, f"{path}:{i + 1} {m.group(7)}"))
                break
    return found


def module_of(path):
    parts = path.relative_to("src").with_suffix("").parts
    return parts[0] if parts else ""


def main():
    listing = "--list" in sys.argv
    src = sorted(pathlib.Path("src").rglob("*.rs"))
    tests = sorted(pathlib.Path("tests").rglob("*.rs"))
    rows = {}

    json_calls = [f"{p}:{code(p)[: m.start()].count(chr(10)) + 1}" for p in src for m in re.finditer(r"json!\(", code(p))]
    rows["json! calls in src/ (outside unit tests)"] = json_calls

    long = sorted((n, where) for p in src for n, where in functions(p) if n > LIMIT)
    rows[f"functions over {LIMIT} lines in src/"] = [f"{where} ({n})" for n, where in reversed(long)]

    root = set(re.findall(r"^pub(?:\(crate\))? (?:async )?(?:fn|struct|const) (\w+)", pathlib.Path("src/lib.rs").read_text(), re.M))
    up = []
    for p in src:
        if p.name in ("lib.rs", "main.rs"):
            continue
        text = code(p)
        for name in root:
            for m in re.finditer(rf"crate::{name}\b", text):
                up.append(f"{p}:{text[: m.start()].count(chr(10)) + 1} crate::{name}")
        if module_of(p) in CORE:
            for channel in CHANNELS:
                for m in re.finditer(rf"crate::{channel}::", text):
                    up.append(f"{p}:{text[: m.start()].count(chr(10)) + 1} crate::{channel}")
    rows["imports running up (crate root from below, channels from the voice core)"] = up

    ids = pathlib.Path("src/providers")
    variants = set()
    for p in ids.rglob("*.rs"):
        for m in re.finditer(r"registry!\s*\{([^}]*)\}", p.read_text(), re.S):
            variants.update(re.findall(r"^\s*(\w+)\s*[=:(,]", m.group(1), re.M))
    branches = {"code": [], "config": [], "engines": []}
    for p in src:
        if ids in p.parents:
            continue
        text = code(p)
        kind = "config" if pathlib.Path("src/config") in p.parents else "engines" if p == pathlib.Path("src/engines.rs") else "code"
        for m in re.finditer(r"\b(Stt|Llm|Tts|Search)Id::(\w+)", text):
            if m.group(2)[0].isupper():
                branches[kind].append(f"{p}:{text[: m.start()].count(chr(10)) + 1} {m.group(0)}")
    rows["engine-specific branches outside src/providers/, src/engines.rs and src/config/"] = branches["code"]
    rows["engine ids in the settings (defaults, presets, the per-engine keys)"] = branches["config"]
    rows["engine ids in the engines' set-up (src/engines.rs)"] = branches["engines"]

    sleeps = []
    for p in tests:
        for i, line in enumerate(p.read_text().splitlines()):
            if re.search(r"(tokio::time::sleep|thread::sleep)\(\s*(Duration::from_(secs|millis)\(\d+\)|std::time::Duration::from_(secs|millis)\(\d+\))", line):
                sleeps.append(f"{p}:{i + 1} {line.strip()}")
    rows["fixed sleeps in tests/"] = sleeps

    for name, items in rows.items():
        print(f"{name}: {len(items)}")
        if listing:
            for item in items:
                print(f"    {item}")
    sizes = sorted(((len(p.read_text().splitlines()), str(p)) for p in src + tests), reverse=True)[:6]
    print("largest files: " + ", ".join(f"{path} {n}" for n, path in sizes))


if __name__ == "__main__":
    main()
